/**
 * One cheap, read-only request that tells whether a credential works (`cody auth status`): each
 * provider's definition says which (listing models; OpenRouter: describing the key, since its model list
 * needs none). Never sends anything else.
 */
import type { CredentialCheck, CredentialCheckRequest } from '../definition.js';

export type { CredentialCheck, CredentialCheckRequest };

/**
 * `GET {baseUrl}/{path}` with the request's headers plus `headers` (the key in the provider's header);
 * a signed-in bearer token replaces any key. 401/403 mean refused; anything else unexpected, not checked.
 */
export async function checkWithGet(
  request: CredentialCheckRequest,
  path: string,
  headers: Readonly<Record<string, string>>,
): Promise<CredentialCheck> {
  const url = `${request.baseUrl.replace(/\/+$/, '')}/${path}`;
  const all: Record<string, string> = { accept: 'application/json', ...(request.headers ?? {}), ...headers };
  if (request.bearerToken) all.authorization = `Bearer ${request.bearerToken}`;
  try {
    const response = await fetch(url, {
      headers: all,
      signal: AbortSignal.timeout(request.timeoutMs ?? 10_000),
    });
    await response.body?.cancel().catch(() => undefined);
    if (response.ok) return { state: 'works' };
    if (response.status === 401 || response.status === 403)
      return { state: 'rejected', status: response.status };
    return { state: 'not-checked', reason: `HTTP ${response.status} from ${url}` };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    return {
      state: 'not-checked',
      reason: `offline? ${cause instanceof Error ? cause.message : String(cause)}`,
    };
  }
}

/** The key as an OpenAI-style bearer (`Authorization: Bearer …`), when there is one. */
export function bearerKeyHeader(request: CredentialCheckRequest): Record<string, string> {
  return request.apiKey ? { authorization: `Bearer ${request.apiKey}` } : {};
}
