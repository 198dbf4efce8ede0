/**
 * The compaction service (Codex's algorithm, in Cody's words): summarise the history with the same
 * model, then replace it with the instructions, the most recent user messages, the summary and the
 * undo points. It returns a status; provider failures never throw — at worst the summary is a
 * placeholder. Recording the result is the session's job.
 */
import type { ModelClient, ProviderError, ResponseItem, ToolSpec } from '../../protocol/index.js';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, sleep, type RetryPolicy } from '../retry.js';
import { countItemsTokens, type TokenEstimator } from '../tokens/index.js';
import { buildReplacementHistory } from './build-replacement-history.js';
import { capOversizedItems } from './cap-oversized-items.js';
import { buildSummaryRequest } from './build-summary-request.js';
import { collectGhostSnapshots, collectInitialContext } from './collect-initial-context.js';
import { keptMessagesBudget } from './kept-messages-budget.js';
import { requestSummary } from './request-summary.js';
import { selectKeptUserMessages } from './select-kept-user-messages.js';
import { summaryMaxOutputTokens } from './summary-max-output-tokens.js';
import { trimOldestForRetry } from './trim-oldest-for-retry.js';

/** The summary used when none could be had (every attempt failed, or the model returned nothing). */
export const SUMMARY_UNAVAILABLE = '(summary unavailable)';

/** Progress of one compaction, for the caller to show or record. */
export type CompactionProgress =
  /** A summary request is about to be sent (attempt counts every request, from 1). */
  | { type: 'summary-request'; attempt: number }
  /** A retryable error; the next request follows after `delayMs` (attempt counts retries, from 1). */
  | { type: 'retry'; attempt: number; delayMs: number; error: ProviderError }
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
      /** Whether the summary is the placeholder. */
      summaryFailed: boolean;
      /** Why the summary is the placeholder: the provider's last error, or an empty answer. */
      summaryError?: string;
    }
  /** Nothing to compact: the history holds nothing but instructions (and undo points). */
  | { status: 'noop'; reason: string }
  /** The new history would not be smaller; the caller keeps the old one. */
  | { status: 'failed-inflated'; tokensBefore: number; tokensAfter: number };

export interface CompactHistoryOptions {
  history: readonly ResponseItem[];
  /** The conversation's own model: the summary comes from the same provider and model. */
  client: ModelClient;
  /** The conversation's tools: defined in the summary request (not callable), as its history needs. */
  tools?: readonly ToolSpec[];
  estimator: TokenEstimator;
  /** The model's context window, in tokens: every summary request is trimmed to fit it. */
  contextWindow: number;
  /** The auto-compact limit; sizes the budget of kept user messages. */
  autoCompactLimit: number;
  /** What the person asked the summary to keep (`cody compact --focus`). */
  focus?: string;
  /** Backoff for retryable errors; default 5 retries from 200 ms. */
  retryPolicy?: RetryPolicy;
  signal?: AbortSignal;
  /** Output cap of the summary request; default {@link summaryMaxOutputTokens} of the window. */
  summaryMaxOutputTokens?: number;
  /** The model's maximum output, bounding the default summary cap. */
  maxOutputTokens?: number;
  onProgress?: (event: CompactionProgress) => void;
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
 * Compacts `history`. Never throws for a provider failure (only when `signal` aborts, or on a bug):
 * an unrecoverable summary request yields the placeholder summary and compaction still completes.
 */
export async function compactHistory(options: CompactHistoryOptions): Promise<CompactionOutcome> {
  const { history, contextWindow } = options;
  const estimator = cachingEstimator(options.estimator);
  const initialContext = collectInitialContext(history);
  const conversation = history.slice(initialContext.length);
  if (!conversation.some((item) => item.type !== 'ghost_snapshot' && item.type !== 'opaque')) {
    return { status: 'noop', reason: 'the history holds nothing but instructions' };
  }
  options.signal?.throwIfAborted();

  const tokensBefore = countItemsTokens(history, estimator);
  const { summary, trimmedItems, failed, error } = await summarise(options, estimator);
  const replacementHistory = buildReplacementHistory({
    initialContext,
    keptUserMessages: selectKeptUserMessages(
      history,
      keptMessagesBudget(contextWindow, options.autoCompactLimit),
      estimator,
    ),
    summary,
    ghostSnapshots: collectGhostSnapshots(history),
  });
  const tokensAfter = countItemsTokens(replacementHistory, estimator);
  if (tokensAfter >= tokensBefore) return { status: 'failed-inflated', tokensBefore, tokensAfter };
  return {
    status: 'compacted',
    summary,
    replacementHistory,
    tokensBefore,
    tokensAfter,
    trimmedItems,
    summaryFailed: failed,
    ...(error !== undefined ? { summaryError: error } : {}),
  };
}

interface SummaryResult {
  summary: string;
  trimmedItems: number;
  failed: boolean;
  error?: string;
}

async function summarise(options: CompactHistoryOptions, estimator: TokenEstimator): Promise<SummaryResult> {
  const policy = options.retryPolicy ?? DEFAULT_RETRY_POLICY;
  const maxOutput =
    options.summaryMaxOutputTokens ?? summaryMaxOutputTokens(options.contextWindow, options.maxOutputTokens);
  const tools = options.tools ?? [];
  // Every request must fit: one item larger than half the room is cut down to it before anything
  // else, then the oldest items are trimmed rather than waiting for the provider to refuse.
  const toolTokens = tools.length > 0 ? estimator.countText(JSON.stringify(tools)) : 0;
  const room = options.contextWindow - maxOutput - toolTokens;
  let history = capOversizedItems(options.history, Math.floor(room / 2), estimator);
  let trimmedItems = 0;
  const trimOldest = (): boolean => {
    const trimmed = trimOldestForRetry(history);
    if (trimmed.removed === 0) return false;
    history = trimmed.history;
    trimmedItems += trimmed.removed;
    options.onProgress?.({ type: 'trimmed', removed: trimmed.removed });
    return true;
  };
  const failure = (error: string): SummaryResult => ({
    summary: SUMMARY_UNAVAILABLE,
    trimmedItems,
    failed: true,
    error,
  });

  while (countItemsTokens(buildSummaryRequest(history, options.focus), estimator) > room) {
    if (!trimOldest()) break;
  }

  let retries = 0;
  for (let attempt = 1; ; attempt += 1) {
    options.onProgress?.({ type: 'summary-request', attempt });
    const request = buildSummaryRequest(history, options.focus);
    const response = await requestSummary(options.client, request, maxOutput, options.signal, tools);
    options.signal?.throwIfAborted();
    if (response.kind === 'text') {
      const summary = response.text.trim();
      return summary === ''
        ? failure('the model answered with an empty summary')
        : { summary, trimmedItems, failed: false };
    }
    const error = response.error;
    if (error.kind === 'context-overflow') {
      // A smaller request is a new request: it gets the full retry allowance again.
      retries = 0;
      if (trimOldest()) continue;
      return failure(error.message);
    }
    if (!error.isRetryable || retries >= policy.maxRetries) return failure(error.message);
    retries += 1;
    const delayMs = backoffDelayMs(policy, retries, error.retryAfterMs);
    options.onProgress?.({ type: 'retry', attempt: retries, delayMs, error });
    await sleep(delayMs, options.signal);
  }
}
