/**
 * `GET {base}/models` of an OpenAI-compatible server (Ollama, LM Studio, vLLM, OpenRouter, OpenAI): the
 * model ids it serves, so a person sees the exact names to use.
 */
import { ProviderError, type WireApi } from '../../protocol/index.js';
import type { ListedModel } from '../definition.js';

export interface ListModelsOptions {
  baseUrl: string;
  apiKey?: string;
  headers?: Readonly<Record<string, string>>;
  api?: WireApi;
  timeoutMs?: number;
}

export async function listModels(options: ListModelsOptions): Promise<ListedModel[]> {
  const api = options.api ?? 'openai-chat';
  const url = `${options.baseUrl.replace(/\/+$/, '')}/models`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: {
        accept: 'application/json',
        ...(options.headers ?? {}),
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    throw new ProviderError({
      api,
      kind: 'network',
      message: `cannot reach ${url}: ${cause instanceof Error ? cause.message : String(cause)}`,
    });
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new ProviderError({
      api,
      kind: response.status === 401 || response.status === 403 ? 'auth' : 'server',
      statusCode: response.status,
      message: `GET ${url} answered HTTP ${response.status}`,
    });
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ProviderError({ api, kind: 'invalid-stream', message: `GET ${url} did not answer JSON` });
  }
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) {
    throw new ProviderError({ api, kind: 'invalid-stream', message: `GET ${url} did not list models` });
  }
  return data
    .map((entry: unknown) =>
      typeof entry === 'object' && entry !== null ? (entry as { id?: unknown }).id : undefined,
    )
    .filter((id): id is string => typeof id === 'string')
    .sort((a, b) => a.localeCompare(b))
    .map((id) => ({ id }));
}

/** A failed listing through an SDK as a ProviderError: refused credentials, a server error, or no answer. */
export function listingError(api: WireApi, url: string, error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  const status =
    typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  if (typeof status === 'number') {
    return new ProviderError({
      api,
      kind: status === 401 || status === 403 ? 'auth' : 'server',
      statusCode: status,
      message: `listing models at ${url} answered HTTP ${status}`,
    });
  }
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return new ProviderError({
    api,
    kind: 'network',
    message: `cannot list models at ${url}: ${cause instanceof Error ? cause.message : String(cause)}`,
  });
}
