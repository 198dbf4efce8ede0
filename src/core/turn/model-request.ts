/**
 * One model request with retry: streams a response, and on a retryable failure waits (backoff with
 * jitter, honouring retry-after) and sends it again, reporting every retry as an event when it happens.
 * Turns and compaction's summary requests both go through it. It never throws for a provider failure
 * or an abort: the result says what happened, and the caller decides.
 */
import {
  ProviderError,
  type FinishReason,
  type ModelClient,
  type ModelRequest,
  type ResponseItem,
  type TokenUsage,
} from '../../protocol/index.js';
import { backoffDelayMs, sleep, type RetryPolicy } from '../config/index.js';
import type { SessionEvent } from '../conversation/index.js';
import type { TurnStateMachine } from './turn-state.js';

export interface ModelRequestOptions {
  client: ModelClient;
  request: Omit<ModelRequest, 'signal'>;
  policy: RetryPolicy;
  signal?: AbortSignal;
  /** Pass text and reasoning deltas on (a reply the person reads), or only collect them (a summary). */
  streamDeltas: boolean;
  /** The turn's state machine, when the request is a turn's own (a summary request keeps `Compacting`). */
  states?: TurnStateMachine;
}

export type ModelResponse =
  | {
      kind: 'ok';
      items: ResponseItem[];
      /** The streamed text, in case the client reported no completed message item. */
      text: string;
      usage: TokenUsage | undefined;
      finishReason: FinishReason;
    }
  /** A failure that retrying did not (or could not) fix, including an abort and a context overflow. */
  | {
      kind: 'failed';
      error: ProviderError;
      retries: number;
      /** The reply text that streamed before an abort (the person saw it; it is kept as interrupted). */
      partialText?: string;
    };

type Attempt = ModelResponse | { kind: 'retryable'; error: ProviderError; shownText: boolean };

export async function* requestWithRetry(
  options: ModelRequestOptions,
): AsyncGenerator<SessionEvent, ModelResponse> {
  const { policy, signal, states } = options;
  for (let retries = 0; ; retries += 1) {
    const attempt = yield* streamOnce(options, retries < policy.maxRetries);
    if (attempt.kind !== 'retryable') return attempt.kind === 'failed' ? { ...attempt, retries } : attempt;
    const state = states?.to('TransientFailure');
    if (state) yield state;
    const delayMs = backoffDelayMs(policy, retries + 1, attempt.error.retryAfterMs);
    yield {
      type: 'retry',
      attempt: retries + 1,
      maxRetries: policy.maxRetries,
      delayMs,
      reason: attempt.error.message,
      ...(attempt.error.statusCode !== undefined ? { statusCode: attempt.error.statusCode } : {}),
      discardedPartial: attempt.shownText,
    };
    try {
      await sleep(delayMs, signal);
    } catch {
      // Aborted while waiting: the same outcome as an abort while streaming.
      return { kind: 'failed', error: abortError(options.client, attempt.error), retries: retries + 1 };
    }
    const awaiting = states?.to('AwaitingLLMResponse');
    if (awaiting) yield awaiting;
  }
}

async function* streamOnce(
  options: ModelRequestOptions,
  mayRetry: boolean,
): AsyncGenerator<SessionEvent, Attempt> {
  const { client, signal, states } = options;
  const items: ResponseItem[] = [];
  let text = '';
  let usage: TokenUsage | undefined;
  let failure: ProviderError | undefined;
  let finishReason: FinishReason = 'other';
  let shownText = false;
  try {
    for await (const event of client.stream({ ...options.request, ...(signal ? { signal } : {}) })) {
      switch (event.type) {
        case 'text-delta':
        case 'reasoning-delta':
          if (event.type === 'text-delta') text += event.text;
          if (!options.streamDeltas) break;
          if (!shownText) {
            const streaming = states?.to('StreamingLLMResponse');
            if (streaming) yield streaming;
          }
          shownText ||= event.type === 'text-delta';
          yield { type: event.type, text: event.text };
          break;
        case 'tool-call-delta':
          break;
        case 'item':
          items.push(event.item);
          break;
        case 'usage':
          usage = event.usage;
          break;
        case 'error':
          failure = event.error;
          break;
        case 'finish':
          finishReason = event.reason;
          break;
        default: {
          const exhaustive: never = event;
          throw new Error(`unknown stream event ${JSON.stringify(exhaustive)}`);
        }
      }
    }
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    failure = error;
  }
  if (!failure) return { kind: 'ok', items, text, usage, finishReason };
  if (failure.kind === 'aborted' || signal?.aborted) {
    return {
      kind: 'failed',
      error: abortError(client, failure),
      retries: 0,
      ...(text !== '' ? { partialText: text } : {}),
    };
  }
  if (failure.kind !== 'context-overflow' && failure.isRetryable && mayRetry) {
    return { kind: 'retryable', error: failure, shownText };
  }
  return { kind: 'failed', error: failure, retries: 0 };
}

function abortError(client: ModelClient, cause: ProviderError): ProviderError {
  if (cause.kind === 'aborted') return cause;
  return new ProviderError({ api: client.api, kind: 'aborted', message: 'Interrupted.', cause });
}
