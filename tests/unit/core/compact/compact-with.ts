/**
 * compactHistory driven the way the engine drives it: summary requests sent to `client` through the
 * engine's retrying request, progress collected through a callback, the outcome returned.
 */
import { requestWithRetry } from '../../../../src/core/turn/model-request.js';
import {
  compactHistory,
  type CompactHistoryOptions,
  type CompactionOutcome,
  type CompactionProgress,
} from '../../../../src/core/compact/index.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../../../src/core/config/retry.js';
import type { ModelClient } from '../../../../src/protocol/index.js';

export type CompactWithOptions = Omit<CompactHistoryOptions, 'request'> & {
  client: ModelClient;
  retryPolicy?: RetryPolicy;
  onProgress?: (event: CompactionProgress) => void;
};

export async function compactWith(options: CompactWithOptions): Promise<CompactionOutcome> {
  const { client, retryPolicy, onProgress, ...rest } = options;
  const steps = compactHistory({
    ...rest,
    request: async function* (request) {
      const requests = requestWithRetry({
        client,
        request,
        policy: retryPolicy ?? DEFAULT_RETRY_POLICY,
        ...(options.signal ? { signal: options.signal } : {}),
        streamDeltas: false,
      });
      let step = await requests.next();
      for (; step.done !== true; step = await requests.next())
        if (step.value.type === 'retry') yield step.value;
      return step.value;
    },
  });
  let step = await steps.next();
  for (; step.done !== true; step = await steps.next()) onProgress?.(step.value);
  return step.value;
}
