/**
 * A `fetch` for the SDKs that sends a signed-in bearer token: the current token (and the headers that go
 * with it) on every request, and after a 401 one retry with the token `renew()` gives. When no token can
 * be had, the SDK sees a 401 whose message is the one-line reason, so it surfaces as an auth failure.
 */
import type { BearerCredential } from '../../protocol/index.js';
import { nodeHttpFetch } from './node-http-fetch.js';

type Fetch = typeof fetch;

export interface BearerFetchOptions {
  /**
   * For a refused request (400/401/403), the one line to show instead of the server's text, when the refusal
   * means the token may not be used here (Anthropic refusing Claude sign-ins outside its apps).
   */
  explainRefusal?: (status: number, bodyText: string) => string | undefined;
  /** The transport underneath (default: fetch over node:http). */
  fetch?: Fetch;
}

/** Error code of the synthetic 401 answers, so core does not add "check your key" hints to them. */
export const SIGN_IN_FAILED_CODE = 'signin_failed';
/** The provider refused the sign-in token itself (not expired: not accepted here); an API key works. */
export const SIGN_IN_REFUSED_CODE = 'signin_refused';

export function bearerFetch(bearer: BearerCredential, options: BearerFetchOptions = {}): Fetch {
  const inner = options.fetch ?? nodeHttpFetch;
  return async (input, init) => {
    let token: string;
    try {
      token = await bearer.token();
    } catch (error) {
      return signInFailure(error);
    }
    let response = await inner(input, withBearer(init, token, bearer));
    if (response.status === 401) {
      let renewed: string;
      try {
        renewed = await bearer.renew(token);
      } catch (error) {
        await response.body?.cancel().catch(() => undefined);
        return signInFailure(error);
      }
      await response.body?.cancel().catch(() => undefined);
      response = await inner(input, withBearer(init, renewed, bearer));
    }
    if ([400, 401, 403].includes(response.status) && options.explainRefusal) {
      const text = await response.clone().text();
      const explained = options.explainRefusal(response.status, text);
      if (explained !== undefined) return signInFailure(new Error(explained), 403, SIGN_IN_REFUSED_CODE);
    }
    return response;
  };
}

function withBearer(init: RequestInit | undefined, token: string, bearer: BearerCredential): RequestInit {
  const headers = new Headers(init?.headers);
  headers.delete('x-api-key');
  headers.set('authorization', `Bearer ${token}`);
  for (const [name, value] of Object.entries(bearer.headers?.() ?? {})) headers.set(name, value);
  return { ...init, headers };
}

function signInFailure(error: unknown, status = 401, code = SIGN_IN_FAILED_CODE): Response {
  const message = error instanceof Error ? error.message : String(error);
  const body = { type: 'error', error: { type: code, code, message } };
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
