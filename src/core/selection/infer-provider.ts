/**
 * The provider of a selection that names only its API or model (`{"api": "messages"}` → anthropic), so a
 * front end never falls back to the configured provider for a choice that plainly meant another.
 */
import {
  apiNamesOf,
  isPresetProvider,
  isWireApi,
  providerList,
  providerOfApi,
  type Provider,
} from '../config/index.js';
import { UsageError } from '../errors.js';
import { ownerOf } from './provider-choice.js';

/**
 * The one provider `api` (an API name or wire API id) or else `model` belongs to. Presets
 * (openrouter, ollama…) speak `chat` too but are never guessed: they are named. Throws a 'usage'
 * `CodyError` when neither tells, or when the model plainly belongs to another provider than the API.
 */
export function inferProvider(choice: { api?: string; model?: string }): Provider {
  const { api, model } = choice;
  const owner = model !== undefined ? ownerOf(model) : undefined;
  if (api === undefined) {
    if (model === undefined) throw new UsageError('Name the provider, the API or the model.');
    if (owner === undefined) {
      throw new UsageError(
        `Cannot tell which provider serves model '${model}'; name it ("provider": one of ${providerList().join(', ')}).`,
      );
    }
    return owner;
  }
  const provider = isWireApi(api) ? providerOfApi(api) : firstPartyProviderOf(api);
  if (owner !== undefined && owner !== provider) {
    throw new UsageError(
      `Model '${model}' belongs to ${owner}, not to ${provider} (API '${api}'); name the provider.`,
    );
  }
  return provider;
}

function firstPartyProviderOf(api: string): Provider {
  const firstParty = providerList().filter((provider) => !isPresetProvider(provider));
  const candidates = firstParty.filter((provider) => apiNamesOf(provider).includes(api));
  const [only] = candidates;
  if (only === undefined || candidates.length > 1) {
    throw new UsageError(
      candidates.length > 1
        ? `API '${api}' is spoken by ${candidates.join(', ')}; name the provider.`
        : `Unknown API '${api}'. Name the provider, or an API: ${[...new Set(firstParty.flatMap(apiNamesOf))].join(', ')}.`,
    );
  }
  return only;
}
