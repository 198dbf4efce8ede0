/**
 * The plain view: `cody chat` when no terminal can be driven (stdin or stderr not a terminal, or
 * `--plain`). The reply goes to stdout (held in a pipe until it can no longer be retried; Markdown when
 * stdout is a colour terminal), everything else to stderr as lines that are never redrawn, so a log file
 * reads like the screen: a call's row, its output as it comes, its outcome.
 */
import type { FunctionCallItem } from '../../protocol/index.js';
import { stderrChalk } from '../color.js';
import { type Io, useColor } from '../io.js';
import { createLiveReply } from '../live-reply.js';
import { createMarkdownStream } from '../markdown.js';
import { planLines } from '../plan-view.js';
import { createReplyOutput } from '../reply-output.js';
import { sanitizeForTerminal } from '../sanitize.js';
import { startSpinner, type Spinner } from '../spinner.js';
import { createThinkingView } from '../thinking-view.js';
import { diffPreview, summarizeToolCall } from '../tool-summary.js';
import type { ApprovalAnswer } from '../approval-question.js';
import type { TurnView } from './dispatch.js';
import {
  callLine,
  compactionFinishedText,
  compactionStartedText,
  declinedCallLine,
  failureLines,
  INTERRUPTED,
  outcomeText,
  paint,
  retryLine,
  summaryLine,
  warningLine,
} from './wording.js';

export interface PlainViewOptions {
  /** Asks about a call (lines on stdin); without it the view cannot ask and the turn stops. */
  ask?: TurnView['ask'];
  /** Markdown for the reply when stdout is a colour terminal (default); false for plain text anyway. */
  markdown?: boolean;
  /** Show the model's thinking on stderr, folded (config `showReasoning`); default true. */
  showReasoning?: boolean;
  /** Whether to end with the status line; default: when stderr is a terminal (a person reads it). */
  status?: boolean;
  /** Say nothing about an interruption (stdout was closed: `cody chat … | head -1` stops quietly). */
  quietInterrupt?: () => boolean;
}

export function createPlainView(io: Io, options: PlainViewOptions = {}): TurnView {
  const color = stderrChalk(io);
  const err = (text: string): void => void io.stderr.write(text);
  const markdown =
    options.markdown !== false && io.stdout.isTTY === true && useColor(io.stdout, io.env)
      ? createLiveReply(
          (text) => io.stdout.write(text),
          () => io.stdout.columns ?? 80,
          createMarkdownStream,
        )
      : undefined;
  const reply = markdown
    ? undefined
    : createReplyOutput(io.stdout, {
        discardedMark: color.dim('[the partial reply above is discarded; retrying]'),
      });
  let spinner: Spinner | undefined =
    io.stderr.isTTY === true && useColor(io.stderr, io.env)
      ? startSpinner(io.stderr, 'Thinking…')
      : undefined;
  const stopSpinner = (): void => {
    spinner?.stop();
    spinner = undefined;
  };
  let compacting = false;
  const thinking = createThinkingView(
    err,
    color,
    () => io.stderr.columns ?? 80,
    options.showReasoning !== false,
    false,
  );
  /** One line on stderr (after ending open thinking or an open compaction line). */
  const note = (text: string): void => {
    stopSpinner();
    thinking.end();
    err(`${compacting ? '\n' : ''}${text}\n`);
    compacting = false;
  };
  const tools = createToolLines((text) => err(color.dim(text)));
  const ask = options.ask;
  return {
    event(event) {
      // Before any text: the spinner's line is cleared and the thinking ended first.
      if (event.type === 'text-delta') {
        stopSpinner();
        thinking.end();
      }
      reply?.handle(event);
    },
    text: (delta) => markdown?.push(delta),
    reasoning(delta) {
      if (options.showReasoning !== false) stopSpinner();
      thinking.push(delta);
    },
    warning: (event) => note(paint(warningLine(event), color)),
    retry(event) {
      markdown?.end();
      note(paint(retryLine(event, io.stdout.isTTY === true), color));
    },
    compactionStarted(event) {
      // One line per compaction: "Compacting conversation (auto)… 3.2k → 1.0k tokens".
      stopSpinner();
      thinking.end();
      err(paint(compactionStartedText(event), color));
      compacting = true;
    },
    compactionFinished(event) {
      err(`${paint(compactionFinishedText(event, compacting), color)}\n`);
      compacting = false;
    },
    toolCall(event, showDiff) {
      markdown?.end();
      tools.called(event.call);
      note(paint(event.approved ? callLine(event.call) : declinedCallLine(event), color));
      if (showDiff) for (const line of diffPreview(event.call, 8)) err(color.dim(`  ${line}\n`));
    },
    toolStarted: () => undefined,
    toolOutput: (callId, chunk) => tools.output(callId, chunk),
    toolRecorded: () => undefined,
    toolFinished(call, event) {
      tools.flush(event.callId);
      err(`  ${paint(outcomeText(call, event), color)}\n`);
    },
    plan(event) {
      markdown?.end();
      note(planLines(event, color).join('\n'));
    },
    async ask(event): Promise<ApprovalAnswer> {
      // The question (with the whole preview) is the next thing on stderr: nothing may draw over it.
      stopSpinner();
      thinking.end();
      markdown?.end();
      return ask ? ask(event) : { decision: 'abort' };
    },
    close() {
      stopSpinner();
      thinking.end();
      markdown?.end();
      reply?.end();
      if (reply?.wroteText === true && !reply.atLineStart) io.stdout.write('\n');
    },
    interrupted() {
      if (options.quietInterrupt?.() !== true) note(paint(INTERRUPTED, color));
    },
    failed(error) {
      for (const line of failureLines(error)) note(paint(line, color));
    },
    summary(summary) {
      const line = summaryLine(summary);
      // The model's name alone (nothing reported) says nothing.
      if ((options.status ?? io.stderr.isTTY === true) && line.text !== summary.model)
        note(paint(line, color));
    },
  };
}

/**
 * A running command's output on stderr as it comes, a line at a time (`  │ tick1`), under its call
 * row; when another call's lines came in between, the call is named again above its lines.
 */
function createToolLines(write: (text: string) => void): {
  called(call: FunctionCallItem): void;
  output(callId: string, chunk: string): void;
  flush(callId: string): void;
} {
  const calls = new Map<string, FunctionCallItem>();
  const open = new Map<string, string>();
  let last: string | undefined;
  const line = (callId: string, text: string): void => {
    const call = calls.get(callId);
    // The line above names another call (calls running at once): this one names its own.
    const label = call && last !== callId ? `  ${summarizeToolCall(call)}\n` : '';
    last = callId;
    write(`${label}  │ ${sanitizeForTerminal(text)}\n`);
  };
  return {
    called(call) {
      calls.set(call.call_id, call);
      last = call.call_id;
    },
    output(callId, chunk) {
      const lines = `${open.get(callId) ?? ''}${chunk.replace(/\r\n/g, '\n')}`.split('\n');
      open.set(callId, lines.pop() ?? '');
      for (const text of lines) line(callId, text);
    },
    flush(callId) {
      const rest = open.get(callId);
      open.delete(callId);
      if (rest !== undefined && rest !== '') line(callId, rest);
    },
  };
}
