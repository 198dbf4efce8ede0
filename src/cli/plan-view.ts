/**
 * The model's plan as a checklist (☐ pending, ◐ in progress, ☑ completed). In the REPL a turn's checklist
 * is redrawn where it stands when the model updates it, as long as it is still on screen and has the same
 * number of lines; otherwise the new one is printed below.
 */
import type { ChalkInstance } from 'chalk';
import type { Plan } from '../core/index.js';
import { sanitizeForTerminal } from './sanitize.js';

const MARKS = { pending: '☐', in_progress: '◐', completed: '☑' } as const;

/** The checklist's lines (no newlines), each cut to fit `columns`. */
export function planLines(plan: Plan, color: ChalkInstance, columns = Infinity): string[] {
  const fit = (text: string, indent: number): string => {
    const room = Math.max(8, columns - 1 - indent);
    const flat = sanitizeForTerminal(text.replace(/\s+/g, ' ').trim());
    return flat.length > room ? `${flat.slice(0, room - 1)}…` : flat;
  };
  const explanation = plan.explanation?.trim();
  const header = `${color.bold('Plan')}${explanation ? color.dim(` — ${fit(explanation, 7)}`) : ''}`;
  const steps = plan.plan.map(({ step, status }) => {
    const text = fit(step, 4);
    if (status === 'completed') return `  ${color.green(MARKS.completed)} ${color.dim(text)}`;
    if (status === 'in_progress') return `  ${color.cyan(MARKS.in_progress)} ${color.bold(text)}`;
    return `  ${MARKS.pending} ${text}`;
  });
  return [header, ...(steps.length > 0 ? steps : [color.dim('  (no steps)')])];
}

/** CSI/OSC sequences and other escapes: no width on screen. */
// eslint-disable-next-line no-control-regex
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[78]/g;

export class PlanView {
  /** Lines of the checklist drawn last (0: none on screen). */
  private height = 0;
  /** Screen rows the cursor moved down since the checklist was drawn. */
  private rowsBelow = 0;
  private column = 0;

  constructor(
    private readonly screen: {
      write(text: string): void;
      columns(): number;
      rows(): number;
    },
    private readonly color: ChalkInstance,
  ) {}

  /**
   * Everything else written to the screen passes here, so the view knows where its checklist is: rows
   * written below it, less the rows a live block moved back up (`CSI n A`) to redraw itself.
   */
  note(text: string): void {
    if (this.height === 0) return;
    const columns = Math.max(1, this.screen.columns());
    let last = 0;
    for (const match of text.matchAll(ESCAPES)) {
      this.count(text.slice(last, match.index), columns);
      last = match.index + match[0].length;
      const sequence = match[0];
      if (sequence.startsWith('\u001b[') && sequence.endsWith('A')) {
        const rows = Number(sequence.slice(2, -1) || '1');
        if (Number.isInteger(rows)) this.rowsBelow = Math.max(0, this.rowsBelow - rows);
      }
    }
    this.count(text.slice(last), columns);
  }

  private count(text: string, columns: number): void {
    for (const char of text) {
      if (char === '\n') {
        this.rowsBelow += 1;
        this.column = 0;
      } else if (char === '\r') {
        this.column = 0;
      } else if (char >= ' ') {
        if (this.column >= columns) {
          this.rowsBelow += 1;
          this.column = 0;
        }
        this.column += 1;
      }
    }
  }

  show(plan: Plan): void {
    const lines = planLines(plan, this.color, this.screen.columns());
    const up = this.rowsBelow + this.height;
    if (this.height === lines.length && up < this.screen.rows()) {
      // Cursor saved, up to the checklist, each line rewritten, cursor back: nothing scrolls.
      const redraw = lines.map((line) => `\r\u001b[2K${line}`).join('\u001b[1B');
      this.screen.write(`\u001b7\u001b[${up}A${redraw}\u001b8`);
      return;
    }
    this.screen.write(`${this.column > 0 ? '\r\n' : ''}${lines.join('\r\n')}\r\n`);
    this.height = lines.length;
    this.rowsBelow = 0;
    this.column = 0;
  }
}
