/**
 * Tool calls in the REPL as they run: while a call runs, a live block at the bottom of the screen shows
 * it with an elapsed-time counter and its last few output lines, redrawn in place; when it finishes,
 * the block is erased and one lasting block is printed: the call line with its outcome
 * (`⏺ $ ls -la  ✓ 0.0s`, `✗ exit 2`), then the command's own output, folded. Every output block sits
 * under the call it belongs to, so parallel calls stay labelled.
 */
import type { ChalkInstance } from 'chalk';
import type { FunctionCallItem } from '../protocol/index.js';
import type { SessionEvent } from '../core/index.js';
import { layoutBlock } from './layout/layout.js';
import { truncateToWidth } from './layout/width.js';
import { sanitizeForTerminal } from './sanitize.js';
import { outcomeText, paint } from './turn-view/wording.js';
import { commandOutput, diffPreview, foldOutput, summarizeToolCall } from './tool-summary.js';

/** Output lines shown live under a running call. */
export const LIVE_LINES = 5;
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

type Finished = Extract<SessionEvent, { type: 'tool-finished' }>;

/** A call decided on: its edit's diff (when shown here) and, once recorded, its output. */
interface Known {
  call: FunctionCallItem;
  diff: string[];
  output?: string;
}

interface Running {
  call: FunctionCallItem;
  started: number;
  /** Streamed output: complete lines (the last LIVE_LINES kept) and the line still open. */
  tail: string[];
  open: string;
}

export interface ToolView {
  /** A call was decided; `showDiff` when its edit was not already shown by a question. */
  called(call: FunctionCallItem, showDiff: boolean): void;
  started(call: FunctionCallItem): void;
  output(callId: string, chunk: string): void;
  /** The output recorded for the model (shown, folded, when the call finishes). */
  recorded(callId: string, output: string): void;
  finished(event: Finished): void;
  /** Whether a call is running (the live block is up). */
  readonly busy: boolean;
  /** Erases the live block and stops its timer (the turn ended or was stopped). */
  stop(): void;
}

export function createToolView(
  write: (text: string) => void,
  color: ChalkInstance,
  columns: () => number,
  now: () => number = Date.now,
  /** Writes the live block (erased before anything lasting is written); default `write`. */
  live: (text: string) => void = write,
): ToolView {
  const calls = new Map<string, Known>();
  const running = new Map<string, Running>();
  let drawnRows = 0;
  let frame = 0;
  let timer: NodeJS.Timeout | undefined;
  const erase = (): void => {
    if (drawnRows === 0) return;
    live(`${drawnRows > 1 ? `\u001b[${drawnRows - 1}A` : ''}\r\u001b[J`);
    drawnRows = 0;
  };
  const draw = (): void => {
    erase();
    const rows = liveRows(running.values(), FRAMES[frame % FRAMES.length] ?? '', {
      color,
      now: now(),
      columns: columns(),
    });
    if (rows.length === 0) return;
    live(rows.join('\n'));
    drawnRows = rows.length;
  };
  const tick = (): void => {
    frame += 1;
    draw();
  };
  return {
    called(call, showDiff) {
      // The diff is read now, before the call changes the file it numbers lines from.
      calls.set(call.call_id, { call, diff: showDiff ? diffPreview(call, 8) : [] });
    },
    started(call) {
      calls.set(call.call_id, { diff: [], ...calls.get(call.call_id), call });
      running.set(call.call_id, { call, started: now(), tail: [], open: '' });
      draw();
      timer ??= setInterval(tick, 100);
    },
    output(callId, chunk) {
      const entry = running.get(callId);
      if (!entry) return;
      const lines = `${entry.open}${chunk.replace(/\r\n/g, '\n')}`.split('\n');
      entry.open = lines.pop() ?? '';
      entry.tail = [...entry.tail, ...lines].slice(-LIVE_LINES);
      draw();
    },
    recorded(callId, output) {
      const known = calls.get(callId);
      if (known) known.output = output;
    },
    finished(event) {
      const known = calls.get(event.callId);
      const wasRunning = running.delete(event.callId);
      erase();
      if (running.size === 0 && timer) {
        clearInterval(timer);
        timer = undefined;
      }
      if (known && (wasRunning || event.status !== 'denied'))
        printBlock((text) => write(layoutBlock(text, columns())), color, known, event);
      calls.delete(event.callId);
      draw();
    },
    get busy() {
      return running.size > 0;
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      erase();
      running.clear();
    },
  };
}

/** The live block's rows: per running call, its spinner line and the tail of its output, cut to the width. */
function liveRows(
  running: Iterable<Running>,
  spin: string,
  screen: { color: ChalkInstance; now: number; columns: number },
): string[] {
  const { color } = screen;
  // One row each (the block is erased by its row count), cut between graphemes at the width.
  const fit = (line: string): string => truncateToWidth(line, Math.max(10, screen.columns - 1));
  const rows: string[] = [];
  for (const entry of running) {
    const seconds = ((screen.now - entry.started) / 1000).toFixed(0);
    const head = fit(`${spin} ${summarizeToolCall(entry.call)}  ${seconds}s (Esc to stop)`);
    rows.push(color.cyan(head));
    const lines = [...entry.tail, ...(entry.open !== '' ? [entry.open] : [])].slice(-LIVE_LINES);
    for (const line of lines) rows.push(color.dim(fit(`  │ ${sanitizeForTerminal(line)}`)));
  }
  return rows;
}

function printBlock(
  write: (text: string) => void,
  color: ChalkInstance,
  known: Known,
  event: Finished,
): void {
  const ok = event.status === 'ok';
  const mark = ok ? color.cyan('⏺') : color.red('✗');
  const outcome = outcomeText(known.call, event, known.output);
  write(`${mark} ${summarizeToolCall(known.call, { failed: !ok })}  ${paint(outcome, color)}\n`);
  const diff = ok ? known.diff : [];
  for (const line of diff) write(`  ${paintDiffLine(line, color)}\n`);
  if (diff.length > 0) return;
  if (known.output === undefined) return;
  const shell = known.call.name === 'shell';
  // A failed call's one-line reason is already on its call line.
  if (!ok && !shell && !known.output.trim().includes('\n')) return;
  const folded = foldOutput(shell ? commandOutput(known.output) : known.output);
  for (const line of folded.lines) if (line !== '') write(color.dim(`  │ ${line}\n`));
  if (folded.hidden > 0) write(color.dim(`  │ … ${folded.hidden} more lines (/expand shows them)\n`));
}

export function paintDiffLine(line: string, color: ChalkInstance): string {
  return /^\s*\d*\s*\+/.test(line) && !line.startsWith('+++')
    ? color.green(line)
    : /^\s*\d*\s*-/.test(line) && !line.startsWith('---')
      ? color.red(line)
      : line.startsWith('@@')
        ? color.cyan(line)
        : line;
}
