/**
 * @google/genai errors → the one `ProviderError`. The SDK's `ApiError` carries the HTTP status and, as its
 * message, the JSON error body (`{error: {code, message, status, details}}`), prefixed with
 * `got status: …` when it arrived inside a stream.
 */
import { ApiError } from '@google/genai';
import { isRecord, ProviderError, type ProviderErrorKind } from '../../protocol/index.js';
import { failureEvents, scrubSecret, mapTransportError, truncateMessage } from '../shared/error-text.js';
import { parseRetryAfter } from '../shared/retry-after.js';

export { failureEvents };

/** Gemini's wording of "the prompt does not fit": `The input token count (N) exceeds the maximum …`. */
const CONTEXT_OVERFLOW_MESSAGE = /input token count.*exceeds|exceeds the maximum number of tokens/i;

/** A rejected key arrives as 400 INVALID_ARGUMENT with this wording (reason API_KEY_INVALID). */
const INVALID_KEY_MESSAGE = /API key not valid|API_KEY_INVALID|API key expired/i;

/** What a Gemini error tells us: HTTP status, the gRPC status name (`RESOURCE_EXHAUSTED`), message. */
export interface GeminiErrorFacts {
  status?: number;
  grpcStatus?: string;
  message: string;
}

/** Classifies one Gemini error. Pure; the table in the tests is the specification. */
export function classifyGeminiError(facts: GeminiErrorFacts): ProviderErrorKind {
  const { status, grpcStatus, message } = facts;
  if (
    status === 401 ||
    status === 403 ||
    grpcStatus === 'UNAUTHENTICATED' ||
    grpcStatus === 'PERMISSION_DENIED' ||
    INVALID_KEY_MESSAGE.test(message)
  ) {
    return 'auth';
  }
  if (CONTEXT_OVERFLOW_MESSAGE.test(message)) return 'context-overflow';
  if (status === 429 || grpcStatus === 'RESOURCE_EXHAUSTED') return 'rate-limit';
  if (status === 503 || grpcStatus === 'UNAVAILABLE') return 'overloaded';
  if (status === 404 || grpcStatus === 'NOT_FOUND') return 'not-found';
  if (status === 408 || status === 504 || grpcStatus === 'DEADLINE_EXCEEDED') return 'network';
  if (status !== undefined && status >= 500) return 'server';
  if (status !== undefined && status >= 400) return 'bad-request';
  if (grpcStatus === 'INVALID_ARGUMENT' || grpcStatus === 'FAILED_PRECONDITION') return 'bad-request';
  return 'server';
}

/** Options for `mapGeminiError`. */
export interface MapGeminiErrorOptions {
  /** A secret (the API key) that must never appear in an error message. */
  secret?: string;
  /**
   * Response headers, when the caller has them, for a `retry-after` header. The SDK's `ApiError` keeps
   * none, so in practice the delay comes from the body's RetryInfo, which is where Google puts it.
   */
  headers?: { get(name: string): string | null };
}

/** Any error thrown by the SDK (or while reading its stream) as a `ProviderError`. */
export function mapGeminiError(error: unknown, options: MapGeminiErrorOptions = {}): ProviderError {
  const api = 'gemini';
  if (error instanceof ProviderError) return error;
  const clean = (message: string): string => truncateMessage(scrubSecret(message, options.secret));
  if (error instanceof Error && error.name === 'AbortError')
    return new ProviderError({ api, kind: 'aborted', message: 'The request was cancelled.', cause: error });
  if (error instanceof ApiError) {
    const body = errorBodyOf(error.message);
    const facts: GeminiErrorFacts = {
      status: error.status,
      ...(typeof body.status === 'string' && body.status !== '' ? { grpcStatus: body.status } : {}),
      message: typeof body.message === 'string' && body.message !== '' ? body.message : error.message,
    };
    const retryAfterMs =
      retryDelayOf(body.details) ??
      (options.headers ? parseRetryAfter((name) => options.headers?.get(name)) : undefined);
    return new ProviderError({
      api,
      kind: classifyGeminiError(facts),
      message: clean(facts.message),
      statusCode: error.status,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      ...(facts.grpcStatus !== undefined ? { code: facts.grpcStatus } : {}),
      cause: error,
    });
  }
  // The SDK's "exception parsing stream chunk" is a malformed stream; anything else ("fetch failed",
  // "terminated", "Incomplete JSON segment at the end") a connection that failed or ended early.
  return mapTransportError(
    error,
    api,
    clean,
    error instanceof Error && /exception parsing stream chunk/i.test(error.message),
  );
}

/** The `error` object of the JSON body embedded in an `ApiError` message; empty when there is none. */
function errorBodyOf(message: string): Record<string, unknown> {
  const start = message.indexOf('{');
  if (start < 0) return {};
  try {
    const parsed: unknown = JSON.parse(message.slice(start));
    if (isRecord(parsed) && isRecord(parsed.error)) return parsed.error;
  } catch {
    // Not JSON: the message is all there is.
  }
  return {};
}

/** RetryInfo's `retryDelay` (a protobuf Duration: "26s", "34.4s") in ms. */
function retryDelayOf(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    if (!isRecord(detail) || typeof detail.retryDelay !== 'string') continue;
    const match = /^(\d+(?:\.\d+)?)s$/.exec(detail.retryDelay.trim());
    if (match?.[1] !== undefined) return Math.round(Number(match[1]) * 1000);
  }
  return undefined;
}
