/**
 * One turn in the REPL: the spinner until the first text, the reply rendered as Markdown line by line,
 * tool calls as one-line summaries with folded output, approval questions always visible (the spinner
 * stopped first), Esc / Ctrl-C to stop the turn, and keys typed meanwhile kept as the next message.
 */
import { costOf, type Conversation } from '../core/index.js';
import type { ApprovalDecision, SessionEvent } from '../core/conversation/session-events.js';
import type { ChalkInstance } from 'chalk';
import { UPDATE_PLAN_TOOL } from '../core/conversation/plan.js';
import { PlanView } from './plan-view.js';
import {
  compactionFinishedText,
  compactionStartedText,
  declinedCallLine,
  INTERRUPTED,
  paint,
  retryLine,
  statusLine,
  warningLine,
} from './turn-view/wording.js';
import { createLiveReply, type LiveReply } from './live-reply.js';
import { createMarkdownStream } from './markdown.js';
import { formatCost } from './prices.js';
import { createReplyOutput } from './reply-output.js';
import { sanitizeForTerminal } from './sanitize.js';
import { startSpinner, type Spinner } from './spinner.js';
import { createThinkingView } from './thinking-view.js';
import { createToolView } from './tool-view.js';
import { createTypeAheadEcho } from './type-ahead-echo.js';
import type { Key } from './tty/keys.js';
import { LineEditor } from './tty/line-editor.js';
import type { RawTerminal } from './tty/terminal.js';

export interface TurnUi {
  terminal: RawTerminal;
  stdout: { write(text: string): unknown };
  color: ChalkInstance;
  /** Render Markdown (a colour terminal); otherwise the text is written as it comes. */
  markdown: boolean;
  /** `cody chat` on a terminal: nothing is sent after this turn, so typed-ahead text is not queued. */
  oneShot?: boolean;
  /** Show the model's thinking as it streams (config `showReasoning`); default true. */
  showReasoning?: boolean;
  /** Runs once the reply is over, before the status line (the REPL's `N files changed` line). */
  beforeStatus?: () => Promise<void>;
  /** A warning that holds for every turn (full-auto with no sandbox), ended the status line in yellow. */
  statusWarning?: () => string | undefined;
}

export interface TurnOutcome {
  status: 'completed' | 'interrupted' | 'failed';
  error?: unknown;
  /** Messages typed during the turn (and a denial's reason), in order. */
  queued: string[];
  /** Text typed but not sent, for the next prompt. */
  draft: string;
  lastToolOutput?: string;
  /** The turn's thinking, whole (what `/expand` shows). */
  lastReasoning?: string;
}

type Run = (signal: AbortSignal) => AsyncIterable<SessionEvent>;

export async function runTurn(
  ui: TurnUi,
  session: Pick<Conversation, 'respond'>,
  run: Run,
  model: string,
): Promise<TurnOutcome> {
  const { terminal, color } = ui;
  const plan = new PlanView(
    { write: (text) => terminal.write(text), columns: () => terminal.columns(), rows: () => terminal.rows() },
    color,
  );
  const err = (text: string): void => {
    plan.note(text);
    echo.hide();
    terminal.write(text.replace(/\n/g, '\r\n'));
    echo.show();
  };
  const abort = new AbortController();
  const queued: string[] = [];
  /** Queued messages already announced on screen. */
  const announced = new Set<string>();
  const typeAhead = new LineEditor(
    { write: () => undefined, columns: () => terminal.columns() },
    { prompt: '', promptWidth: 0, history: [] },
  );
  // What is typed meanwhile shows dim under the output (not for cody chat, which sends nothing after).
  const echo = createTypeAheadEcho(
    (text) => terminal.write(text),
    () => (ui.oneShot === true ? '' : typeAhead.buffer),
    () => terminal.columns(),
    color,
  );
  let spinner: Spinner | undefined = startSpinner(terminal, color.dim('Thinking… (Esc to stop)'));
  const stopSpinner = (): void => {
    spinner?.stop();
    spinner = undefined;
  };
  let reply: LiveReply | undefined;
  let atLineStart = true;
  const out = (text: string): void => {
    // The terminal driver turns \n into \r\n even in raw mode (ONLCR stays on); a file gets plain \n.
    plan.note(text);
    echo.hide();
    ui.stdout.write(text);
    echo.show();
    if (text !== '') atLineStart = text.endsWith('\n');
  };
  // Plain text (a pipe, or NO_COLOR): held in a pipe until the response can no longer be retried.
  const plain = ui.markdown
    ? undefined
    : createReplyOutput(ui.stdout, {
        discardedMark: color.dim('[the partial reply above is discarded; retrying]'),
        write: (text) => out(sanitizeForTerminal(text)),
        writeOwn: out,
      });
  const thinking = createThinkingView(err, color, () => terminal.columns(), ui.showReasoning !== false);
  const endReply = (): void => {
    thinking.end();
    reply?.end();
    reply = undefined;
    if (!atLineStart) out('\n');
  };
  let approval: ((key: Key) => void) | undefined;
  const interrupt = (): void => {
    if (!abort.signal.aborted) abort.abort(new Error('interrupted'));
  };
  terminal.listen(
    (key) => {
      if (approval) return approval(key);
      if (key.name === 'escape' || key.name === 'ctrl-c') return interrupt();
      const result = typeAhead.handle(key);
      echo.show();
      if (result?.kind === 'submit' && result.text.trim() !== '') {
        queued.push(result.text);
        typeAhead.buffer = '';
        typeAhead.cursor = 0;
        echo.hide();
        if (atLineStart && ui.oneShot !== true) {
          announced.add(result.text);
          // Over the spinner's line, if it is drawing; it draws again on the next one.
          err(`\r\u001b[2K${color.dim('⏎ queued:')}`);
          err(color.dim(` ${sanitizeForTerminal(result.text.split('\n')[0] ?? '')}\n`));
        }
      }
    },
    { typedAhead: true },
  );

  /** Calls whose approval question (with its diff) was shown. */
  const asked = new Set<string>();
  // The live block bypasses the plan's line count: it is erased before anything lasting is written.
  const tools = createToolView(
    err,
    color,
    () => terminal.columns(),
    Date.now,
    (text) => terminal.write(text.replace(/\n/g, '\r\n')),
  );
  /** update_plan calls that ran: shown as the checklist, not as a call and its output. */
  const planCalls = new Set<string>();

  const ask = async (
    event: Extract<SessionEvent, { type: 'approval-requested' }>,
  ): Promise<{ decision: ApprovalDecision; reason?: string }> => {
    stopSpinner();
    endReply();
    echo.pause(true);
    const { askWithKeys } = await import('./approval-question.js');
    // Keys typed before the question stay where they went (the next prompt), and the question says so.
    const typed = typeAhead.buffer.trim() !== '' || queued.length > 0;
    const note = !typed
      ? undefined
      : ui.oneShot === true
        ? 'what you typed before this question is not an answer (and is not sent: cody chat sends one message)'
        : 'what you typed before this question is not an answer: it is kept for your next prompt';
    const answer = await askWithKeys(
      { listen: (listener) => (approval = listener), columns: () => terminal.columns() },
      err,
      event,
      { color, ...(note !== undefined ? { note } : {}) },
    );
    approval = undefined;
    echo.pause(false);
    if (answer.decision === 'abort') interrupt();
    return answer;
  };

  let usageIn = 0;
  let usageCached = 0;
  let usageOut = 0;
  let context: { tokens: number; window: number } | undefined;
  let lastToolOutput: string | undefined;
  let failed: unknown;
  let status: TurnOutcome['status'] = 'completed';
  try {
    for await (const event of run(abort.signal)) {
      if (event.type === 'text-delta') {
        thinking.end();
        // Before any text: stopping the spinner clears its line, which would wipe text already there.
        stopSpinner();
      }
      plain?.handle(event);
      switch (event.type) {
        case 'reasoning-delta':
          if (ui.showReasoning !== false) stopSpinner();
          thinking.push(event.text);
          break;
        case 'text-delta':
          stopSpinner();
          if (ui.markdown) {
            reply ??= createLiveReply(out, () => terminal.columns(), createMarkdownStream);
            reply.push(event.text);
          }
          break;
        case 'retry':
          stopSpinner();
          endReply();
          err(`${paint(retryLine(event, true), color)}\n`);
          break;
        case 'warning':
          stopSpinner();
          endReply();
          err(`${paint(warningLine(event), color)}\n`);
          break;
        case 'compaction-started':
          stopSpinner();
          endReply();
          err(paint(compactionStartedText(event), color));
          break;
        case 'compaction-finished':
          err(`${paint(compactionFinishedText(event, true), color)}\n`);
          break;
        case 'approval-requested': {
          asked.add(event.call.call_id);
          const answer = await ask(event);
          session.respond(event.id, answer.decision, answer.reason);
          break;
        }
        case 'tool-call':
          if (event.approved && event.call.name === UPDATE_PLAN_TOOL) {
            planCalls.add(event.call.call_id);
            break;
          }
          stopSpinner();
          endReply();
          if (!event.approved) err(`${paint(declinedCallLine(event), color)}\n`);
          // An edit that ran without asking shows its diff with its outcome (an asked one showed it in the question).
          tools.called(event.call, event.approved && !asked.has(event.call.call_id));
          break;
        case 'tool-started':
          if (planCalls.has(event.call.call_id)) break;
          stopSpinner();
          tools.started(event.call);
          break;
        case 'tool-output':
          tools.output(event.callId, event.chunk);
          break;
        case 'plan-updated':
          stopSpinner();
          endReply();
          echo.hide();
          plan.show(event);
          echo.show();
          spinner ??= startSpinner(terminal, color.dim('Working… (Esc to stop)'));
          break;
        case 'item-recorded':
          if (event.item.type === 'function_call_output' && !planCalls.has(event.item.call_id)) {
            const text =
              typeof event.item.output === 'string'
                ? event.item.output
                : event.item.output
                    .map((part) => (part.type === 'input_image' ? '[image]' : part.text))
                    .join('\n');
            lastToolOutput = text;
            tools.recorded(event.item.call_id, text);
          }
          break;
        case 'tool-finished':
          if (planCalls.has(event.callId)) break;
          tools.finished(event);
          if (!tools.busy) spinner ??= startSpinner(terminal, color.dim('Working… (Esc to stop)'));
          break;
        case 'usage':
          usageIn += event.usage.inputTokens ?? 0;
          usageCached += event.usage.cachedInputTokens ?? 0;
          usageOut += event.usage.outputTokens ?? 0;
          context = { tokens: event.contextTokens, window: event.contextWindow };
          break;
        case 'turn-complete':
          if (event.status === 'interrupted') status = 'interrupted';
          break;
        case 'turn-failed':
          failed = new Error(event.error.message);
          status = event.error.kind === 'interrupted' ? 'interrupted' : 'failed';
          break;
        default:
          break;
      }
    }
  } catch (error) {
    failed = error;
    status =
      abort.signal.aborted || (error as { kind?: unknown }).kind === 'interrupted' ? 'interrupted' : 'failed';
  } finally {
    tools.stop();
    stopSpinner();
    echo.pause(true);
    plain?.end();
    endReply();
    terminal.listen(undefined);
  }
  await ui.beforeStatus?.();
  if (status === 'interrupted') err(`${paint(INTERRUPTED, color)}\n`);
  const cost = costOf(model, {
    inputTokens: usageIn,
    cachedInputTokens: usageCached,
    outputTokens: usageOut,
  });
  const line = statusLine(
    model,
    { input: usageIn, output: usageOut, ...(cost !== undefined ? { cost: formatCost(cost) } : {}) },
    context,
  );
  // The model's name alone (a /compact that reported no usage) says nothing: no line then.
  const warning = ui.statusWarning?.();
  if (status !== 'failed' && (line.text !== model || warning !== undefined))
    err(`${paint(line, color)}${warning !== undefined ? color.yellow(` · ⚠ ${warning}`) : ''}\n`);
  for (const text of queued.filter((entry) => !announced.has(entry))) {
    const first = sanitizeForTerminal(text.split('\n')[0] ?? '');
    err(
      color.dim(
        ui.oneShot === true
          ? `not sent (cody chat sends one message; continue with cody chat -c): ${first}\n`
          : `⏎ queued: ${first}\n`,
      ),
    );
  }
  return {
    status,
    ...(status === 'failed' ? { error: failed } : {}),
    queued,
    draft: typeAhead.expanded(),
    ...(lastToolOutput !== undefined ? { lastToolOutput } : {}),
    ...(thinking.text !== '' ? { lastReasoning: thinking.text } : {}),
  };
}
