/**
 * The live terminal view: the REPL, and `cody chat` on a terminal. A spinner until the first text, the
 * reply rendered as Markdown line by line (plain text when stdout is not a colour terminal), the model's
 * thinking folded, tool calls as a live block that becomes one lasting row with folded output, the plan's
 * checklist redrawn in place, and the status line. Keys (Esc, type-ahead, the approval question's keys)
 * are the turn driver's (`repl-turn.ts`); this view only writes.
 */
import type { ChalkInstance } from 'chalk';
import { createLiveReply, type LiveReply } from '../live-reply.js';
import { createMarkdownStream } from '../markdown.js';
import { PlanView } from '../plan-view.js';
import { createReplyOutput } from '../reply-output.js';
import { sanitizeForTerminal } from '../sanitize.js';
import { startSpinner, type Spinner } from '../spinner.js';
import { createThinkingView } from '../thinking-view.js';
import { createToolView } from '../tool-view.js';
import type { RawTerminal } from '../tty/terminal.js';
import type { TurnView } from './dispatch.js';
import {
  compactionFinishedText,
  compactionStartedText,
  declinedCallLine,
  failureLines,
  INTERRUPTED,
  paint,
  retryLine,
  summaryLine,
  warningLine,
} from './wording.js';

export interface TerminalViewOptions {
  terminal: Pick<RawTerminal, 'write' | 'columns' | 'rows'>;
  stdout: { write(text: string): unknown };
  color: ChalkInstance;
  /** Render Markdown (a colour terminal); otherwise the text is written as it comes. */
  markdown: boolean;
  /** Show the model's thinking as it streams (config `showReasoning`); default true. */
  showReasoning?: boolean;
  /** `/expand` can show what was folded (the REPL; not `cody chat`); default true. */
  expandable?: boolean;
  /** What is typed meanwhile, shown under the output: hidden while anything is written. */
  echo: { hide(): void; show(): void; pause(paused: boolean): void };
  /** Asks the question (on keys); the view first stops what draws and ends the reply. */
  ask: TurnView['ask'];
  /** A warning that holds for every turn (full-auto with no sandbox), ended the status line in yellow. */
  statusWarning?: () => string | undefined;
}

export interface TerminalView extends TurnView {
  /** The turn's thinking, whole (what `/expand` shows). */
  readonly reasoningText: string;
  /** Writes Cody's own lines (`\n` line ends) where the view writes its notices. */
  say(text: string): void;
  /** Whether the reply's output ended its line (a note may go over the spinner's line). */
  readonly atLineStart: boolean;
}

export function createTerminalView(options: TerminalViewOptions): TerminalView {
  const { terminal, color, echo } = options;
  const screen = {
    write: (text: string) => terminal.write(text),
    columns: () => terminal.columns(),
    rows: () => terminal.rows(),
  };
  const plan = new PlanView(screen, color);
  const err = (text: string): void => {
    plan.note(text);
    echo.hide();
    terminal.write(text.replace(/\n/g, '\r\n'));
    echo.show();
  };
  let atLineStart = true;
  const out = (text: string): void => {
    // The terminal driver turns \n into \r\n even in raw mode (ONLCR stays on); a file gets plain \n.
    plan.note(text);
    echo.hide();
    options.stdout.write(text);
    echo.show();
    if (text !== '') atLineStart = text.endsWith('\n');
  };
  let spinner: Spinner | undefined = startSpinner(terminal, color.dim('Thinking… (Esc to stop)'));
  const stopSpinner = (): void => {
    spinner?.stop();
    spinner = undefined;
  };
  const working = (): void => {
    spinner ??= startSpinner(terminal, color.dim('Working… (Esc to stop)'));
  };
  // Plain text (a pipe, or NO_COLOR): held in a pipe until the response can no longer be retried.
  const plain = options.markdown
    ? undefined
    : createReplyOutput(options.stdout, {
        discardedMark: color.dim('[the partial reply above is discarded; retrying]'),
        write: (text) => out(sanitizeForTerminal(text)),
        writeOwn: out,
      });
  const showReasoning = options.showReasoning !== false;
  const thinking = createThinkingView(
    err,
    color,
    () => terminal.columns(),
    showReasoning,
    options.expandable !== false,
  );
  let reply: LiveReply | undefined;
  const endReply = (): void => {
    thinking.end();
    reply?.end();
    reply = undefined;
    if (!atLineStart) out('\n');
  };
  /** Stops what draws and ends the reply: something lasting comes next. */
  const pause = (): void => {
    stopSpinner();
    endReply();
  };
  // The live block bypasses the plan's line count: it is erased before anything lasting is written.
  const tools = createToolView(
    err,
    color,
    () => terminal.columns(),
    Date.now,
    (text) => terminal.write(text.replace(/\n/g, '\r\n')),
  );
  return {
    event(event) {
      if (event.type === 'text-delta') {
        thinking.end();
        // Before any text: stopping the spinner clears its line, which would wipe text already there.
        stopSpinner();
      }
      plain?.handle(event);
    },
    text(delta) {
      if (!options.markdown) return;
      reply ??= createLiveReply(out, () => terminal.columns(), createMarkdownStream);
      reply.push(delta);
    },
    reasoning(delta) {
      if (showReasoning) stopSpinner();
      thinking.push(delta);
    },
    retry(event) {
      pause();
      err(`${paint(retryLine(event, true), color)}\n`);
    },
    warning(event) {
      pause();
      err(`${paint(warningLine(event), color)}\n`);
    },
    compactionStarted(event) {
      pause();
      err(paint(compactionStartedText(event), color));
    },
    compactionFinished: (event) => err(`${paint(compactionFinishedText(event, true), color)}\n`),
    ask(event) {
      pause();
      return options.ask(event);
    },
    toolCall(event, showDiff) {
      pause();
      if (!event.approved) err(`${paint(declinedCallLine(event), color)}\n`);
      tools.called(event.call, showDiff);
    },
    toolStarted(call) {
      stopSpinner();
      tools.started(call);
    },
    toolOutput: (callId, chunk) => tools.output(callId, chunk),
    toolRecorded: (callId, output) => tools.recorded(callId, output),
    toolFinished(_call, event) {
      tools.finished(event);
      if (!tools.busy) working();
    },
    plan(event) {
      pause();
      echo.hide();
      plan.show(event);
      echo.show();
      working();
    },
    close() {
      tools.stop();
      stopSpinner();
      echo.pause(true);
      plain?.end();
      endReply();
    },
    interrupted: () => err(`${paint(INTERRUPTED, color)}\n`),
    failed(error) {
      for (const line of failureLines(error)) err(`${paint(line, color)}\n`);
    },
    summary(summary) {
      const line = summaryLine(summary);
      // The model's name alone (a /compact that reported no usage) says nothing: no line then.
      const warning = options.statusWarning?.();
      if (line.text !== summary.model || warning !== undefined)
        err(`${paint(line, color)}${warning !== undefined ? color.yellow(` · ⚠ ${warning}`) : ''}\n`);
    },
    get reasoningText() {
      return thinking.text;
    },
    say: err,
    get atLineStart() {
      return atLineStart;
    },
  };
}
