/**
 * The plain view: `cody chat` when no terminal can be driven (stdin or stderr not a terminal, or
 * `--plain`). The reply goes to stdout (held in a pipe until it can no longer be retried; Markdown when
 * stdout is a terminal), everything else to stderr as lines that are never redrawn, so a log file
 * reads like the screen: a call's row, its output as it comes, its outcome.
 */
import type { FunctionCallItem } from '../../protocol/index.js';
import { stderrChalk } from '../color.js';
import { type Io, useColor } from '../io.js';
import { createMarkdownStream, type MarkdownStream } from '../markdown.js';
import { planLines } from '../plan-view.js';
import { createReplyOutput, type ReplyOutput } from '../reply-output.js';
import { sanitizeForTerminal } from '../sanitize.js';
import { startSpinner, type Spinner, waitingWord } from '../spinner.js';
import { createThinkingView, type ThinkingView } from '../thinking-view.js';
import { diffPreview, summarizeToolCall } from '../tool-summary.js';
import type { ApprovalAnswer } from '../approval-question.js';
import type { ChalkInstance } from 'chalk';
import type { SessionEvent } from '../../core/index.js';
import type { TurnView } from './dispatch.js';
import {
  callLine,
  compactionFinishedText,
  compactionStartedText,
  declinedCallLine,
  failureLines,
  interruptedLine,
  outcomeText,
  paint,
  retryLine,
  type Said,
  summaryLine,
  type TurnSummary,
  warningLine,
  hookLine,
} from './wording.js';

export interface PlainViewOptions {
  /** Asks about a call (lines on stdin); without it the view cannot ask and the turn stops. */
  ask?: TurnView['ask'];
  /** Markdown for the reply when stdout is a terminal (default); false for plain text anyway. */
  markdown?: boolean;
  /** Show the model's thinking on stderr, folded (config `showReasoning`); default true. */
  showReasoning?: boolean;
  /** Whether to end with the status line; default: when stderr is a terminal (a person reads it). */
  status?: boolean;
  /** Say nothing about an interruption (stdout was closed: `cody chat … | head -1` stops quietly). */
  quietInterrupt?: () => boolean;
  /** Whether the model reasons (core's status): the spinner says Thinking… only then, else Working…. */
  modelReasons?: boolean;
}

type Of<T extends SessionEvent['type']> = Extract<SessionEvent, { type: T }>;

export class PlainView implements TurnView {
  private readonly color: ChalkInstance;
  /** The reply as Markdown (stdout a terminal), or as text held until it cannot be retried. */
  private readonly markdown: MarkdownStream | undefined;
  private readonly reply: ReplyOutput | undefined;
  private readonly thinking: ThinkingView;
  private readonly tools: ToolLines;
  /** Each call's output for the model, until it finishes (a failed call's reason goes on its row). */
  private readonly recorded = new Map<string, string>();
  private spinner: Spinner | undefined;
  /** The compaction line is open (its end comes on the same line). */
  private compacting = false;

  constructor(
    private readonly io: Io,
    private readonly options: PlainViewOptions = {},
  ) {
    const color = stderrChalk(io);
    this.color = color;
    this.markdown =
      options.markdown !== false && io.stdout.isTTY === true
        ? createMarkdownStream((text) => io.stdout.write(text), {
            columns: () => io.stdout.columns ?? 80,
            color: useColor(io.stdout, io.env),
          })
        : undefined;
    this.reply = this.markdown
      ? undefined
      : createReplyOutput(io.stdout, {
          discardedMark: color.dim('[the partial reply above is discarded; retrying]'),
        });
    if (io.stderr.isTTY === true && useColor(io.stderr, io.env))
      this.spinner = startSpinner(io.stderr, waitingWord(options.modelReasons));
    this.thinking = createThinkingView(
      (text) => this.err(text),
      color,
      () => io.stderr.columns ?? 80,
      options.showReasoning !== false,
      false,
    );
    this.tools = createToolLines((text) => this.err(color.dim(text)));
  }

  private err(text: string): void {
    this.io.stderr.write(text);
  }

  private stopSpinner(): void {
    this.spinner?.stop();
    this.spinner = undefined;
  }

  /** One line on stderr (after ending open thinking or an open compaction line). */
  private note(said: Said | string): void {
    this.stopSpinner();
    this.thinking.end();
    const text = typeof said === 'string' ? said : paint(said, this.color);
    this.err(`${this.compacting ? '\n' : ''}${text}\n`);
    this.compacting = false;
  }

  event(event: SessionEvent): void {
    // Before any text: the spinner's line is cleared and the thinking ended first.
    if (event.type === 'text-delta') {
      this.stopSpinner();
      this.thinking.end();
    }
    this.reply?.handle(event);
  }

  text(delta: string): void {
    this.markdown?.push(delta);
  }

  reasoning(delta: string): void {
    if (this.options.showReasoning !== false) this.stopSpinner();
    this.thinking.push(delta);
  }

  warning(event: Of<'warning'>): void {
    this.note(warningLine(event));
  }

  hook(event: Of<'hook'>): void {
    this.note(hookLine(event));
  }

  retry(event: Of<'retry'>): void {
    this.markdown?.end();
    this.note(retryLine(event, this.io.stdout.isTTY === true));
  }

  compactionStarted(event: Of<'compaction-started'>): void {
    // One line per compaction: "Compacting conversation (auto)… 3.2k → 1.0k tokens".
    this.stopSpinner();
    this.thinking.end();
    this.err(paint(compactionStartedText(event), this.color));
    this.compacting = true;
  }

  compactionFinished(event: Of<'compaction-finished'>): void {
    this.err(`${paint(compactionFinishedText(event, this.compacting), this.color)}\n`);
    this.compacting = false;
  }

  toolCall(event: Of<'tool-call'>, showDiff: boolean): void {
    this.markdown?.end();
    this.tools.called(event.call);
    this.note(event.approved ? callLine(event.call) : declinedCallLine(event));
    if (showDiff) for (const line of diffPreview(event.call, 8)) this.err(this.color.dim(`  ${line}\n`));
  }

  toolStarted(): void {}

  toolOutput(callId: string, chunk: string): void {
    this.tools.output(callId, chunk);
  }

  toolRecorded(callId: string, output: string): void {
    this.recorded.set(callId, output);
  }

  toolFinished(call: FunctionCallItem, event: Of<'tool-finished'>): void {
    this.tools.flush(event.callId);
    const output = this.recorded.get(event.callId);
    this.recorded.delete(event.callId);
    this.err(`  ${paint(outcomeText(call, event, output), this.color)}\n`);
  }

  plan(event: Of<'plan-updated'>): void {
    this.markdown?.end();
    this.note(planLines(event, this.color).join('\n'));
  }

  async ask(event: Of<'approval-requested'>): Promise<ApprovalAnswer> {
    // The question (with the whole preview) is the next thing on stderr: nothing may draw over it.
    this.stopSpinner();
    this.thinking.end();
    this.markdown?.end();
    return this.options.ask ? this.options.ask(event) : { decision: 'abort' };
  }

  close(): void {
    this.stopSpinner();
    this.thinking.end();
    this.markdown?.end();
    this.reply?.end();
    if (this.reply?.wroteText === true && !this.reply.atLineStart) this.io.stdout.write('\n');
  }

  interrupted(_error: unknown, partialKept: boolean): void {
    if (this.options.quietInterrupt?.() !== true) this.note(interruptedLine(partialKept));
  }

  failed(error: unknown): void {
    for (const said of failureLines(error)) this.note(said);
  }

  summary(summary: TurnSummary): void {
    const said = summaryLine(summary);
    // The model's name alone (nothing reported) says nothing.
    if ((this.options.status ?? this.io.stderr.isTTY === true) && said.text !== summary.model)
      this.note(said);
  }
}

export function createPlainView(io: Io, options: PlainViewOptions = {}): TurnView {
  return new PlainView(io, options);
}

interface ToolLines {
  called(call: FunctionCallItem): void;
  output(callId: string, chunk: string): void;
  flush(callId: string): void;
}

/**
 * A running command's output on stderr as it comes, a line at a time (`  │ tick1`), under its call
 * row; when another call's lines came in between, the call is named again above its lines.
 */
function createToolLines(write: (text: string) => void): ToolLines {
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
