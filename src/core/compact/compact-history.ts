/**
 * The compaction service (Codex's algorithm in Cody's words): summarise the history with the same model,
 * then replace it with instructions + recent user messages + the summary + undo points. Returns a status;
 * provider failures never throw — the worst case is a placeholder summary.
 */
import type { ModelClient, ProviderError, ResponseItem } from '../../protocol/index.js';
import { normalizeItems } from '../../providers/index.js';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, type RetryPolicy, sleep } from '../retry.js';
import type { TokenEstimator } from '../tokens/estimator.js';
import {
  buildReplacementHistory,
  collectGhostSnapshots,
  collectInitialContext,
  selectKeptUserMessages,
  trimOldestForRetry,
} from './history-parts.js';
import { keptMessagesBudget, summaryMaxOutputTokens } from './limits.js';
import { buildSummaryRequest } from './prompt.js';

/** Summary text used when the model could not produce one: compaction still completes. */
export const SUMMARY_UNAVAILABLE = '(summary unavailable)';

export type CompactionProgress =
  | { type: 'summary-request'; attempt: number }
  | { type: 'retry'; attempt: number; delayMs: number; error: ProviderError }
  | { type: 'trimmed'; removed: number };

export type CompactionOutcome =
  | {
      status: 'compacted';
      summary: string;
      replacementHistory: ResponseItem[];
      tokensBefore: number;
      tokensAfter: number;
      /** Items dropped from the summary request so it would fit. */
      trimmedItems: number;
      summaryFailed: boolean;
    }
  | { status: 'noop'; reason: string; tokensBefore: number }
  | { status: 'failed-inflated'; tokensBefore: number; tokensAfter: number };

export interface CompactOptions {
  history: readonly ResponseItem[];
  client: ModelClient;
  estimator: TokenEstimator;
  contextWindow: number;
  autoCompactLimit: number;
  /** Model's maximum output; bounds the summary length. */
  maxOutputTokens?: number;
  focus?: string;
  retryPolicy?: RetryPolicy;
  signal?: AbortSignal;
  onProgress?: (event: CompactionProgress) => void;
}

function estimate(items: readonly ResponseItem[], estimator: TokenEstimator): number {
  let total = 0;
  for (const item of items) total += estimator.countItem(item);
  return total;
}

export async function compactHistory(options: CompactOptions): Promise<CompactionOutcome> {
  const { history, estimator } = options;
  const tokensBefore = estimate(history, estimator);
  const initialContext = collectInitialContext(history);
  const hasConversation = history.some(
    (item) =>
      !(item.type === 'message' && (item.role === 'system' || item.role === 'developer')) &&
      item.type !== 'ghost_snapshot',
  );
  if (!hasConversation) return { status: 'noop', reason: 'nothing to compact', tokensBefore };

  const { summary, trimmedItems, failed } = await summarise(options);
  const replacementHistory = buildReplacementHistory({
    initialContext,
    keptUserMessages: selectKeptUserMessages(
      history,
      keptMessagesBudget(options.autoCompactLimit),
      estimator,
    ),
    summary,
    ghostSnapshots: collectGhostSnapshots(history),
  });
  const tokensAfter = estimate(replacementHistory, estimator);
  if (tokensAfter >= tokensBefore) return { status: 'failed-inflated', tokensBefore, tokensAfter };
  return {
    status: 'compacted',
    summary,
    replacementHistory,
    tokensBefore,
    tokensAfter,
    trimmedItems,
    summaryFailed: failed,
  };
}

async function summarise(
  options: CompactOptions,
): Promise<{ summary: string; trimmedItems: number; failed: boolean }> {
  const policy = options.retryPolicy ?? DEFAULT_RETRY_POLICY;
  const maxOutput = summaryMaxOutputTokens(
    options.contextWindow,
    options.maxOutputTokens ?? options.contextWindow,
  );
  let history: ResponseItem[] = [...options.history];
  let trimmedItems = 0;
  const trim = (): boolean => {
    const trimmed = trimOldestForRetry(history);
    if (trimmed.removed === 0) return false;
    history = trimmed.history;
    trimmedItems += trimmed.removed;
    options.onProgress?.({ type: 'trimmed', removed: trimmed.removed });
    return true;
  };
  // Every request must fit: trim before sending rather than wait for the provider to refuse.
  while (
    estimate(buildSummaryRequest(history, options.focus), options.estimator) + maxOutput >
    options.contextWindow
  ) {
    if (!trim()) break;
  }
  let retries = 0;
  for (let attempt = 1; ; attempt += 1) {
    options.onProgress?.({ type: 'summary-request', attempt });
    const result = await requestSummary(
      options.client,
      buildSummaryRequest(history, options.focus),
      maxOutput,
      options.signal,
    );
    if (result.kind === 'text') {
      const text = result.text.trim();
      return { summary: text === '' ? SUMMARY_UNAVAILABLE : text, trimmedItems, failed: text === '' };
    }
    const error = result.error;
    if (error.kind === 'aborted' || options.signal?.aborted) throw error;
    if (error.kind === 'context-overflow') {
      retries = 0; // a smaller request is a new request
      if (trim()) continue;
      return { summary: SUMMARY_UNAVAILABLE, trimmedItems, failed: true };
    }
    if (error.isRetryable && retries < policy.maxRetries) {
      retries += 1;
      const delayMs = backoffDelayMs(policy, retries, error.retryAfterMs);
      options.onProgress?.({ type: 'retry', attempt: retries, delayMs, error });
      await sleep(delayMs, options.signal);
      continue;
    }
    return { summary: SUMMARY_UNAVAILABLE, trimmedItems, failed: true };
  }
}

async function requestSummary(
  client: ModelClient,
  items: ResponseItem[],
  maxOutputTokens: number,
  signal: AbortSignal | undefined,
): Promise<{ kind: 'text'; text: string } | { kind: 'error'; error: ProviderError }> {
  let deltas = '';
  let fromItems = '';
  let failure: ProviderError | undefined;
  for await (const event of client.stream({
    items: normalizeItems(items),
    tools: [],
    maxOutputTokens,
    ...(signal ? { signal } : {}),
  })) {
    if (event.type === 'text-delta') deltas += event.text;
    else if (event.type === 'item' && event.item.type === 'message' && event.item.role === 'assistant') {
      fromItems += event.item.content.map((part) => (part.type === 'input_image' ? '' : part.text)).join('');
    } else if (event.type === 'error') failure = event.error;
  }
  if (failure) return { kind: 'error', error: failure };
  return { kind: 'text', text: fromItems !== '' ? fromItems : deltas };
}
