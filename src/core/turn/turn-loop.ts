/**
 * The turn loop: record the user's message, then request → record the response → run its tool calls,
 * until the model answers without calling a tool. Compacts first when the window is nearly full (the
 * new message stays last, after the summary, while no reply has come), and after a context-overflow
 * error. Every way out of a started turn is recorded: `turn_complete`, or `turn_aborted` with a reason.
 */
import type {
  ContentPart,
  FinishReason,
  FunctionCallItem,
  MessageItem,
  ProviderError,
  TokenUsage,
} from '../../protocol/index.js';
import { normalizeItems } from '../../providers/index.js';
import { retryPolicyOf } from '../config/index.js';
import { addTokenUsage, tokenCountEvent } from '../store/index.js';
import { costField } from '../selection/index.js';
import { StorageError, UnsentMessageError } from '../errors.js';
import type { SessionEvent } from '../conversation/index.js';
import { failureFromProvider, TurnFailedError } from '../turn/index.js';
import { runCompaction } from './compaction-step.js';
import { requestWithRetry, type ModelResponse } from './model-request.js';
import { recordTurnChanges, runToolCalls } from './tool-step.js';
import { flushHookRecords, notify, promptHooks, stopHooks } from './hook-step.js';
import type { TurnContext } from './turn-context.js';
import { codexPermissions } from '../rollout/index.js';
import { codexReasoningFields } from './reasoning-setting.js';
import type { TurnContextPayload } from '../rollout/index.js';
import { instructionsMessage, lastInstructionsText, noInstructionsText } from '../project/index.js';
import { acceptsImages } from '../selection/index.js';
import { itemsForModel, toolsForModel } from '../images/index.js';

/** Automatic compactions allowed in one turn before it stops instead of looping. */
export const MAX_AUTO_COMPACTIONS_PER_TURN = 3;

/**
 * Model requests one turn may make while the model keeps calling tools. Real agent turns rarely need
 * more than a few dozen rounds; past this the model is looping, and the person should take over.
 */
export const MAX_TOOL_ROUNDS_PER_TURN = 100;

export async function* runTurn(
  turn: TurnContext,
  turnId: string,
  content: ContentPart[],
): AsyncGenerator<SessionEvent> {
  const { handle, selection, limits, states } = turn;
  const entered = states.to('ProcessingUserMessage');
  if (entered) yield entered;
  const message: MessageItem = { type: 'message', role: 'user', content };
  const hookContext = yield* promptHooks(turn, content);
  await recordUserMessage(turn, turnId, message);
  handle.lastModel = selection.model;
  yield* handle.noteRecorded(message);
  yield* flushHookRecords(turn);
  for (const item of hookContext) yield* handle.record(item);

  /** Compactions so far, and whether a reply came (after which the new message is no longer last). */
  const progress = { compactions: 0, replied: false };
  let toolRounds = 0;
  let stopContinuations = 0;
  let finishReason: FinishReason = 'stop';
  let lastUsage: TokenUsage | undefined;
  for (;;) {
    const response = yield* requestOnce(turn, message, progress);
    if (!response) continue;
    const processing = states.to('ProcessingLLMResponse');
    if (processing) yield processing;
    progress.replied = true;
    for (const item of response.items) yield* handle.record(item);
    finishReason = response.finishReason;
    if (response.usage) {
      const usage = response.usage;
      lastUsage = usage;
      handle.accountant.recordUsage(usage, handle.history.length);
      const total = addTokenUsage(handle.totalTokenUsage, usage);
      handle.totalTokenUsage = total;
      yield* handle.append((recorder) =>
        recorder.appendEvent(tokenCountEvent(usage, limits.contextWindow, total)),
      );
      yield {
        type: 'usage',
        usage,
        ...costField(selection.model, usage),
        contextTokens: turn.budget.contextTokens(),
        contextWindow: limits.contextWindow,
      };
    }
    const calls = response.items.filter((item): item is FunctionCallItem => item.type === 'function_call');
    if (calls.length === 0) {
      // A Stop hook may send the model back to work (`stop_hook_active` tells it that it did already).
      const again = yield* stopHooks(turn, stopContinuations);
      if (!again) break;
      stopContinuations += 1;
      yield* handle.record(again);
      continue;
    }
    const stopped = yield* runToolCalls(turn, calls);
    if (stopped || turn.signal?.aborted) throw yield* stop(turn, 'interrupted', interrupted());
    if (turn.hookStop !== undefined)
      throw yield* stop(
        turn,
        'hook-stopped',
        new TurnFailedError(`A hook stopped the turn: ${turn.hookStop}`, 'failure'),
      );
    toolRounds += 1;
    if (toolRounds >= MAX_TOOL_ROUNDS_PER_TURN) {
      throw yield* stop(
        turn,
        'tool-round-limit',
        new TurnFailedError(
          `Stopped after ${MAX_TOOL_ROUNDS_PER_TURN} rounds of tool calls in one turn; the conversation is saved. Send a message to steer it.`,
          'failure',
        ),
      );
    }
  }
  yield* completeTurn(turn, turnId, finishReason, lastUsage);
}

/** The end of a turn that reached it: the Notification hooks, its change set, `turn_complete`, the event. */
async function* completeTurn(
  turn: TurnContext,
  turnId: string,
  finishReason: FinishReason,
  lastUsage: TokenUsage | undefined,
): AsyncGenerator<SessionEvent> {
  const { handle, selection, states } = turn;
  yield* notify(turn, 'idle_prompt', 'Cody finished the turn and is waiting for your input');
  yield* recordTurnChanges(turn);
  yield* handle.endTurn({
    type: 'turn_complete',
    turn_id: turnId,
    provider: selection.provider,
    api: selection.api,
    model: selection.model,
    message_count: handle.messageCount,
    compaction_count: handle.compactionCount,
    ...(handle.firstUserMessage !== undefined ? { first_user_message: handle.firstUserMessage } : {}),
  });
  if (handle.saveFailure) throw notSaved(handle.saveFailure);
  const done = states.to('Idle');
  if (done) yield done;
  yield {
    type: 'turn-complete',
    turnId,
    finishReason,
    status: 'completed',
    ...(lastUsage ? { usage: lastUsage, ...costField(selection.model, lastUsage) } : {}),
  };
}

/** The turn's context and user message, on disk before anything is sent (else nothing is). */
async function recordUserMessage(turn: TurnContext, turnId: string, message: MessageItem): Promise<void> {
  const { handle, selection, limits } = turn;
  try {
    // Both must be on disk before anything is sent.
    await handle.write((recorder) =>
      recorder.appendTurnContext({
        turn_id: turnId,
        cwd: turn.cwd,
        provider: selection.provider,
        api: selection.api,
        model: selection.model,
        context_window: limits.contextWindow,
        ...permissionsOf(turn),
        ...codexReasoningFields(turn.reasoning),
      }),
    );
    handle.openTurn();
    await recordInstructions(turn);
    await handle.write((recorder) => recorder.appendItem(message));
  } catch (error) {
    if (!(error instanceof StorageError)) throw error;
    throw new UnsentMessageError(
      error,
      message.content.map((part) => (part.type === 'input_image' ? '' : part.text)).join(''),
    );
  }
}

/**
 * The project instructions, recorded (Codex's contextual user message) when they differ from the last
 * ones the history holds: at the first turn, after an edit, after a compaction dropped them.
 */
async function recordInstructions(turn: TurnContext): Promise<void> {
  const { handle } = turn;
  const last = lastInstructionsText(handle.history);
  const wanted = turn.instructions ?? (last !== undefined ? noInstructionsText(turn.cwd) : undefined);
  if (wanted === undefined || wanted === last) return;
  const item = instructionsMessage(wanted);
  await handle.write((recorder) => recorder.appendItem(item));
  handle.addContext(item);
}

/**
 * One request, compacting first when the window is nearly full. Undefined when the provider said the
 * window is exceeded and a compaction ran: the caller asks again.
 */
async function* requestOnce(
  turn: TurnContext,
  message: MessageItem,
  progress: { compactions: number; replied: boolean },
): AsyncGenerator<SessionEvent, Extract<ModelResponse, { kind: 'ok' }> | undefined> {
  const { handle, selection, limits, states } = turn;
  if (await turn.budget.overLimit(selection, limits)) {
    if (progress.compactions >= MAX_AUTO_COMPACTIONS_PER_TURN) {
      throw yield* stop(
        turn,
        'compaction-limit',
        new TurnFailedError(
          `Stopped: the conversation still exceeds the context limit after ${MAX_AUTO_COMPACTIONS_PER_TURN} compactions in this turn. Compact it by hand, or raise models.${selection.model}.contextWindow if the window is larger.`,
          'failure',
          undefined,
          'compact',
        ),
      );
    }
    progress.compactions += 1;
    yield* compactWithin(turn, 'auto', progress.replied ? undefined : message);
  }
  const awaiting = states.to('AwaitingLLMResponse');
  if (awaiting) yield awaiting;
  // A model that takes no images gets them named in text, and no view_image (the history keeps them).
  const images = acceptsImages(selection.model, turn.config);
  const response: ModelResponse = yield* requestWithRetry({
    client: turn.client,
    request: {
      items: itemsForModel(normalizeItems(handle.history), images),
      tools: toolsForModel(turn.tools?.specs({ api: selection.api }) ?? [], images),
      maxOutputTokens: limits.maxOutputTokens,
    },
    policy: retryPolicyOf(turn.config),
    ...(turn.signal ? { signal: turn.signal } : {}),
    streamDeltas: true,
    states,
  });
  if (response.kind === 'failed') {
    const error = response.error;
    if (error.kind === 'aborted') {
      // What the person saw stays in the history; the `turn_aborted` (interrupted) after it marks it.
      if (response.partialText !== undefined)
        yield* turn.handle.record({
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: response.partialText }],
        });
      throw yield* stop(turn, 'interrupted', interrupted(error));
    }
    if (error.kind !== 'context-overflow')
      throw yield* stop(
        turn,
        error.kind,
        failureFromProvider(error, response.retries, undefined, {
          server: turn.selection.provider,
          address: turn.endpoint,
        }),
      );
    if (progress.compactions >= MAX_AUTO_COMPACTIONS_PER_TURN) {
      throw yield* stop(
        turn,
        'context-overflow',
        new TurnFailedError(
          `Stopped: the provider still reports the context window exceeded after ${MAX_AUTO_COMPACTIONS_PER_TURN} compactions in this turn (${error.message}).`,
          'provider',
          error,
        ),
      );
    }
    progress.compactions += 1;
    yield* compactWithin(turn, 'overflow', progress.replied ? undefined : message);
    return undefined;
  }
  return response;
}

/** An automatic compaction inside a turn; a failure stops the turn (the history is kept). */
async function* compactWithin(
  turn: TurnContext,
  trigger: 'auto' | 'overflow',
  newUserMessage: MessageItem | undefined,
): AsyncGenerator<SessionEvent> {
  try {
    yield* runCompaction(turn, { trigger, ...(newUserMessage ? { newUserMessage } : {}) });
  } catch (error) {
    if (!(error instanceof TurnFailedError)) throw error;
    throw yield* stop(turn, error.kind === 'interrupted' ? 'interrupted' : 'compaction-failed', error);
  }
}

function interrupted(cause?: ProviderError): TurnFailedError {
  return new TurnFailedError('Interrupted.', 'interrupted', cause);
}

/** Records why the turn stops (unless saving already failed) and returns the error to throw. */
async function* stop(
  turn: TurnContext,
  reason: string,
  error: TurnFailedError,
): AsyncGenerator<SessionEvent, Error> {
  yield* recordTurnChanges(turn);
  yield* turn.handle.endTurn({ type: 'turn_aborted', reason });
  return turn.handle.saveFailure && error.kind !== 'interrupted' ? notSaved(turn.handle.saveFailure) : error;
}

function notSaved(failure: StorageError): StorageError {
  return new StorageError(`${failure.message.replace(/\.?$/, '.')} The reply was shown but not saved.`, {
    cause: failure,
  });
}

/** The approval policy and sandbox in force, in turn_context's Codex fields (and Cody's own name). */
function permissionsOf(turn: TurnContext): Partial<TurnContextPayload> {
  const permissions = turn.tools?.permissions?.();
  if (!permissions) return {};
  const kept = turn.keptApprovalPolicy;
  return {
    ...codexPermissions(permissions.approvalPolicy, permissions.sandboxPolicy),
    ...(kept !== undefined && kept !== permissions.approvalPolicy ? { cody_approval_kept: kept } : {}),
  };
}
