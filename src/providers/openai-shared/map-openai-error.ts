/** OpenAI SDK errors and in-stream error payloads → the one `ProviderError`. Shared by both OpenAI APIs. */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ProviderError, type ProviderErrorKind, type WireApi } from '../../protocol/index.js';
import { parseRetryAfter } from '../shared/retry-after.js';

const CONTEXT_OVERFLOW =
  /context_length_exceeded|maximum context length|context window|too many tokens|prompt is too long/i;

/** Classifies an error payload `{ code, type, message }` (in a 4xx body or an in-stream `error` event). */
export function classifyOpenAIError(
  status: number | undefined,
  code: string | undefined,
  type: string | undefined,
  message: string,
): { kind: ProviderErrorKind; isRetryable?: boolean } {
  if (code === 'context_length_exceeded' || CONTEXT_OVERFLOW.test(message))
    return { kind: 'context-overflow' };
  // Out of credit is a 429 that no amount of waiting fixes.
  if (code === 'insufficient_quota' || type === 'insufficient_quota')
    return { kind: 'rate-limit', isRetryable: false };
  if (code === 'rate_limit_exceeded' || status === 429) return { kind: 'rate-limit' };
  if (status === 401 || status === 403 || code === 'invalid_api_key') return { kind: 'auth' };
  if (status === 404 || code === 'model_not_found') return { kind: 'not-found' };
  if (status === 400 || status === 409 || status === 413 || status === 422) return { kind: 'bad-request' };
  if (code === 'server_error' || (status !== undefined && status >= 500)) return { kind: 'server' };
  if (status === undefined) return { kind: 'server' };
  return { kind: 'bad-request' };
}

export function mapOpenAIError(error: unknown, api: WireApi): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof APIUserAbortError || (error instanceof Error && error.name === 'AbortError')) {
    return new ProviderError({ api, kind: 'aborted', message: 'Request aborted.', cause: error });
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new ProviderError({ api, kind: 'network', message: 'The request timed out.', cause: error });
  }
  if (error instanceof APIConnectionError) {
    return new ProviderError({
      api,
      kind: 'network',
      message: `Could not reach the server: ${error.message}`,
      cause: error,
    });
  }
  if (error instanceof APIError) {
    const status = error.status;
    const body = (error.error ?? {}) as { message?: unknown; code?: unknown; type?: unknown };
    const code =
      typeof error.code === 'string' ? error.code : typeof body.code === 'string' ? body.code : undefined;
    const message = typeof body.message === 'string' ? body.message : error.message;
    const { kind, isRetryable } = classifyOpenAIError(status, code, error.type, message);
    const retryAfterMs = error.headers ? parseRetryAfter((name) => error.headers?.get(name)) : undefined;
    return new ProviderError({
      api,
      kind,
      message,
      ...(status !== undefined ? { statusCode: status } : {}),
      ...(isRetryable !== undefined ? { isRetryable } : {}),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      ...(code !== undefined ? { code } : {}),
      cause: error,
    });
  }
  // Anything else thrown while reading the stream (a dropped socket, a parse failure) is the network's.
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError({
    api,
    kind: 'network',
    message: `The connection failed: ${message}`,
    cause: error,
  });
}

/** The base URL the SDK will use: config, then OPENAI_BASE_URL, then the official endpoint. */
export function resolveOpenAIBaseUrl(
  baseUrl: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const chosen = baseUrl ?? env.OPENAI_BASE_URL;
  return chosen && chosen.trim() !== '' ? chosen : undefined;
}

/** Whether the endpoint is OpenAI's own (which needs a key); local compatible servers usually do not. */
export function isOfficialOpenAIEndpoint(baseUrl: string | undefined): boolean {
  if (baseUrl === undefined) return true;
  try {
    return new URL(baseUrl).hostname.endsWith('openai.com');
  } catch {
    return true;
  }
}
