/**
 * Model ids the providers publish (each definition's `knownModels`), for catching typos (`gpt-4o-mni`)
 * when a model is chosen. The context catalogue matches families by prefix, so it cannot tell a typo from a new model; this list can, and
 * an id not on it is still used as typed (new models appear all the time), with a warning.
 */
import { isProvider, providerList, providerSettings } from '../core/config/index.js';
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
 * A one-line warning for a model id the provider is not known to publish, with the closest known id;
 * undefined when the id is known (or the endpoint is a custom one, where any local model name goes).
 */
export function unknownModelWarning(
  provider: string,
  model: string,
  customEndpoint: boolean,
): string | undefined {
  const known = knownModelsOf(provider);
  if (!known || customEndpoint) return undefined;
  const bare = model.replace(/^models\//, '');
  // Dated snapshots (gpt-4o-2024-08-06, claude-sonnet-4-5-20250929) of a known id are fine.
  if (known.some((id) => bare === id || bare.startsWith(`${id}-20`) || bare.startsWith(`${id}-0`)))
    return undefined;
  const suggestion = closestMatch(bare, known) ?? closestByPrefix(bare, known);
  return `'${model}' is not a known ${provider} model${suggestion ? `; did you mean '${suggestion}'?` : ` (known: ${known.slice(0, 4).join(', ')}, …)`} It is used as typed.`;
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
