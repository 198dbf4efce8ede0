/**
 * One OAuth token-endpoint call (`grant_type=refresh_token`), as JSON over HTTPS. Returns the status and
 * the parsed body; never throws for an HTTP error, and never puts the body into an error message (it
 * may carry tokens): a network failure becomes `{ status: 0 }`.
 */
import { isRecord } from '../../protocol/index.js';

export interface TokenResponse {
  /** The HTTP status; 0 when the endpoint could not be reached. */
  status: number;
  body: Record<string, unknown> | undefined;
  /** Why the endpoint could not be reached (status 0 only), without any secret. */
  networkError?: string;
}

const TOKEN_REQUEST_TIMEOUT_MS = 30_000;

export async function postTokenRequest(url: string, body: Record<string, string>): Promise<TokenResponse> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const reason = cause instanceof Error ? cause.message : String(cause);
    return { status: 0, body: undefined, networkError: reason };
  }
  let parsed: unknown;
  try {
    parsed = await response.json();
  } catch {
    parsed = undefined;
  }
  const record = isRecord(parsed) ? parsed : undefined;
  return { status: response.status, body: record };
}

/** The OAuth error code in a token endpoint's error body (`{error: "…"}` or `{error: {code}}`). */
export function tokenErrorCode(body: Record<string, unknown> | undefined): string | undefined {
  if (!body) return undefined;
  const error = body.error;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const code = (error as Record<string, unknown>).code;
    if (typeof code === 'string') return code;
  }
  return typeof body.code === 'string' ? body.code : undefined;
}
