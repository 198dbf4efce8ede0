/**
 * The approval question: one component for `cody chat` and the REPL, with the same choices and wording
 * on raw keys (a terminal) and on lines (no raw mode). An approval is a real decision:
 * - keys typed before the question was drawn never answer it (the caller keeps them for the next prompt
 *   and the question says so); keys that arrive within GUARD_MS of the question, or of the last key
 *   ignored so, are ignored too, and the question says that once;
 * - only y, a, n and Esc answer; Enter alone does nothing but say so;
 * - the whole preview is shown, or a visible `… 13 more lines (v to view all)` line and `v` shows it all;
 * - "always" names its scope (`[a] always for: git status`), computed in core; without one it is not offered.
 */
import { createInterface } from 'node:readline';
import type { ChalkInstance } from 'chalk';
import type { AlwaysScope, ApprovalDecision, SessionEvent } from '../core/index.js';
import { layoutBlock, layoutItems, layoutLines } from './layout/layout.js';
import { textWidth } from './layout/width.js';
import { sanitizeForTerminal } from './sanitize.js';
import { diffPreview, summarizeToolCall } from './tool-summary.js';
import { paintDiffLine } from './tool-view.js';
import type { Key } from './tty/keys.js';
import { LineEditor } from './tty/line-editor.js';

export type ApprovalRequest = Extract<SessionEvent, { type: 'approval-requested' }>;

export interface ApprovalAnswer {
  decision: ApprovalDecision;
  /** What the person wants the model to know with a denial. */
  reason?: string;
}

/** How long keys are ignored after the question is drawn (and after each key ignored so). */
export const GUARD_MS = 300;
/** A preview up to this many lines is shown whole; a longer one shows PREVIEW_HEAD lines and a marker. */
const PREVIEW_WHOLE = 24;
const PREVIEW_HEAD = 20;

export interface QuestionOptions {
  color: ChalkInstance;
  /** Said under the question, e.g. that what was typed before it is kept for the next prompt. */
  note?: string;
  /** The clock (tests). */
  now?: () => number;
  /** The terminal's width: the question is laid out on words at it (unbounded when not given). */
  columns?: () => number;
}

/** "always for: git status" / "always for edits to app.js": the scope as the question names it. */
export function alwaysLabel(scope: AlwaysScope): string {
  const label = sanitizeForTerminal(scope.label);
  return scope.kind === 'command' ? `always for: ${label}` : `always for ${label}`;
}

/** The question as lines: what it asks, the preview (whole, or its head and a marker), and the rest. */
export function questionText(
  event: ApprovalRequest,
  color: ChalkInstance,
  width = Number.POSITIVE_INFINITY,
): { lines: string[]; hidden: string[]; choices: string } {
  const summary = summarizeToolCall(event.call);
  const why = event.reason !== undefined ? titleReason(sanitizeForTerminal(event.reason), summary) : '';
  const header = `${color.yellow('?')} ${color.bold(`Allow ${summary}`)}${why !== '' ? color.dim(` — ${why}`) : ''}`;
  // Edits are shown as a numbered diff with context (not the patch envelope or bare -/+ lines).
  const preview =
    event.preview !== undefined && !['apply_patch', 'edit_file', 'write_file'].includes(event.call.name)
      ? sanitizeForTerminal(event.preview).split('\n')
      : diffPreview(event.call, Number.POSITIVE_INFINITY);
  const cut = preview.length > PREVIEW_WHOLE ? PREVIEW_HEAD : preview.length;
  const paint = (line: string): string => layoutBlock(`  ${paintDiff(line, color)}`, width);
  const lines = [
    layoutLines(header, { width, hangingIndent: '  ' }).join('\n'),
    ...preview.slice(0, cut).map(paint),
  ];
  const hidden = preview.slice(cut).map(paint);
  if (hidden.length > 0)
    lines.push(layoutBlock(color.yellow(`  … ${hidden.length} more lines (v to view all)`), width));
  return { lines, hidden, choices: choicesLine(event, color, hidden.length > 0, width) };
}

/**
 * The reason without what the title already says: `run: ls -la` beside `$ ls -la` says nothing more,
 * and `outside the workspace: ls ../x` keeps only `outside the workspace`.
 */
export function titleReason(reason: string, summary: string): string {
  const restated = /^(?:run|edit|write|apply a patch to)\b/;
  if (restated.test(reason)) return '';
  const colon = reason.lastIndexOf(': ');
  if (colon < 0) return reason;
  const tail = reason.slice(colon + 2);
  return summary.includes(tail) || restated.test(tail) ? reason.slice(0, colon) : reason;
}

/** The choices, each kept whole on a row when it fits one, indented under the question. */
function choicesLine(event: ApprovalRequest, color: ChalkInstance, cut: boolean, width: number): string {
  const choices = ['[y] yes, once'];
  if (event.alwaysScope !== undefined) choices.push(`[a] ${alwaysLabel(event.alwaysScope)}`);
  choices.push('[n] no, and tell the model why', '[Esc] stop the turn');
  if (cut) choices.push('[v] view all');
  return layoutItems(
    choices.map((choice) => color.dim(choice)),
    { width, indent: '  ', gap: '   ' },
  ).join('\n');
}

/** A dim note under the question (`  Enter alone does not answer…`), laid out at the width. */
const noteLine = (text: string, color: ChalkInstance, width: number): string =>
  layoutBlock(color.dim(`  ${text}`), width);

function paintDiff(line: string, color: ChalkInstance): string {
  return paintDiffLine(line, color);
}

/** What an answer is called on screen after the question (`→ always for: git status`). */
function answered(decision: ApprovalDecision, event: ApprovalRequest, reason: string): string {
  if (decision === 'approve') return 'yes';
  if (decision === 'approve-session' && event.alwaysScope) return alwaysLabel(event.alwaysScope);
  if (decision === 'abort') return 'stopped';
  return reason === '' ? 'no' : 'no (your reason goes to the model with it)';
}

const IGNORED = 'keys typed as the question appeared are ignored: answer with y, a, n or Esc';
const ENTER_ALONE = 'Enter alone does not answer: press y, a, n or Esc';
const NO_ALWAYS = 'no "always" for this call: it asks every time (y, n or Esc)';

/** Ignores input until GUARD_MS have passed since the question was drawn and since the last ignored input. */
function createGuard(now: () => number): { ready(): boolean } {
  let readyAt = now() + GUARD_MS;
  return {
    ready: () => {
      const time = now();
      if (time >= readyAt) return true;
      readyAt = time + GUARD_MS;
      return false;
    },
  };
}

/** A terminal in raw mode: keys go to whoever listens now. */
export interface KeySource {
  listen(listener: ((key: Key) => void) | undefined): void;
  columns(): number;
  /** Calls `listener` when the terminal is resized (undefined: no more). */
  onResize?(listener: (() => void) | undefined): void;
}

/**
 * Lines written under one another that can be laid out again: on a resize the rows they take now (a
 * terminal that reflows wraps each old row at the new width) are erased and every part is redrawn.
 */
function createBlock(
  write: (text: string) => void,
  columns: () => number,
): { show(part: () => string[]): void; redraw(): void } {
  const parts: Array<() => string[]> = [];
  let rows: string[] = [];
  const draw = (part: () => string[]): void => {
    const text = part().join('\n');
    if (text === '') return;
    rows.push(...text.split('\n'));
    write(`${text}\n`);
  };
  return {
    show(part) {
      parts.push(part);
      draw(part);
    },
    redraw() {
      const width = Math.max(1, columns());
      const height = rows.reduce((sum, row) => sum + Math.max(1, Math.ceil(textWidth(row) / width)), 0);
      rows = [];
      write(`${height > 0 ? `\u001b[${height}A` : ''}\r\u001b[J`);
      for (const part of parts) draw(part);
    },
  };
}

/**
 * Asks on a raw-mode terminal. `write` takes text with `\n` line ends (the caller makes them `\r\n`).
 * Resolves with the answer; the listener is released first. Ctrl-C and Esc stop the turn at any time:
 * stopping runs nothing, so it needs no guard.
 */
export function askWithKeys(
  keys: KeySource,
  write: (text: string) => void,
  event: ApprovalRequest,
  options: QuestionOptions,
): Promise<ApprovalAnswer> {
  const { color } = options;
  const now = options.now ?? Date.now;
  const columns = (): number => options.columns?.() ?? keys.columns();
  // What the question has written, by the width it is laid out at: redrawn whole when the terminal is resized.
  const block = createBlock(write, columns);
  const question = (): ReturnType<typeof questionText> => questionText(event, color, columns());
  block.show(() => question().lines);
  if (options.note !== undefined) block.show(() => [noteLine(options.note ?? '', color, columns())]);
  block.show(() => [question().choices]);
  keys.onResize?.(block.redraw);
  const guard = createGuard(now);
  const said = new Set<string>();
  const sayOnce = (text: string): void => {
    if (said.has(text)) return;
    said.add(text);
    block.show(() => [noteLine(text, color, columns())]);
  };
  let viewed = question().hidden.length === 0;
  return new Promise((resolve) => {
    const done = (decision: ApprovalDecision, reason = ''): void => {
      keys.listen(undefined);
      keys.onResize?.(undefined);
      write(`${noteLine(`→ ${answered(decision, event, reason)}`, color, columns())}\n`);
      resolve(reason === '' ? { decision } : { decision, reason });
    };
    const askWhy = (): void => {
      // From here the line editor redraws itself; the question above stays as it is.
      keys.onResize?.(undefined);
      // The label is the editor's prompt, so redrawing the line as the reason is typed keeps it.
      const editor = new LineEditor(
        { write: (text) => write(text), columns: () => keys.columns() },
        {
          prompt: `${color.bold('Why not?')} ${color.dim('(Enter to skip)')} `,
          promptWidth: 'Why not? (Enter to skip) '.length,
          history: [],
        },
      );
      editor.render();
      keys.listen((key) => {
        if (key.name === 'escape' || key.name === 'ctrl-c') return done('abort');
        const result = editor.handle(key);
        if (result?.kind !== 'submit') return;
        write('\n');
        // The reason goes to the model with the denial, in that call's output.
        done('deny', result.text.trim());
      });
    };
    keys.listen((key) => {
      if (key.name === 'escape' || key.name === 'ctrl-c') return done('abort');
      if (!guard.ready()) return sayOnce(IGNORED);
      const letter = key.name === 'text' ? key.text.toLowerCase() : '';
      if (letter === 'y') return done('approve');
      if (letter === 'a')
        return event.alwaysScope !== undefined ? done('approve-session') : sayOnce(NO_ALWAYS);
      if (letter === 'n') return askWhy();
      if (letter === 'v' && !viewed) {
        viewed = true;
        block.show(() => question().hidden);
        return block.show(() => [question().choices]);
      }
      if (key.name === 'enter') return sayOnce(ENTER_ALONE);
      return undefined;
    });
  });
}

/** Lines of input, one at a time. */
export interface LineSource {
  /** Resolves with the next line, or undefined at the end of input. */
  nextLine(): Promise<string | undefined>;
}

/** Lines read from a stream (a terminal in cooked mode), until `close`. */
export function linesOf(input: NodeJS.ReadableStream): LineSource & { close(): void } {
  const reader = createInterface({ input, terminal: false });
  const waiting: Array<(line: string | undefined) => void> = [];
  const ready: string[] = [];
  let ended = false;
  reader.on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else ready.push(line);
  });
  reader.on('close', () => {
    ended = true;
    for (const next of waiting.splice(0)) next(undefined);
  });
  return {
    nextLine: () => {
      const line = ready.shift();
      if (line !== undefined || ended) return Promise.resolve(line);
      return new Promise((resolve) => waiting.push(resolve));
    },
    close: () => reader.close(),
  };
}

/**
 * Asks with lines (no raw mode): the same question, choices and wording; a line is an answer when it is
 * y, a, n, v or Esc (`esc` spelled out too, since a terminal may not send the key alone). A line that
 * arrived within GUARD_MS of the question (typed before it) is ignored; anything else asks again.
 * The end of input stops the turn.
 */
export async function askWithLines(
  lines: LineSource,
  write: (text: string) => void,
  event: ApprovalRequest,
  options: QuestionOptions,
): Promise<ApprovalAnswer> {
  const { color } = options;
  const width = options.columns?.() ?? Number.POSITIVE_INFINITY;
  const question = questionText(event, color, width);
  for (const line of question.lines) write(`${line}\n`);
  if (options.note !== undefined) write(`${noteLine(options.note, color, width)}\n`);
  const guard = createGuard(options.now ?? Date.now);
  let viewed = question.hidden.length === 0;
  const finish = (decision: ApprovalDecision, reason = ''): ApprovalAnswer => {
    write(`${noteLine(`→ ${answered(decision, event, reason)}`, color, width)}\n`);
    return reason === '' ? { decision } : { decision, reason };
  };
  for (;;) {
    write(`${question.choices}\n${color.bold('  Answer (y/a/n/Esc, then Enter):')} `);
    const line = await lines.nextLine();
    if (line === undefined) return finish('abort');
    const answer = line.trim().toLowerCase();
    if (!guard.ready()) {
      write(`${noteLine(IGNORED, color, width)}\n`);
      continue;
    }
    if (answer === 'y') return finish('approve');
    if (answer === 'a' && event.alwaysScope !== undefined) return finish('approve-session');
    if (answer === '\u001b' || answer === 'esc') return finish('abort');
    if (answer === 'n') {
      write(`${color.bold('Why not?')} ${color.dim('(Enter to skip)')} `);
      const why = await lines.nextLine();
      if (why === undefined) return finish('abort');
      return finish('deny', why.trim());
    }
    if (answer === 'v' && !viewed) {
      viewed = true;
      for (const hidden of question.hidden) write(`${hidden}\n`);
      continue;
    }
    const hint = answer === '' ? ENTER_ALONE : answer === 'a' ? NO_ALWAYS : 'answer with y, a, n or Esc';
    write(`${noteLine(hint, color, width)}\n`);
  }
}
