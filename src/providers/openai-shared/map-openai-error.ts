/**
 * OpenAI SDK errors and in-stream error payloads → the one `ProviderError`. Both OpenAI wire APIs (and
 * the OpenAI-compatible servers behind Chat Completions) share the SDK's error classes and the
 * `{error: {message, type, param, code}}` body, so the whole mapper is shared.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { isRecord, ProviderError, type ProviderErrorKind, type WireApi } from '../../protocol/index.js';
import {
  describeCause,
  failureEvents,
  scrubSecret,
  mapTransportError,
  truncateMessage,
} from '../shared/error-text.js';
import { parseRetryAfter } from '../shared/retry-after.js';

export { failureEvents };

/** What an OpenAI error tells us, wherever it came from (HTTP status + body, or a stream event). */
export interface OpenAIErrorFacts {
  /** HTTP status; undefined for an error that arrived inside a 200 stream. */
  status?: number;
  code?: string;
  type?: string;
  message: string;
}

/** The verdict on one error: its kind, and whether retrying may help when that differs from the default. */
export interface OpenAIErrorClass {
  kind: ProviderErrorKind;
  /** Set only where it differs from the kind's default (see `ProviderError`). */
  isRetryable?: boolean;
}

/** Wordings of a context overflow on OpenAI and the servers that imitate it (vLLM, LM Studio, OpenRouter). */
const CONTEXT_OVERFLOW_MESSAGE =
  /maximum context length|context window|context length|too many tokens|prompt is too long/i;

/** Classifies one OpenAI error. Pure; the table in the tests is the specification. */
export function classifyOpenAIError(facts: OpenAIErrorFacts): OpenAIErrorClass {
  const { status, code, type, message } = facts;
  if (status === 401 || status === 403 || code === 'invalid_api_key') return { kind: 'auth' };
  if (
    code === 'context_length_exceeded' ||
    ((status === undefined || status === 400 || status === 413) && CONTEXT_OVERFLOW_MESSAGE.test(message))
  ) {
    return { kind: 'context-overflow' };
  }
  // Out of credit arrives as a 429 (or an in-stream error) that no amount of waiting fixes.
  if (code === 'insufficient_quota' || type === 'insufficient_quota') {
    return { kind: 'rate-limit', isRetryable: false };
  }
  if (status === 429 || code === 'rate_limit_exceeded') return { kind: 'rate-limit' };
  // The Responses API answers an unknown model with 400 model_not_found, Chat Completions with 404.
  if (status === 404 || code === 'model_not_found') return { kind: 'not-found' };
  if (status === 408) return { kind: 'network' };
  // OpenAI uses 409 for a conflict on its side (a lock timeout); the same request can succeed later.
  if (status === 409) return { kind: 'server', isRetryable: true };
  if (status !== undefined && status >= 500) return { kind: 'server' };
  if (status !== undefined) return { kind: 'bad-request' };
  // An error inside a 200 stream with no recognised code: most likely a transient failure upstream.
  if (code === 'invalid_request_error' || type === 'invalid_request_error') return { kind: 'bad-request' };
  return { kind: 'server' };
}

/** Options for `mapOpenAIError`. */
export interface MapOpenAIErrorOptions {
  /** A secret (the API key) that must never appear in an error message. */
  secret?: string;
}

/** Any error thrown by the SDK (or while reading its stream) as a `ProviderError` for `api`. */
export function mapOpenAIError(
  error: unknown,
  api: WireApi,
  options: MapOpenAIErrorOptions = {},
): ProviderError {
  if (error instanceof ProviderError) return error;
  const clean = (message: string): string => scrubSecret(message, options.secret);
  if (error instanceof APIUserAbortError || isAbortError(error)) {
    return new ProviderError({ api, kind: 'aborted', message: 'The request was cancelled.', cause: error });
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new ProviderError({ api, kind: 'network', message: 'The request timed out.', cause: error });
  }
  if (error instanceof APIConnectionError) {
    return new ProviderError({
      api,
      kind: 'network',
      message: clean(`Could not reach the server: ${describeCause(error)}`),
      cause: error,
    });
  }
  if (error instanceof APIError) {
    // Ollama and some proxies answer `{"error": "text"}` rather than OpenAI's `{"error": {...}}`.
    const raw: unknown = error.error;
    const body = isRecord(raw) ? raw : typeof raw === 'string' ? { message: raw } : {};
    const facts = factsOf(body, error.status, error.message);
    const retryAfterMs = error.headers ? parseRetryAfter((name) => error.headers?.get(name)) : undefined;
    return build(api, facts, clean, error, retryAfterMs);
  }
  return mapTransportError(error, api, clean, error instanceof SyntaxError);
}

/**
 * An error object found inside a stream (`error` event, `response.failed`'s `response.error`, or an
 * OpenAI-compatible server's `{error: {...}}` chunk) as a `ProviderError`. Lenient: any shape is accepted.
 */
export function mapOpenAIErrorPayload(
  payload: unknown,
  api: WireApi,
  fallbackMessage: string,
): ProviderError {
  const body = isRecord(payload) ? payload : {};
  return build(api, factsOf(body, undefined, fallbackMessage), (message) => message, payload, undefined);
}

function factsOf(
  body: Record<string, unknown>,
  status: number | undefined,
  fallback: string,
): OpenAIErrorFacts {
  // Some compatible servers (OpenRouter) put an HTTP status in `code` of an in-stream error.
  const numericCode =
    typeof body.code === 'number' && body.code >= 100 && body.code <= 599 ? body.code : undefined;
  const code = typeof body.code === 'string' ? body.code : undefined;
  const type = typeof body.type === 'string' ? body.type : undefined;
  const message = typeof body.message === 'string' && body.message !== '' ? body.message : fallback;
  return {
    ...(status !== undefined ? { status } : numericCode !== undefined ? { status: numericCode } : {}),
    ...(code !== undefined ? { code } : {}),
    ...(type !== undefined ? { type } : {}),
    message,
  };
}

function build(
  api: WireApi,
  facts: OpenAIErrorFacts,
  clean: (message: string) => string,
  cause: unknown,
  retryAfterMs: number | undefined,
): ProviderError {
  const { kind, isRetryable } = classifyOpenAIError(facts);
  return new ProviderError({
    api,
    kind,
    message: clean(truncateMessage(facts.message)),
    ...(facts.status !== undefined ? { statusCode: facts.status } : {}),
    ...(isRetryable !== undefined ? { isRetryable } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(facts.code !== undefined
      ? { code: facts.code }
      : facts.type !== undefined
        ? { code: facts.type }
        : {}),
    cause,
  });
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
