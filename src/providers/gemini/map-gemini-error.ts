/** @google/genai errors (whose message is the JSON error body) → the one `ProviderError`. */
import { ApiError } from '@google/genai';
import { ProviderError, type ProviderErrorKind } from '../../protocol/index.js';

interface GeminiErrorBody {
  error?: { code?: number; message?: string; status?: string; details?: Array<Record<string, unknown>> };
}

export function classifyGeminiError(
  status: number | undefined,
  grpcStatus: string | undefined,
  message: string,
): ProviderErrorKind {
  if (
    /input token count.*exceeds|exceeds the maximum number of tokens|context (window|length)|too many tokens/i.test(
      message,
    )
  ) {
    return 'context-overflow';
  }
  if (status === 429 || grpcStatus === 'RESOURCE_EXHAUSTED') return 'rate-limit';
  if (
    status === 401 ||
    status === 403 ||
    grpcStatus === 'UNAUTHENTICATED' ||
    grpcStatus === 'PERMISSION_DENIED' ||
    /API key not valid/i.test(message)
  ) {
    return 'auth';
  }
  if (status === 404 || grpcStatus === 'NOT_FOUND') return 'not-found';
  if (status === 503 || grpcStatus === 'UNAVAILABLE') return 'overloaded';
  if (status === 400 || grpcStatus === 'INVALID_ARGUMENT' || grpcStatus === 'FAILED_PRECONDITION')
    return 'bad-request';
  return 'server';
}

/** RetryInfo's `retryDelay` ("13s", "1.5s") in ms. */
function retryDelayOf(body: GeminiErrorBody): number | undefined {
  for (const detail of body.error?.details ?? []) {
    const delay = detail.retryDelay;
    if (typeof delay === 'string') {
      const seconds = Number.parseFloat(delay);
      if (Number.isFinite(seconds)) return Math.round(seconds * 1000);
    }
  }
  return undefined;
}

export function mapGeminiError(error: unknown): ProviderError {
  const api = 'gemini';
  if (error instanceof ProviderError) return error;
  if (error instanceof Error && (error.name === 'AbortError' || /aborted/i.test(error.message))) {
    return new ProviderError({ api, kind: 'aborted', message: 'Request aborted.', cause: error });
  }
  if (error instanceof ApiError) {
    let body: GeminiErrorBody = {};
    try {
      body = JSON.parse(error.message) as GeminiErrorBody;
    } catch {
      body = { error: { message: error.message } };
    }
    const message = body.error?.message ?? error.message;
    const kind = classifyGeminiError(error.status, body.error?.status, message);
    const retryAfterMs = retryDelayOf(body);
    return new ProviderError({
      api,
      kind,
      message,
      statusCode: error.status,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      ...(body.error?.status ? { code: body.error.status } : {}),
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
