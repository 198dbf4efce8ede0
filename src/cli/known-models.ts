/**
 * Model ids the providers publish (each definition's `knownModels`), for catching typos (`gpt-4o-mni`)
 * when a model is chosen. The context catalogue matches families by prefix, so it cannot tell a typo from a new model; this list can, and
 * an id not on it is still used as typed (new models appear all the time), with a warning.
 */
import { isProvider, providerList, providerSettings, type Selection } from '../core/index.js';
import { cachedModelList, canListModels, providerModelList } from '../core/index.js';
import { closestMatch } from './suggest.js';

/** The model ids the provider is known to publish (its definition's `knownModels`). */
function knownModelsOf(provider: string): readonly string[] | undefined {
  return isProvider(provider) ? providerSettings(provider).knownModels : undefined;
}

/** Every known model id of every provider, once, in registry order. */
export function knownModelIds(): string[] {
  return [...new Set(providerList().flatMap((provider) => knownModelsOf(provider) ?? []))];
}

/**
 * A one-line warning for a model id neither the catalogue's known ids nor the provider's own list
 * (`listed`: its cached `cody models` list, when there is one) has, naming the closest id that exists (the
 * list's, else the known ones); undefined when the id is known or listed (or the endpoint is a custom one
 * whose list Cody has not read, where any local model name goes).
 */
export function unknownModelWarning(
  provider: string,
  model: string,
  customEndpoint: boolean,
  listed?: readonly string[],
): string | undefined {
  const known = knownModelsOf(provider);
  if ((!known || customEndpoint) && listed === undefined) return undefined;
  const bare = model.replace(/^models\//, '');
  // Dated snapshots (gpt-4o-2024-08-06, claude-sonnet-4-5-20250929) of a known id are fine.
  const isKnown = (ids: readonly string[]): boolean =>
    ids.some((id) => bare === id || bare.startsWith(`${id}-20`) || bare.startsWith(`${id}-0`));
  if (!customEndpoint && isKnown(known ?? [])) return undefined;
  if (listed?.includes(bare)) return undefined;
  const candidates = listed !== undefined && listed.length > 0 ? listed : (known ?? []);
  const suggestion = closestMatch(bare, candidates) ?? closestByPrefix(bare, candidates);
  const where = listed !== undefined ? `in ${provider}'s model list` : `a known ${provider} model`;
  return `'${model}' is not ${where}${suggestion ? `; did you mean '${suggestion}'?` : ` (known: ${candidates.slice(0, 4).join(', ')}, …)`} It is used as typed.`;
}

/** Whether the model id is one the catalogue knows for the provider (so no list need be asked). */
export function isKnownModelId(provider: string, model: string): boolean {
  return unknownModelWarning(provider, model, false) === undefined;
}

/** How long the typo check waits for a provider's list it has not cached. */
const LIST_TIMEOUT_MS = 5_000;

/**
 * The ids of the provider's own list, for a model the catalogue does not know (else nothing is asked):
 * the list cached less than a day ago, else (when `fetch`) asked for and cached; undefined when there is
 * no list or it cannot be had (offline, no key), so the warning falls back to the known ids.
 */
export async function listedModelIds(
  home: string,
  selection: Selection,
  env: Readonly<Record<string, string | undefined>>,
  fetch: boolean,
): Promise<string[] | undefined> {
  if (!canListModels(selection)) return undefined;
  if (selection.baseUrl === undefined && isKnownModelId(selection.provider, selection.model))
    return undefined;
  const cached = cachedModelList(home, selection);
  if (cached || !fetch) return cached?.map((model) => model.id);
  try {
    const { models } = await providerModelList({ home, selection, env, timeoutMs: LIST_TIMEOUT_MS });
    return models.map((model) => model.id);
  } catch {
    return undefined;
  }
}

/**
 * The typo check of a model just chosen (`cody new`, `cody set-provider`): the provider's list asked for
 * when the catalogue does not know the id (`listedModelIds`), then the warning against it (undefined when
 * the id is fine), and that list for callers that look the id up again.
 */
export async function chosenModelCheck(
  home: string,
  selection: Selection,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ warning: string | undefined; listed: string[] | undefined }> {
  const listed = await listedModelIds(home, selection, env, true);
  const warning = unknownModelWarning(
    selection.provider,
    selection.model,
    selection.baseUrl !== undefined,
    listed,
  );
  return { warning, listed };
}

function closestByPrefix(model: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestLength = 0;
  for (const id of known) {
    let length = 0;
    while (length < id.length && id[length] === model[length]) length += 1;
    if (length > bestLength && length >= Math.min(id.length, 6)) {
      best = id;
      bestLength = length;
    }
  }
  return best;
}
