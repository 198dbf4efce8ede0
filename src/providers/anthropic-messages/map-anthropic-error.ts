/** Anthropic SDK errors and in-stream `error` events → the one `ProviderError`. */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import { ProviderError, type ProviderErrorKind } from '../../protocol/index.js';
import { parseRetryAfter } from '../shared/retry-after.js';

/** Classifies by HTTP status and Anthropic's error `type` (`overloaded_error`, `rate_limit_error`, …). */
export function classifyAnthropicError(
  status: number | undefined,
  type: string | undefined,
  message: string,
): ProviderErrorKind {
  if (/prompt is too long|exceeds? the (maximum )?context|context window|too many tokens/i.test(message))
    return 'context-overflow';
  if (status === 529 || type === 'overloaded_error') return 'overloaded';
  if (status === 429 || type === 'rate_limit_error') return 'rate-limit';
  if (status === 401 || status === 403 || type === 'authentication_error' || type === 'permission_error')
    return 'auth';
  if (status === 404 || type === 'not_found_error') return 'not-found';
  if (
    status === 400 ||
    status === 413 ||
    status === 422 ||
    type === 'invalid_request_error' ||
    type === 'request_too_large'
  ) {
    return 'bad-request';
  }
  return 'server';
}

export function mapAnthropicError(error: unknown): ProviderError {
  const api = 'anthropic-messages';
  if (error instanceof ProviderError) return error;
  if (error instanceof APIUserAbortError || (error instanceof Error && error.name === 'AbortError')) {
    return new ProviderError({ api, kind: 'aborted', message: 'Request aborted.', cause: error });
  }
  if (error instanceof APIConnectionTimeoutError)
    return new ProviderError({ api, kind: 'network', message: 'The request timed out.', cause: error });
  if (error instanceof APIConnectionError) {
    return new ProviderError({
      api,
      kind: 'network',
      message: `Could not reach the server: ${error.message}`,
      cause: error,
    });
  }
  if (error instanceof APIError) {
    const body = (error.error ?? {}) as {
      error?: { type?: unknown; message?: unknown };
      type?: unknown;
      message?: unknown;
    };
    const inner = body.error ?? body;
    const type = typeof inner.type === 'string' ? inner.type : undefined;
    const message = typeof inner.message === 'string' ? inner.message : error.message;
    const kind = classifyAnthropicError(error.status, type, message);
    const retryAfterMs = error.headers ? parseRetryAfter((name) => error.headers?.get(name)) : undefined;
    return new ProviderError({
      api,
      kind,
      message,
      ...(error.status !== undefined ? { statusCode: error.status } : {}),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      ...(type !== undefined ? { code: type } : {}),
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError({
    api,
    kind: 'network',
    message: `The connection failed: ${message}`,
    cause: error,
  });
}
