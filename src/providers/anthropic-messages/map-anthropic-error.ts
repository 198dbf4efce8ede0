/** Anthropic SDK errors and in-stream `error` events → the one `ProviderError`. */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import { isRecord, ProviderError, type ProviderErrorKind } from '../../protocol/index.js';
import {
  describeCause,
  failureEvents,
  scrubSecret,
  mapTransportError,
  truncateMessage,
} from '../shared/error-text.js';
import { parseRetryAfter } from '../shared/retry-after.js';

export { failureEvents };

/**
 * Anthropic's wordings of "the prompt does not fit": `prompt is too long: N tokens > M maximum`, and
 * `input length and max_tokens exceed context limit: …` (input plus the output cap over the window).
 */
const CONTEXT_OVERFLOW_MESSAGE = /prompt is too long|exceed(s|ed)? (the )?context (limit|window)/i;

/** What an Anthropic error tells us: HTTP status (undefined inside a 200 stream), `error.type`, message. */
export interface AnthropicErrorFacts {
  status?: number;
  type?: string;
  message: string;
}

/** Classifies one Anthropic error. Pure; the table in the tests is the specification. */
export function classifyAnthropicError(facts: AnthropicErrorFacts): ProviderErrorKind {
  const { status, type, message } = facts;
  if (status === 401 || status === 403 || type === 'authentication_error' || type === 'permission_error')
    return 'auth';
  if ((status === undefined || status === 400) && CONTEXT_OVERFLOW_MESSAGE.test(message))
    return 'context-overflow';
  // 413 is the request's size in bytes; shrinking the history (compaction) is the fix, as for tokens.
  if (status === 413 || type === 'request_too_large') return 'context-overflow';
  if (status === 429 || type === 'rate_limit_error') return 'rate-limit';
  if (status === 529 || type === 'overloaded_error') return 'overloaded';
  if (status === 404 || type === 'not_found_error') return 'not-found';
  if (status === 408 || type === 'timeout_error') return 'network';
  if (status !== undefined && status >= 500) return 'server';
  if (status !== undefined) return 'bad-request';
  if (type === 'invalid_request_error') return 'bad-request';
  // An `api_error` (or an unknown type) inside a 200 stream: a failure on Anthropic's side.
  return 'server';
}

/** Options for `mapAnthropicError`. */
export interface MapAnthropicErrorOptions {
  /** A secret (the API key) that must never appear in an error message. */
  secret?: string;
}

/** Any error thrown by the SDK (or while reading its stream) as a `ProviderError`. */
export function mapAnthropicError(error: unknown, options: MapAnthropicErrorOptions = {}): ProviderError {
  const api = 'anthropic-messages';
  if (error instanceof ProviderError) return error;
  const clean = (message: string): string => truncateMessage(scrubSecret(message, options.secret));
  if (error instanceof APIUserAbortError || (error instanceof Error && error.name === 'AbortError'))
    return new ProviderError({ api, kind: 'aborted', message: 'The request was cancelled.', cause: error });
  if (error instanceof APIConnectionTimeoutError)
    return new ProviderError({ api, kind: 'network', message: 'The request timed out.', cause: error });
  if (error instanceof APIConnectionError) {
    return new ProviderError({
      api,
      kind: 'network',
      message: clean(`Could not reach the server: ${describeCause(error)}`),
      cause: error,
    });
  }
  if (error instanceof APIError) {
    const facts = factsOf(error);
    const retryAfterMs = error.headers ? parseRetryAfter((name) => error.headers?.get(name)) : undefined;
    return new ProviderError({
      api,
      kind: classifyAnthropicError(facts),
      message: clean(facts.message),
      ...(facts.status !== undefined ? { statusCode: facts.status } : {}),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      ...(facts.type !== undefined ? { code: facts.type } : {}),
      cause: error,
    });
  }
  return mapTransportError(error, api, clean, error instanceof SyntaxError);
}

/** Status, type and message of an `APIError`, whose body may be Anthropic's, a proxy's, or absent. */
function factsOf(error: APIError): AnthropicErrorFacts {
  const body: unknown = error.error;
  const inner = isRecord(body) && isRecord(body.error) ? body.error : isRecord(body) ? body : {};
  const type =
    typeof inner.type === 'string' && inner.type !== 'error' ? inner.type : (error.type ?? undefined);
  const message =
    typeof inner.message === 'string' && inner.message !== ''
      ? inner.message
      : typeof body === 'string' && body !== ''
        ? body
        : error.message;
  return {
    ...(error.status !== undefined ? { status: error.status } : {}),
    ...(type ? { type } : {}),
    message,
  };
}
