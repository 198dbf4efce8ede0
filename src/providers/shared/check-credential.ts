/**
 * One cheap, read-only request that tells whether a credential works (`cody auth status`): listing models
 * (OpenRouter: describing the key, since its model list needs none). Never sends anything else.
 */
export type CredentialCheck =
  { state: 'works' } | { state: 'rejected'; status: number } | { state: 'not-checked'; reason: string };

export interface CheckRequest {
  /** Which request to make. */
  flavour: 'openai-compatible' | 'openrouter' | 'anthropic' | 'google';
  baseUrl: string;
  apiKey?: string;
  bearerToken?: string;
  headers?: Readonly<Record<string, string>>;
  timeoutMs?: number;
}

export async function checkCredential(request: CheckRequest): Promise<CredentialCheck> {
  const base = request.baseUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = { accept: 'application/json', ...(request.headers ?? {}) };
  let url: string;
  switch (request.flavour) {
    case 'openai-compatible':
    case 'openrouter':
      url = `${base}/${request.flavour === 'openrouter' ? 'key' : 'models'}`;
      if (request.apiKey) headers.authorization = `Bearer ${request.apiKey}`;
      break;
    case 'anthropic':
      url = `${base}/v1/models`;
      headers['anthropic-version'] = '2023-06-01';
      if (request.apiKey) headers['x-api-key'] = request.apiKey;
      break;
    case 'google':
      url = `${base}/v1beta/models`;
      if (request.apiKey) headers['x-goog-api-key'] = request.apiKey;
      break;
  }
  if (request.bearerToken) headers.authorization = `Bearer ${request.bearerToken}`;
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(request.timeoutMs ?? 10_000) });
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
