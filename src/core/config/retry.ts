/** The one retry policy: exponential backoff with jitter, honouring a server-requested delay. */
export interface RetryPolicy {
  /** Attempts after the first one. */
  maxRetries: number;
  /** Delay before the first retry, in ms; doubles each time. */
  baseDelayMs: number;
  /** Ceiling for any single wait, including a server's `retry-after`, in ms. */
  maxDelayMs: number;
}

/**
 * Default for model requests: 5 retries starting at 200 ms (200, 400, 800, 1600, 3200 ms ± jitter),
 * so a burst of 429s or a short outage is ridden out in about 6 s without hammering the provider.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 5, baseDelayMs: 200, maxDelayMs: 30_000 };

/**
 * Wait before retry number `attempt` (1-based): base × 2^(attempt−1), scaled by a random factor in
 * [0.75, 1.25) so many clients do not retry in lock-step; a server's requested delay wins when larger.
 */
export function backoffDelayMs(
  policy: RetryPolicy,
  attempt: number,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  const exponential = policy.baseDelayMs * 2 ** Math.max(0, attempt - 1);
  const jittered = exponential * (0.75 + random() * 0.5);
  const wanted = retryAfterMs !== undefined ? Math.max(retryAfterMs, jittered) : jittered;
  return Math.min(policy.maxDelayMs, Math.round(wanted));
}

/** Resolves after `ms`, or rejects early when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
