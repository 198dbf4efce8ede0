/**
 * A compaction run by the engine: automatic (the window is nearly full, or the provider said it is
 * exceeded) or manual. Its summary requests go through `requestWithRetry`, so retries are events as
 * they happen; the result is recorded (a `compacted` line, then `context_compacted`), and one
 * before/after figure — the one `status()` reports — is used for the event and the record alike.
 */
import type { MessageItem, ModelRequest, ResponseItem } from '../../protocol/index.js';
import { compactHistory, type CompactionProgress, isSummaryMessage } from '../compact/index.js';
import { collectInitialContext } from '../compact/index.js';
import { instructionsMessage, isInstructionsMessage } from '../project/index.js';
import { retryPolicyOf } from '../config/index.js';
import type { CompactionTrigger, SessionEvent } from '../conversation/index.js';
import { failureFromProvider, TurnFailedError } from '../turn/index.js';
import { requestWithRetry, type ModelResponse } from './model-request.js';
import type { TurnContext } from './turn-context.js';
import { preCompactHooks } from './hook-step.js';
import { acceptsImages } from '../selection/index.js';
import { itemsForModel } from '../images/index.js';

export interface CompactionReport {
  status: 'compacted' | 'noop';
  /** Why nothing was done, for a no-op. */
  reason?: string;
  tokensBefore: number;
  tokensAfter: number;
  trimmedItems: number;
  summaryFailed: boolean;
}

export interface CompactionRequest {
  trigger: CompactionTrigger;
  focus?: string;
  /** The turn's new message while no reply came yet: kept last, after the summary. */
  newUserMessage?: MessageItem;
}

/** Runs one compaction; throws a TurnFailedError (history unchanged) when it cannot be done. */
export async function* runCompaction(
  turn: TurnContext,
  request: CompactionRequest,
): AsyncGenerator<SessionEvent, CompactionReport> {
  const { handle, budget, limits, signal, states } = turn;
  const { trigger } = request;
  const entered = states.to('Compacting');
  if (entered) yield entered;
  yield* preCompactHooks(turn, trigger, request.focus);
  const tokensBefore = budget.contextTokens();
  yield { type: 'compaction-started', trigger, tokensBefore };
  // The new message is the history's last item until a reply comes (an earlier compaction of this turn
  // may have cut it: the original is used again).
  const tail = handle.history.at(-1);
  const pending = tail?.type === 'message' && tail.role === 'user' ? request.newUserMessage : undefined;
  const history = pending ? handle.history.slice(0, -1) : handle.history;
  const steps = compactHistory({
    history,
    ...(pending ? { newUserMessage: pending } : {}),
    request: (summaryRequest) => summaryRequester(turn, summaryRequest),
    estimator: handle.accountant.estimator,
    tools: turn.tools?.specs() ?? [],
    contextWindow: limits.contextWindow,
    autoCompactLimit: budget.limitFor(limits),
    maxOutputTokens: limits.maxOutputTokens,
    ...(request.focus !== undefined ? { focus: request.focus } : {}),
    ...(signal ? { signal } : {}),
    placeholderOnFailure: trigger !== 'manual',
  });
  let step = await steps.next();
  for (; step.done !== true; step = await steps.next()) if (step.value.type === 'retry') yield step.value;
  const outcome = step.value;
  if (outcome.status === 'failed') {
    if (signal?.aborted || outcome.error?.kind === 'aborted') {
      throw new TurnFailedError('Interrupted.', 'interrupted', outcome.error);
    }
    if (outcome.error)
      throw failureFromProvider(outcome.error, 0, 'The summary request failed', {
        server: turn.selection.provider,
        address: turn.endpoint,
      });
    throw new TurnFailedError(
      `Compaction failed: ${outcome.reason}; the history was kept as it was.`,
      'failure',
    );
  }
  if (outcome.status === 'noop') {
    const report = {
      status: 'noop' as const,
      reason: outcome.reason,
      tokensBefore,
      tokensAfter: tokensBefore,
    };
    yield finished(trigger, { ...report, trimmedItems: 0, summaryFailed: false });
    return { ...report, trimmedItems: 0, summaryFailed: false };
  }
  const compactionCount = handle.compactionCount + 1;
  handle.compactionCount = compactionCount;
  // Instructions are not summarised away: the ones in effect come right after the summary.
  const replacementHistory = withInstructions(outcome.replacementHistory, turn.instructions);
  handle.replaceHistory(replacementHistory);
  // SessionStart hooks run again (source "compact") before the next prompt: what they add was summarised.
  if (turn.hookState) turn.hookState.pendingStart = 'compact';
  const report: CompactionReport = {
    status: 'compacted',
    tokensBefore,
    tokensAfter: budget.contextTokens(),
    trimmedItems: outcome.trimmedItems,
    summaryFailed: outcome.summaryFailed,
  };
  yield* recordCompaction(handle, trigger, report, {
    message: outcome.summary,
    replacement_history: replacementHistory,
    compaction_count: compactionCount,
  });
  if (outcome.summaryFailed) {
    yield {
      type: 'warning',
      message: `The summary request failed (${outcome.summaryError ?? 'no summary'}); to get under the context limit the conversation was compacted with a placeholder summary, so earlier context beyond the kept messages is lost.`,
    };
  }
  yield finished(trigger, report);
  return report;
}

/** Writes the compaction to the rollout: the `compacted` line, then the `context_compacted` event. */
async function* recordCompaction(
  handle: TurnContext['handle'],
  trigger: CompactionTrigger,
  report: CompactionReport,
  compacted: { message: string; replacement_history: ResponseItem[]; compaction_count: number },
): AsyncGenerator<SessionEvent> {
  yield* handle.append((recorder) => recorder.appendCompacted(compacted));
  yield* handle.append((recorder) =>
    recorder.appendEvent({
      type: 'context_compacted',
      trigger,
      tokens_before: report.tokensBefore,
      tokens_after: report.tokensAfter,
      trimmed_items: report.trimmedItems,
      summary_failed: report.summaryFailed,
    }),
  );
}

/** `history` without its instructions messages, and with `instructions` after the summary (else first). */
function withInstructions(
  history: readonly ResponseItem[],
  instructions: string | undefined,
): ResponseItem[] {
  const rest = history.filter((item) => !isInstructionsMessage(item));
  if (instructions === undefined) return rest;
  const summary = rest.findIndex(isSummaryMessage);
  const at = summary >= 0 ? summary + 1 : collectInitialContext(rest).length;
  return [...rest.slice(0, at), instructionsMessage(instructions), ...rest.slice(at)];
}

function finished(trigger: CompactionTrigger, report: CompactionReport): SessionEvent {
  return {
    type: 'compaction-finished',
    trigger,
    status: report.status,
    ...(report.reason !== undefined ? { reason: report.reason } : {}),
    tokensBefore: report.tokensBefore,
    tokensAfter: report.tokensAfter,
    trimmedItems: report.trimmedItems,
    summaryFailed: report.summaryFailed,
  };
}

async function* summaryRequester(
  turn: TurnContext,
  request: Omit<ModelRequest, 'signal'>,
): AsyncGenerator<CompactionProgress, ModelResponse> {
  const images = acceptsImages(turn.selection.model, turn.config);
  const requests = requestWithRetry({
    client: turn.client,
    request: { ...request, items: itemsForModel(request.items, images) },
    policy: retryPolicyOf(turn.config),
    ...(turn.signal ? { signal: turn.signal } : {}),
    streamDeltas: false,
  });
  let step = await requests.next();
  for (; step.done !== true; step = await requests.next()) if (step.value.type === 'retry') yield step.value;
  return step.value;
}
