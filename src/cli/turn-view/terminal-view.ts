/**
 * The live terminal view: the REPL, and `cody chat` on a terminal. A spinner until the first text, the
 * reply rendered as Markdown as it streams (plain text when stdout is not a terminal), the model's
 * thinking folded, tool calls as a live block that becomes one lasting row with folded output, the plan's
 * checklist redrawn in place, and the status line. Keys (Esc, type-ahead, the approval question's keys)
 * are the turn driver's (`repl-turn.ts`); this view only writes.
 */
import type { ChalkInstance } from 'chalk';
import { createMarkdownStream, type MarkdownStream } from '../markdown.js';
import { layoutBlock } from '../layout/layout.js';
import { PlanView } from '../plan-view.js';
import { createReplyOutput, type ReplyOutput } from '../reply-output.js';
import { sanitizeForTerminal } from '../sanitize.js';
import { startSpinner, type Spinner, waitingWord } from '../spinner.js';
import { createThinkingView, type ThinkingView } from '../thinking-view.js';
import { createToolView, type ToolView } from '../tool-view.js';
import type { RawTerminal } from '../tty/terminal.js';
import type { FunctionCallItem } from '../../protocol/index.js';
import type { SessionEvent } from '../../core/index.js';
import type { ApprovalAnswer } from '../approval-question.js';
import type { TurnView } from './dispatch.js';
import type { TurnSummary } from './wording.js';
import {
  compactionFinishedText,
  compactionStartedText,
  declinedCallLine,
  failureLines,
  interruptedLine,
  paint,
  retryLine,
  type Said,
  summaryLine,
  warningLine,
  hookLine,
} from './wording.js';

export interface TerminalViewOptions {
  terminal: Pick<RawTerminal, 'write' | 'columns' | 'rows'>;
  stdout: { write(text: string): unknown };
  color: ChalkInstance;
  /** Render Markdown (a terminal; without escapes when `color` has none); otherwise the text as it comes. */
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
  /** Whether the model reasons (core's status): the spinner says Thinking… only then, else Working…. */
  modelReasons?: boolean;
}

type Of<T extends SessionEvent['type']> = Extract<SessionEvent, { type: T }>;

export class TerminalView implements TurnView {
  private readonly color: ChalkInstance;
  private readonly planView: PlanView;
  private readonly thinking: ThinkingView;
  private readonly tools: ToolView;
  /** Plain text (a pipe, or NO_COLOR): held in a pipe until the response can no longer be retried. */
  private readonly plain: ReplyOutput | undefined;
  private readonly showReasoning: boolean;
  private reply: MarkdownStream | undefined;
  private spinner: Spinner | undefined;
  private lineStart = true;

  constructor(private readonly options: TerminalViewOptions) {
    const { terminal, color } = options;
    this.color = color;
    this.planView = new PlanView(
      {
        write: (text) => terminal.write(text),
        columns: () => terminal.columns(),
        rows: () => terminal.rows(),
      },
      color,
    );
    this.spinner = startSpinner(terminal, color.dim(`${waitingWord(options.modelReasons)} (Esc to stop)`));
    this.plain = options.markdown
      ? undefined
      : createReplyOutput(options.stdout, {
          discardedMark: color.dim('[the partial reply above is discarded; retrying]'),
          write: (text) => this.out(sanitizeForTerminal(text)),
          writeOwn: (text) => this.out(text),
        });
    this.showReasoning = options.showReasoning !== false;
    const columns = (): number => terminal.columns();
    this.thinking = createThinkingView(
      this.say,
      color,
      columns,
      this.showReasoning,
      options.expandable !== false,
    );
    // The live block bypasses the plan's line count: it is erased before anything lasting is written.
    this.tools = createToolView(this.say, color, columns, Date.now, (text) =>
      terminal.write(text.replace(/\n/g, '\r\n')),
    );
  }

  /** Writes Cody's own lines (`\n` line ends) where the view writes its notices. */
  readonly say = (text: string): void => {
    this.planView.note(text);
    this.options.echo.hide();
    this.options.terminal.write(text.replace(/\n/g, '\r\n'));
    this.options.echo.show();
  };

  /** Whether the reply's output ended its line (a note may go over the spinner's line). */
  get atLineStart(): boolean {
    return this.lineStart;
  }

  /** The turn's thinking, whole (what `/expand` shows). */
  get reasoningText(): string {
    return this.thinking.text;
  }

  private out(text: string): void {
    // The terminal driver turns \n into \r\n even in raw mode (ONLCR stays on); a file gets plain \n.
    this.planView.note(text);
    this.options.echo.hide();
    this.options.stdout.write(text);
    this.options.echo.show();
    if (text !== '') this.lineStart = text.endsWith('\n');
  }

  private stopSpinner(): void {
    this.spinner?.stop();
    this.spinner = undefined;
  }

  private working(): void {
    this.spinner ??= startSpinner(this.options.terminal, this.color.dim('Working… (Esc to stop)'));
  }

  private endReply(): void {
    this.thinking.end();
    this.reply?.end();
    this.reply = undefined;
    if (!this.lineStart) this.out('\n');
  }

  /** Stops what draws and ends the reply: something lasting comes next. */
  private pause(): void {
    this.stopSpinner();
    this.endReply();
  }

  /** One of Cody's own lines, laid out on words at the terminal's width (continuation rows indented). */
  private line(said: Said): void {
    this.say(`${layoutBlock(paint(said, this.color), this.options.terminal.columns(), '  ')}\n`);
  }

  event(event: SessionEvent): void {
    if (event.type === 'text-delta') {
      this.thinking.end();
      // Before any text: stopping the spinner clears its line, which would wipe text already there.
      this.stopSpinner();
    }
    this.plain?.handle(event);
  }

  text(delta: string): void {
    if (!this.options.markdown) return;
    this.reply ??= createMarkdownStream((text) => this.out(text), {
      columns: () => this.options.terminal.columns(),
      color: this.color.level > 0,
    });
    this.reply.push(delta);
  }

  reasoning(delta: string): void {
    if (this.showReasoning) this.stopSpinner();
    this.thinking.push(delta);
  }

  retry(event: Of<'retry'>): void {
    this.pause();
    this.line(retryLine(event, true));
  }

  warning(event: Of<'warning'>): void {
    this.pause();
    this.line(warningLine(event));
  }

  hook(event: Of<'hook'>): void {
    this.pause();
    this.line(hookLine(event));
  }

  compactionStarted(event: Of<'compaction-started'>): void {
    this.pause();
    this.say(paint(compactionStartedText(event), this.color));
  }

  compactionFinished(event: Of<'compaction-finished'>): void {
    this.line(compactionFinishedText(event, true));
  }

  ask(event: Of<'approval-requested'>): Promise<ApprovalAnswer> {
    this.pause();
    return this.options.ask(event);
  }

  toolCall(event: Of<'tool-call'>, showDiff: boolean): void {
    this.pause();
    if (!event.approved) this.line(declinedCallLine(event));
    this.tools.called(event.call, showDiff);
  }

  toolStarted(call: FunctionCallItem): void {
    this.stopSpinner();
    this.tools.started(call);
  }

  toolOutput(callId: string, chunk: string): void {
    this.tools.output(callId, chunk);
  }

  toolRecorded(callId: string, output: string): void {
    this.tools.recorded(callId, output);
  }

  toolFinished(_call: FunctionCallItem, event: Of<'tool-finished'>): void {
    this.tools.finished(event);
    if (!this.tools.busy) this.working();
  }

  plan(event: Of<'plan-updated'>): void {
    this.pause();
    this.options.echo.hide();
    this.planView.show(event);
    this.options.echo.show();
    this.working();
  }

  close(): void {
    this.tools.stop();
    this.stopSpinner();
    this.options.echo.pause(true);
    this.plain?.end();
    this.endReply();
  }

  interrupted(_error: unknown, partialKept: boolean): void {
    this.line(interruptedLine(partialKept));
  }

  failed(error: unknown): void {
    for (const said of failureLines(error)) this.line(said);
  }

  summary(summary: TurnSummary): void {
    const said = summaryLine(summary);
    // The model's name alone (a /compact that reported no usage) says nothing: no line then.
    const warning = this.options.statusWarning?.();
    if (said.text === summary.model && warning === undefined) return;
    const note = warning !== undefined ? this.color.yellow(` · ⚠ ${warning}`) : '';
    this.say(`${layoutBlock(`${paint(said, this.color)}${note}`, this.options.terminal.columns(), '  ')}\n`);
  }
}

export function createTerminalView(options: TerminalViewOptions): TerminalView {
  return new TerminalView(options);
}
