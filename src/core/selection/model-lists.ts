/**
 * Each provider's own model list (its definition's `listModels`: OpenAI's and OpenAI-compatible servers'
 * `/models`, Anthropic's `/v1/models`, Gemini's `models.list`), cached in `$CODY_HOME/model-lists.json`
 * for a day per provider and configured endpoint. The cache answers three questions without a request:
 * which ids exist (`cody models`, the typo warning), and the limits a provider reports for a model
 * (Gemini's and Anthropic's lists), which win over the built-in catalogue.
 */
import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { type ListedModel, definitionOf } from '../../providers/lookup.js';
import { clientCredentials, endpointOf } from '../auth/index.js';
import type { Selection } from '../config/index.js';
import { UsageError } from '../errors.js';

/** The cache file under `$CODY_HOME`. */
export const MODEL_LIST_FILE = 'model-lists.json';

/** How long a fetched list stands for the provider's: a day. */
export const MODEL_LIST_MAX_AGE_MS = 24 * 60 * 60 * 1000;

const listedSchema = z.object({
  id: z.string(),
  contextWindow: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
});
const cacheSchema = z.record(z.string(), z.object({ fetchedAt: z.number(), models: z.array(listedSchema) }));
type CacheFile = z.infer<typeof cacheSchema>;

/** Which list: the provider, and the endpoint configured for it (a local server's list is its own). */
export interface ListKey {
  provider: string;
  baseUrl?: string | undefined;
}

function keyOf(key: ListKey): string {
  return key.baseUrl ? `${key.provider} ${key.baseUrl}` : key.provider;
}

function readCache(home: string): CacheFile {
  try {
    const parsed = cacheSchema.safeParse(JSON.parse(readFileSync(join(home, MODEL_LIST_FILE), 'utf8')));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** The provider's list as cached less than a day before `now`; undefined when there is none. */
export function cachedModelList(home: string, key: ListKey, now = Date.now()): ListedModel[] | undefined {
  const entry = readCache(home)[keyOf(key)];
  if (!entry || now - entry.fetchedAt > MODEL_LIST_MAX_AGE_MS || entry.fetchedAt > now) return undefined;
  return entry.models.map((model) => ({ ...model }));
}

/** Records a fetched list (atomically: temp file + rename), keeping the other providers' lists. */
export async function saveModelList(
  home: string,
  key: ListKey,
  models: readonly ListedModel[],
  now = Date.now(),
): Promise<void> {
  const file = join(home, MODEL_LIST_FILE);
  const cache = { ...readCache(home), [keyOf(key)]: { fetchedAt: now, models: [...models] } };
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(cache)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}

/** The limits the provider's cached list reports for `model`, if any. */
export function listedLimits(home: string, key: ListKey, model: string): Omit<ListedModel, 'id'> | undefined {
  const bare = model.replace(/^models\//, '');
  const listed = cachedModelList(home, key)?.find((entry) => entry.id === bare);
  if (!listed || (listed.contextWindow === undefined && listed.maxOutputTokens === undefined))
    return undefined;
  return {
    ...(listed.contextWindow !== undefined ? { contextWindow: listed.contextWindow } : {}),
    ...(listed.maxOutputTokens !== undefined ? { maxOutputTokens: listed.maxOutputTokens } : {}),
  };
}

/** What fetching a provider's list needs. */
export interface ModelListQuery {
  home: string;
  selection: Selection;
  env: Readonly<Record<string, string | undefined>>;
  /** Ask the provider even when a list younger than a day is cached. */
  refresh?: boolean;
  timeoutMs?: number;
}

/** Whether the selection's API has a list Cody reads (a ChatGPT sign-in's backend has none). */
export function canListModels(selection: Selection): boolean {
  return definitionOf(selection.api)?.listModels !== undefined && selection.auth !== 'chatgpt';
}

/**
 * The provider's list: the cached one when younger than a day (unless `refresh`), else fetched with the
 * selection's credentials and cached. Throws a UsageError when the API has no list, and the provider's
 * error when the request fails.
 */
export async function providerModelList(
  query: ModelListQuery,
): Promise<{ models: ListedModel[]; cached: boolean }> {
  const { selection } = query;
  const list = definitionOf(selection.api)?.listModels;
  if (!list || !canListModels(selection))
    throw new UsageError(`${selection.provider} (${selection.apiName}) has no model list Cody can read.`);
  const key = { provider: selection.provider, baseUrl: selection.baseUrl };
  const cached = query.refresh ? undefined : cachedModelList(query.home, key);
  if (cached) return { models: cached, cached: true };
  const credentials = await clientCredentials(selection, query.env, query.home);
  const baseUrl = credentials.baseUrl ?? endpointOf(selection.provider, selection.baseUrl, query.env);
  if (baseUrl === undefined) throw new UsageError(`${selection.provider} has no endpoint to list models at.`);
  const models = await list({
    baseUrl,
    ...(credentials.apiKey ? { apiKey: credentials.apiKey } : {}),
    ...(credentials.headers ? { headers: credentials.headers } : {}),
    ...(query.timeoutMs !== undefined ? { timeoutMs: query.timeoutMs } : {}),
  });
  await saveModelList(query.home, key, models);
  return { models, cached: false };
}
