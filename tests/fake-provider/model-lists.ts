/**
 * The model-list endpoints as each real API answers them: OpenAI's (and every OpenAI-compatible
 * server's) `GET …/models` → `{object: "list", data: [{id, object: "model", …}]}`; Anthropic's
 * `GET /v1/models` (with `anthropic-version`) → `{data: [{type: "model", id, max_input_tokens,
 * max_tokens, …}], has_more, first_id, last_id}`, paged by `limit` and `after_id`; Gemini's
 * `GET /v1beta/models` → `{models: [{name: "models/…", inputTokenLimit, outputTokenLimit,
 * supportedGenerationMethods}], nextPageToken}`, paged by `pageSize` and `pageToken`.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** What a listed model's limits are (Anthropic and Gemini report them). */
export interface FakeModelLimits {
  contextWindow: number;
  maxOutputTokens: number;
}

/** What the fake lists: the ids, their limits, and how many a page holds at most. */
export interface FakeModelList {
  ids: readonly string[];
  limits: Readonly<Record<string, FakeModelLimits>>;
  pageSize: number;
}

export type ListingShape = 'openai' | 'anthropic' | 'gemini';

/** Which API a `GET …/models` speaks, by its path and headers. */
export function listingShapeOf(url: URL, headers: IncomingHttpHeaders): ListingShape {
  if (/\/v1beta\/models$/.test(url.pathname)) return 'gemini';
  if (headers['anthropic-version'] !== undefined && /\/v1\/models$/.test(url.pathname)) return 'anthropic';
  return 'openai';
}

/** The 401 each API answers a listing without valid credentials with. */
export function listingRefusal(shape: ListingShape): unknown {
  switch (shape) {
    case 'anthropic':
      return { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } };
    case 'gemini':
      return {
        error: {
          code: 401,
          message: 'API key not valid. Please pass a valid API key.',
          status: 'UNAUTHENTICATED',
        },
      };
    default:
      return { error: { message: 'invalid key', code: 'invalid_api_key' } };
  }
}

/** The listing's body for one page. */
export function listingBody(shape: ListingShape, url: URL, list: FakeModelList): unknown {
  switch (shape) {
    case 'anthropic':
      return anthropicPage(url, list);
    case 'gemini':
      return geminiPage(url, list);
    default:
      return { object: 'list', data: list.ids.map((id) => ({ id, object: 'model', owned_by: 'fake' })) };
  }
}

function page(list: FakeModelList, start: number, requested: string | null): string[] {
  const size = Math.min(list.pageSize, Number(requested ?? list.pageSize) || list.pageSize);
  return list.ids.slice(start, start + size);
}

function anthropicPage(url: URL, list: FakeModelList): unknown {
  const after = url.searchParams.get('after_id');
  const start = after === null ? 0 : list.ids.indexOf(after) + 1;
  const ids = page(list, start, url.searchParams.get('limit'));
  return {
    data: ids.map((id) => ({
      type: 'model',
      id,
      display_name: id,
      created_at: '2026-01-01T00:00:00Z',
      capabilities: null,
      deprecated_at: null,
      lifecycle: 'active',
      line: null,
      retires_at: null,
      max_input_tokens: list.limits[id]?.contextWindow ?? null,
      max_tokens: list.limits[id]?.maxOutputTokens ?? null,
    })),
    has_more: start + ids.length < list.ids.length,
    first_id: ids[0] ?? null,
    last_id: ids.at(-1) ?? null,
  };
}

function geminiPage(url: URL, list: FakeModelList): unknown {
  const start = Number(url.searchParams.get('pageToken') ?? '0') || 0;
  const ids = page(list, start, url.searchParams.get('pageSize'));
  const next = start + ids.length;
  return {
    models: ids.map((id) => ({
      name: `models/${id}`,
      version: '001',
      displayName: id,
      ...(list.limits[id]
        ? {
            inputTokenLimit: list.limits[id].contextWindow,
            outputTokenLimit: list.limits[id].maxOutputTokens,
          }
        : {}),
      // Embedding models generate no content: a listing that keeps chat models leaves them out.
      supportedGenerationMethods: /embedding/.test(id)
        ? ['embedContent']
        : ['generateContent', 'countTokens'],
    })),
    ...(next < list.ids.length ? { nextPageToken: String(next) } : {}),
  };
}
