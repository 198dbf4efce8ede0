/**
 * The compaction service (Codex's algorithm, in Cody's words): summarise the history with the same
 * model, then replace it with the instructions, the most recent user messages, the summary and the
 * undo points. It returns a status; provider failures never throw. A summary that cannot be had leaves
 * the history as it was, unless the caller allows a placeholder. Recording the result is the engine's job.
 */
import type {
  MessageItem,
  ModelRequest,
  ProviderError,
  ResponseItem,
  ToolSpec,
} from '../../protocol/index.js';
import type { ModelResponse } from '../turn/index.js';
import type { SessionEvent } from '../conversation/index.js';
import { countItemsTokens, type TokenEstimator } from '../tokens/index.js';
import { buildReplacementHistory } from './build-replacement-history.js';
import { capOversizedItems } from './cap-oversized-items.js';
import { buildSummaryRequest } from './build-summary-request.js';
import { collectGhostSnapshots, collectInitialContext } from './collect-initial-context.js';
import { keptMessagesBudget } from './kept-messages-budget.js';
import { messageText } from '../rollout/index.js';
import { selectKeptUserMessages } from './select-kept-user-messages.js';
import { summaryMaxOutputTokens } from './summary-max-output-tokens.js';
import { trimOldestForRetry } from './trim-oldest-for-retry.js';

/** What a compaction records as its summary when only the new message had to be cut. */
export const NOTHING_TO_SUMMARISE =
  '(nothing to summarise: the new message alone exceeded the limit and was cut in the middle)';

/** The summary used when none could be had (every attempt failed, or the model returned nothing). */
export const SUMMARY_UNAVAILABLE = '(summary unavailable)';

/** Progress of one compaction, for the caller to show or record as it happens. */
export type CompactionProgress =
  /** A summary request is about to be sent (attempt counts requests built, from 1). */
  | { type: 'summary-request'; attempt: number }
  /** A retryable error; the same request follows after `delayMs` (attempt counts retries, from 1). */
  | Extract<SessionEvent, { type: 'retry' }>
  /** The oldest item (and its call/output partner) was dropped from the summary request. */
  | { type: 'trimmed'; removed: number };

export type CompactionOutcome =
  | {
      status: 'compacted';
      /** The summary text as recorded (without the prefix), or {@link SUMMARY_UNAVAILABLE}. */
      summary: string;
      /** The whole new history. */
      replacementHistory: ResponseItem[];
      /** Estimated tokens of the old and the new history, by the same estimator. */
      tokensBefore: number;
      tokensAfter: number;
      /** Items dropped from the summary request so that it fit the window. */
      trimmedItems: number;
      /** Whether the summary is the placeholder (only with `placeholderOnFailure`). */
      summaryFailed: boolean;
      /** Why the summary is the placeholder: the provider's last error, or an empty answer. */
      summaryError?: string;
    }
  /** Nothing to do: nothing but instructions, or a summary could not make the history smaller. */
  | { status: 'noop'; reason: string }
  /**
   * No summary could be had and no placeholder was allowed (or the failure would fail any request:
   * a rejected key, an unknown model, an abort). The caller keeps the history as it was.
   */
  | { status: 'failed'; reason: string; error?: ProviderError };

/** Sends one request with retries (the engine's `requestWithRetry`), reporting retries as it goes. */
export type SummaryRequester = (
  request: Omit<ModelRequest, 'signal'>,
) => AsyncGenerator<CompactionProgress, ModelResponse>;

export interface CompactHistoryOptions {
  history: readonly ResponseItem[];
  /**
   * The turn's new message, when compaction runs before its first request: it is not summarised, it is
   * the first of the kept messages (cut in the middle only if it alone exceeds their budget), and it goes
   * last, after the summary, so the model answers it rather than the summary.
   */
  newUserMessage?: MessageItem;
  /** Sends the summary requests of the conversation's own model. */
  request: SummaryRequester;
  /** The conversation's tools: defined in the summary request (not callable), as its history needs. */
  tools?: readonly ToolSpec[];
  estimator: TokenEstimator;
  /** The model's context window, in tokens: every summary request is trimmed to fit it. */
  contextWindow: number;
  /** The auto-compact limit; sizes the budget of kept user messages. */
  autoCompactLimit: number;
  /** What the person asked the summary to keep (`cody compact --focus`). */
  focus?: string;
  signal?: AbortSignal;
  /** Output cap of the summary request; default {@link summaryMaxOutputTokens} of the window. */
  summaryMaxOutputTokens?: number;
  /** The model's maximum output, bounding the default summary cap. */
  maxOutputTokens?: number;
  /**
   * When no summary can be had, compact anyway with {@link SUMMARY_UNAVAILABLE} (an automatic
   * compaction that must get the history under the limit). Otherwise the outcome is 'failed'.
   */
  placeholderOnFailure?: boolean;
}

/** An estimator that counts each item object once, for the repeated fits checks while trimming. */
function cachingEstimator(estimator: TokenEstimator): TokenEstimator {
  const cache = new WeakMap<ResponseItem, number>();
  return {
    kind: estimator.kind,
    countText: (text) => estimator.countText(text),
    countItem: (item) => {
      let tokens = cache.get(item);
      if (tokens === undefined) {
        tokens = estimator.countItem(item);
        cache.set(item, tokens);
      }
      return tokens;
    },
  };
}

/**
 * Compacts `history`, yielding progress as it happens. Never throws for a provider failure or an abort
 * (only on a bug): the outcome says what happened.
 */
export async function* compactHistory(
  options: CompactHistoryOptions,
): AsyncGenerator<CompactionProgress, CompactionOutcome> {
  const { history, contextWindow, newUserMessage } = options;
  const estimator = cachingEstimator(options.estimator);
  const initialContext = collectInitialContext(history);
  const conversation = history.slice(initialContext.length);
  const summarisable = conversation.some((item) => item.type !== 'ghost_snapshot' && item.type !== 'opaque');
  if (!summarisable && !newUserMessage) {
    return { status: 'noop', reason: 'the history holds nothing but instructions' };
  }
  // The caller sees its own signal: an abort before anything was sent is its to report.
  if (options.signal?.aborted) return { status: 'failed', reason: 'interrupted' };

  const all = newUserMessage ? [...history, newUserMessage] : history;
  const replace = (summary: string | undefined): ResponseItem[] => {
    const kept = selectKeptUserMessages(
      all,
      keptMessagesBudget(contextWindow, options.autoCompactLimit),
      estimator,
    );
    // The new message is the most recent: the first selected, so the last in chronological order.
    const last = newUserMessage ? (kept.pop() ?? newUserMessage) : undefined;
    const parts = { initialContext, keptUserMessages: kept, ghostSnapshots: collectGhostSnapshots(history) };
    const rebuilt =
      summary === undefined
        ? [...parts.initialContext, ...parts.keptUserMessages, ...parts.ghostSnapshots]
        : buildReplacementHistory({ ...parts, summary });
    return last ? [...rebuilt, last] : rebuilt;
  };
  const tokensBefore = countItemsTokens(all, estimator);
  // Even an empty summary would not shrink it: asking the model is pointless.
  if (countItemsTokens(replace(summarisable ? '' : undefined), estimator) >= tokensBefore)
    return notSmaller();
  if (!summarisable) {
    // Only the new message is too large: it is cut to fit, and there is nothing to summarise.
    const replacementHistory = replace(undefined);
    return {
      status: 'compacted',
      summary: NOTHING_TO_SUMMARISE,
      replacementHistory,
      tokensBefore,
      tokensAfter: countItemsTokens(replacementHistory, estimator),
      trimmedItems: 0,
      summaryFailed: false,
    };
  }
  const result = yield* summarise(options, estimator);
  if (result.kind === 'failed' && !placeholderAllowed(options, result.error)) {
    return { status: 'failed', reason: result.reason, ...(result.error ? { error: result.error } : {}) };
  }
  const summary = result.kind === 'ok' ? result.summary : SUMMARY_UNAVAILABLE;
  const replacementHistory = replace(summary);
  const tokensAfter = countItemsTokens(replacementHistory, estimator);
  if (tokensAfter >= tokensBefore) return notSmaller();
  return {
    status: 'compacted',
    summary,
    replacementHistory,
    tokensBefore,
    tokensAfter,
    trimmedItems: result.trimmedItems,
    summaryFailed: result.kind === 'failed',
    ...(result.kind === 'failed' ? { summaryError: result.reason } : {}),
  };
}

function notSmaller(): CompactionOutcome {
  return { status: 'noop', reason: 'a summary would not make the history smaller' };
}

/** A failure every request would meet (a rejected key, an unknown model) or an abort gets no placeholder. */
function placeholderAllowed(options: CompactHistoryOptions, error: ProviderError | undefined): boolean {
  if (options.placeholderOnFailure !== true) return false;
  return !error || !['auth', 'not-found', 'aborted'].includes(error.kind);
}

type SummaryResult =
  | { kind: 'ok'; summary: string; trimmedItems: number }
  | { kind: 'failed'; reason: string; error?: ProviderError; trimmedItems: number };

async function* summarise(
  options: CompactHistoryOptions,
  estimator: TokenEstimator,
): AsyncGenerator<CompactionProgress, SummaryResult> {
  const maxOutput =
    options.summaryMaxOutputTokens ?? summaryMaxOutputTokens(options.contextWindow, options.maxOutputTokens);
  const tools = options.tools ?? [];
  // Every request must fit: one item larger than half the room is cut down to it before anything
  // else, then the oldest items are trimmed rather than waiting for the provider to refuse.
  const toolTokens = tools.length > 0 ? estimator.countText(JSON.stringify(tools)) : 0;
  const room = options.contextWindow - maxOutput - toolTokens;
  let history = capOversizedItems(options.history, Math.floor(room / 2), estimator);
  let trimmedItems = 0;
  const trimOldest = (): number => {
    const trimmed = trimOldestForRetry(history);
    history = trimmed.history;
    trimmedItems += trimmed.removed;
    return trimmed.removed;
  };

  while (countItemsTokens(buildSummaryRequest(history, options.focus), estimator) > room) {
    const removed = trimOldest();
    if (removed === 0) break;
    yield { type: 'trimmed', removed };
  }

  for (let attempt = 1; ; attempt += 1) {
    yield { type: 'summary-request', attempt };
    const items = buildSummaryRequest(history, options.focus);
    const response = yield* options.request({
      items,
      tools: [...tools],
      ...(tools.length > 0 ? { toolChoice: 'none' as const } : {}),
      maxOutputTokens: maxOutput,
    });
    if (response.kind === 'ok') {
      const summary = summaryText(response).trim();
      return summary === ''
        ? { kind: 'failed', reason: 'the model returned an empty summary', trimmedItems }
        : { kind: 'ok', summary, trimmedItems };
    }
    const error = response.error;
    if (error.kind === 'context-overflow') {
      // A smaller request is a new request: it gets the full retry allowance again.
      const removed = trimOldest();
      if (removed > 0) {
        yield { type: 'trimmed', removed };
        continue;
      }
    }
    return { kind: 'failed', reason: error.message, error, trimmedItems };
  }
}

/** The assistant's text: from completed message items when the client reported them, else the deltas. */
function summaryText(response: Extract<ModelResponse, { kind: 'ok' }>): string {
  const fromItems = response.items
    .filter((item): item is MessageItem => item.type === 'message' && item.role === 'assistant')
    .map((item) => messageText(item))
    .join('');
  return fromItems !== '' ? fromItems : response.text;
}
