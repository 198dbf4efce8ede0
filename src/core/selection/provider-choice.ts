/** Validating a person's choice of provider, API, model and base URL, and folding it into the config. */
import {
  type AuthMode,
  apiNamesOf,
  authModeOf,
  type CodyConfig,
  DEFAULT_PROVIDER,
  defaultModelOf,
  isPresetProvider,
  providerList,
  providerSettings,
  type Provider,
  signInServes,
  toWireApi,
} from '../config/index.js';
import { UsageError } from '../errors.js';

export interface ProviderChoice {
  provider?: string;
  api?: string;
  model?: string;
  /** An http(s) URL; the empty string clears the provider's base URL. */
  baseUrl?: string;
  /** `chatgpt` (openai), `claude` (anthropic) or `key` (back to keys). */
  auth?: string;
}

/** Model ids as providers and local servers spell them: `gpt-4o`, `models/gemini-2.5-pro`, `llama3.1:8b`, `openai/gpt-4o`. */
export const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,199}$/;

/** Which provider a bare model id obviously belongs to (router-prefixed ids like `anthropic/…` are exempt). */
export function ownerOf(model: string): Provider | undefined {
  if (model.includes('/') && !model.startsWith('models/')) return undefined;
  const bare = model.replace(/^models\//, '');
  return providerList().find((provider) => providerSettings(provider).ownsModels?.test(bare) === true);
}

/**
 * The config with the choice folded in. `chosenAt` (set-provider, `cody new --provider`, `/model`) is
 * recorded as `selectedAt`: a choice made after a conversation last ran applies to its next turn too
 * (see resolve-selection.ts).
 */
export function applyProviderChoice(config: CodyConfig, choice: ProviderChoice, chosenAt?: Date): CodyConfig {
  const provider = parseProvider(choice.provider ?? config.provider ?? DEFAULT_PROVIDER);
  const switching = provider !== (config.provider ?? DEFAULT_PROVIDER);
  let auth = choice.auth === undefined ? authModeOf(config, provider) : parseAuth(provider, choice.auth);
  // A sign-in this command did not ask for, and that cannot serve the API it asks for: back to the key.
  if (auth !== undefined && choice.auth === undefined && !servedBySignIn(provider, choice.api))
    auth = undefined;
  const authChanged = auth !== authModeOf(config, provider);
  let apiName = choice.api ?? (switching ? undefined : config.api) ?? apiNamesOf(provider)[0] ?? '';
  const signInApi = auth !== undefined ? signInApiName(provider) : undefined;
  if (signInApi !== undefined) {
    if (!servedBySignIn(provider, choice.api)) {
      throw new UsageError(`${signInLimits(provider, signInApi)}; use '--auth key' for another API.`);
    }
    apiName = signInApi;
  }
  toWireApi(provider, apiName);

  let model = choice.model ?? config.model;
  if (choice.model !== undefined) {
    if (!MODEL_ID.test(choice.model)) {
      throw new UsageError(
        `'${choice.model}' is not a valid model id (letters, digits and . _ : / @ + - only).`,
      );
    }
    const owner = ownerOf(choice.model);
    const baseUrl = choice.baseUrl ?? config.baseUrls?.[provider];
    const preset = isPresetProvider(provider);
    // A base URL on a vendor's own provider may point at any server speaking its API.
    if (owner && owner !== provider && !preset && !baseUrl) {
      throw new UsageError(`Model '${choice.model}' belongs to ${owner}, not ${provider}.`, {
        hint: 'choose-provider',
        hintSubject: owner,
        hintModel: choice.model,
      });
    }
  } else if (auth !== undefined && authChanged && providerSettings(provider).signIn?.defaultModel) {
    model = providerSettings(provider).signIn?.defaultModel;
  } else if (model === undefined || (switching && ownerOf(model) !== provider)) {
    model = defaultModelOf(provider);
  }

  const baseUrls = { ...(config.baseUrls ?? {}) };
  // A new sign-in never inherits an endpoint chosen for another credential (a token must not reach it).
  if (authChanged && choice.baseUrl === undefined) delete baseUrls[provider];
  if (choice.baseUrl !== undefined) {
    if (choice.baseUrl === '') delete baseUrls[provider];
    else baseUrls[provider] = parseBaseUrl(choice.baseUrl);
  }
  const next: CodyConfig = { ...config, provider, api: apiName, model: model ?? defaultModelOf(provider) };
  if (chosenAt) next.selectedAt = chosenAt.toISOString();
  if (Object.keys(baseUrls).length > 0) next.baseUrls = baseUrls;
  else delete next.baseUrls;
  const authModes = { ...(config.auth ?? {}) };
  if (providerSettings(provider).signIn !== undefined) {
    if (auth === undefined) delete authModes[provider];
    else Object.assign(authModes, { [provider]: auth });
  }
  if (Object.keys(authModes).length > 0) next.auth = authModes;
  else delete next.auth;
  return next;
}

/** Whether the provider's sign-in can serve this `--api` (absent: it picks its API itself). */
function servedBySignIn(provider: Provider, api: string | undefined): boolean {
  if (api === undefined) return true;
  try {
    return signInServes(provider, toWireApi(provider, api));
  } catch {
    return true; // an API the provider lacks: toWireApi says so below
  }
}

/** The one API name a sign-in limited to one API serves (`responses`); undefined when it serves all. */
function signInApiName(provider: Provider): string | undefined {
  const apis = providerSettings(provider).signIn?.apis;
  return apis?.length === 1
    ? apiNamesOf(provider).find((name) => apis[0] === toWireApi(provider, name))
    : undefined;
}

/** `The ChatGPT sign-in works only with the Responses API (--api responses)`. */
function signInLimits(provider: Provider, apiName: string): string {
  const signIn = providerSettings(provider).signIn;
  const name = (signIn?.label ?? signIn?.mode ?? '').replace(/ \(.*\)$/, '');
  return `The ${name} sign-in works only with the ${apiName[0]?.toUpperCase() ?? ''}${apiName.slice(1)} API (--api ${apiName})`;
}

/**
 * The sign-in a choice switched away from without asking (`--api chat` after `--auth chatgpt`), so the
 * command can say the key is used again; undefined when none was.
 */
export function droppedSignIn(
  before: CodyConfig,
  after: CodyConfig,
  choice: ProviderChoice,
): AuthMode | undefined {
  if (choice.auth !== undefined) return undefined;
  const provider = after.provider ?? DEFAULT_PROVIDER;
  const was = authModeOf(before, provider);
  return was !== undefined && authModeOf(after, provider) === undefined ? was : undefined;
}

function parseAuth(provider: Provider, text: string): AuthMode | undefined {
  const mode = text.toLowerCase();
  if (mode === 'key' || mode === '') return undefined;
  if (providerSettings(provider).signIn?.mode === mode) return mode;
  const owner = providerList().find((name) => providerSettings(name).signIn?.mode === mode);
  if (owner !== undefined) {
    throw new UsageError(`--auth ${mode} signs in to ${owner}, not ${provider}.`, {
      hint: 'choose-provider',
      hintSubject: owner,
    });
  }
  const choices = providerList().flatMap((name) => {
    const signIn = providerSettings(name).signIn;
    return signIn ? [`${signIn.mode} (${name})`] : [];
  });
  throw new UsageError(
    `Unknown --auth '${text}'. Choose ${[...choices, 'key'].join(', ').replace(/, key$/, ' or key')}.`,
  );
}

function parseProvider(text: string): Provider {
  const found = providerList().find((provider) => provider === text.toLowerCase());
  if (!found)
    throw new UsageError(`Unknown provider '${text}'. Choose one of: ${providerList().join(', ')}.`);
  return found;
}

function parseBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`'${text}' is not a valid base URL (expected e.g. http://localhost:11434/v1).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`Base URL must use http or https, not ${url.protocol.replace(':', '')}.`);
  }
  return text.replace(/\/+$/, '');
}
