/**
 * The one event-to-view dispatcher of the CLI. `cody chat` (plain text), the REPL and `cody chat` on a
 * terminal (the live Markdown view) and `--json`/stream-json read a turn's events through
 * {@link dispatchTurn}, which decides what each event means (a plan call shows as the checklist, a call
 * asked about already showed its diff, a denied call that never ran has no outcome row, usage is summed,
 * how the turn ended) and calls the view; a view only says it, in the words of `wording.ts`.
 */
import type { FunctionCallItem } from '../../protocol/index.js';
import type { SessionEvent } from '../../core/index.js';
import { CodyError } from '../../core/index.js';
import { UPDATE_PLAN_TOOL } from '../../core/index.js';
import type { ApprovalAnswer } from '../approval-question.js';
import { errorKindOf } from '../error-kind.js';
import type { TurnSummary } from './wording.js';

type Of<T extends SessionEvent['type']> = Extract<SessionEvent, { type: T }>;

/** One output kind's way of showing a turn. Every method is called by {@link dispatchTurn} only. */
export interface TurnView {
  /** Every event, as it comes, before its own method (the JSON view writes each; a pipe settles text). */
  event(event: SessionEvent): void;
  text(delta: string): void;
  reasoning(delta: string): void;
  retry(event: Of<'retry'>): void;
  warning(event: Of<'warning'>): void;
  /** A hook ran (one folded line). */
  hook(event: Of<'hook'>): void;
  compactionStarted(event: Of<'compaction-started'>): void;
  compactionFinished(event: Of<'compaction-finished'>): void;
  /** A call decided on (a plan call never comes here); `showDiff`: an edit that runs without asking. */
  toolCall(event: Of<'tool-call'>, showDiff: boolean): void;
  toolStarted(call: FunctionCallItem): void;
  toolOutput(callId: string, chunk: string): void;
  /** The output recorded for the model, as text (images as `[image]`). */
  toolRecorded(callId: string, output: string): void;
  /** A call that ran (or was stopped while running) is over; one that never started does not come here. */
  toolFinished(call: FunctionCallItem, event: Of<'tool-finished'>): void;
  plan(event: Of<'plan-updated'>): void;
  /** Asks the person about a call; the dispatcher sends the answer to the engine. */
  ask(event: Of<'approval-requested'>): Promise<ApprovalAnswer>;
  /** The events are over (or stopped): spinners stopped, the reply's last line ended. */
  close(): void;
  /** The turn was stopped; `partialKept`: a reply was cut short, and what was shown of it is kept. */
  interrupted(error: unknown, partialKept: boolean): void;
  failed(error: unknown): void;
  /** Last: what the turn used (its status line). Not called for a failed turn. */
  summary(summary: TurnSummary): void;
}

export interface TurnOutcome {
  status: 'completed' | 'interrupted' | 'failed';
  /** Why it did not complete. */
  error?: unknown;
  summary: TurnSummary;
  /** The last call output recorded for the model (the REPL's `/expand`). */
  lastToolOutput?: string;
}

export interface DispatchOptions {
  model: string;
  /** Sends an answer to the engine (`conversation.respond`). */
  respond: (id: string, decision: ApprovalAnswer['decision'], reason?: string) => void;
  /** The turn's own abort signal: a turn that ends by an error after it fired was interrupted. */
  signal?: AbortSignal;
  /** Runs after the events and `close`, before how the turn ended is said (the files-changed line). */
  beforeEnding?: () => Promise<void>;
}

/**
 * Feeds `events` (as `throwing` gives them: a failed turn throws) to `view`, asks its approval questions,
 * and says how the turn ended. Never throws for the turn's own failure: the outcome carries it.
 */
export async function dispatchTurn(
  events: AsyncIterable<SessionEvent>,
  view: TurnView,
  options: DispatchOptions,
): Promise<TurnOutcome> {
  const state = newState(options.model);
  try {
    for await (const event of events) {
      view.event(event);
      await route(event, view, state, options);
    }
  } catch (error) {
    state.error = error;
    state.status =
      options.signal?.aborted === true || errorKindOf(error) === 'interrupted' ? 'interrupted' : 'failed';
  } finally {
    view.close();
  }
  // An interruption carries its kind (an abort's own reason, or a library caller's break, may not).
  if (state.status === 'interrupted' && errorKindOf(state.error) !== 'interrupted')
    state.error = new CodyError('The turn was interrupted.', 'interrupted', { cause: state.error });
  await options.beforeEnding?.();
  if (state.status === 'interrupted') view.interrupted(state.error, state.partial);
  if (state.status === 'failed') view.failed(state.error);
  else view.summary(state.summary);
  return {
    status: state.status,
    ...(state.status !== 'completed' ? { error: state.error } : {}),
    summary: state.summary,
    ...(state.lastToolOutput !== undefined ? { lastToolOutput: state.lastToolOutput } : {}),
  };
}

interface State {
  status: TurnOutcome['status'];
  error: unknown;
  summary: TurnSummary & { usage: { inputTokens: number; cachedInputTokens: number; outputTokens: number } };
  lastToolOutput: string | undefined;
  /** Calls decided on, by id; those whose question (with the diff) was shown; plan calls; started ones. */
  calls: Map<string, FunctionCallItem>;
  asked: Set<string>;
  planCalls: Set<string>;
  started: Set<string>;
  /** Reply text arrived since the last response was complete (an interruption keeps it). */
  partial: boolean;
}

function newState(model: string): State {
  return {
    status: 'completed',
    error: undefined,
    summary: { model, usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 } },
    lastToolOutput: undefined,
    calls: new Map(),
    asked: new Set(),
    planCalls: new Set(),
    started: new Set(),
    partial: false,
  };
}

async function route(
  event: SessionEvent,
  view: TurnView,
  state: State,
  options: DispatchOptions,
): Promise<void> {
  switch (event.type) {
    case 'text-delta':
      state.partial = true;
      return view.text(event.text);
    case 'state':
      // A response that reached its end is not a partial reply.
      if (event.state === 'ProcessingLLMResponse') state.partial = false;
      return;
    case 'reasoning-delta':
      return view.reasoning(event.text);
    case 'retry':
      state.partial = false;
      return view.retry(event);
    case 'warning':
      return view.warning(event);
    case 'hook':
      return view.hook(event);
    case 'compaction-started':
      return view.compactionStarted(event);
    case 'compaction-finished':
      return view.compactionFinished(event);
    case 'approval-requested': {
      state.asked.add(event.call.call_id);
      const answer = await view.ask(event);
      options.respond(event.id, answer.decision, answer.reason);
      return;
    }
    case 'tool-call':
      return toolCall(event, view, state);
    case 'plan-updated':
      return view.plan(event);
    case 'usage':
      return addUsage(event, state);
    case 'turn-complete':
      // An interrupted turn that reached its end without an error (a library caller's break).
      if (event.status === 'interrupted') state.status = 'interrupted';
      return;
    default:
      return toolEvent(event, view, state);
  }
}

function toolCall(event: Of<'tool-call'>, view: TurnView, state: State): void {
  // A plan that was set shows as its checklist (plan-updated), not as a call and its output.
  if (event.approved && event.call.name === UPDATE_PLAN_TOOL) {
    state.planCalls.add(event.call.call_id);
    return;
  }
  state.calls.set(event.call.call_id, event.call);
  // An edit that runs without asking shows its diff (an asked one showed it with the question).
  view.toolCall(event, event.approved && !state.asked.has(event.call.call_id));
}

function toolEvent(event: SessionEvent, view: TurnView, state: State): void {
  switch (event.type) {
    case 'tool-started':
      if (state.planCalls.has(event.call.call_id)) return;
      state.started.add(event.call.call_id);
      return view.toolStarted(event.call);
    case 'tool-output':
      if (state.planCalls.has(event.callId)) return;
      return view.toolOutput(event.callId, event.chunk);
    case 'item-recorded': {
      const item = event.item;
      if (item.type !== 'function_call_output' || state.planCalls.has(item.call_id)) return;
      const text =
        typeof item.output === 'string'
          ? item.output
          : item.output.map((part) => (part.type === 'input_image' ? '[image]' : part.text)).join('\n');
      state.lastToolOutput = text;
      return view.toolRecorded(item.call_id, text);
    }
    case 'tool-finished': {
      const call = state.calls.get(event.callId);
      const ran = state.started.delete(event.callId);
      state.calls.delete(event.callId);
      // A call that never ran (declined, or stopped at its question) already has its one row.
      if (call === undefined || !ran) return;
      return view.toolFinished(call, event);
    }
    default:
      return;
  }
}

function addUsage(event: Of<'usage'>, state: State): void {
  const usage = state.summary.usage;
  usage.inputTokens += event.usage.inputTokens ?? 0;
  usage.cachedInputTokens += event.usage.cachedInputTokens ?? 0;
  usage.outputTokens += event.usage.outputTokens ?? 0;
  state.summary.context = { tokens: event.contextTokens, window: event.contextWindow };
}

/** A view that shows nothing: the base of views that say only some things (JSON). */
export const SILENT_VIEW: TurnView = {
  event: () => undefined,
  text: () => undefined,
  reasoning: () => undefined,
  retry: () => undefined,
  warning: () => undefined,
  hook: () => undefined,
  compactionStarted: () => undefined,
  compactionFinished: () => undefined,
  toolCall: () => undefined,
  toolStarted: () => undefined,
  toolOutput: () => undefined,
  toolRecorded: () => undefined,
  toolFinished: () => undefined,
  plan: () => undefined,
  // Nothing can answer: stop the turn rather than run or deny a call nobody saw.
  ask: () => Promise.resolve({ decision: 'abort' }),
  close: () => undefined,
  interrupted: () => undefined,
  failed: () => undefined,
  summary: () => undefined,
};
