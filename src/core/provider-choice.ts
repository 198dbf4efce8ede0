/** Validating a person's choice of provider, API, model and base URL, and folding it into the config. */
import {
  AUTH_MODES,
  type AuthMode,
  authModeOf,
  CHATGPT_DEFAULT_MODEL,
  type CodyConfig,
  DEFAULT_MODELS,
  PRESET_PROVIDERS,
  PROVIDER_APIS,
  PROVIDERS,
  type Provider,
  toWireApi,
} from './config.js';
import { UsageError } from './errors.js';

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
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,199}$/;

/** Which provider a bare model id obviously belongs to (router-prefixed ids like `anthropic/…` are exempt). */
function ownerOf(model: string): Provider | undefined {
  if (model.includes('/') && !model.startsWith('models/')) return undefined;
  const bare = model.replace(/^models\//, '');
  if (/^(gpt-|o\d(-|$)|chatgpt-)/.test(bare)) return 'openai';
  if (/^claude-/.test(bare)) return 'anthropic';
  if (/^(gemini-|gemma-)/.test(bare)) return 'google';
  return undefined;
}

/**
 * The config with the choice folded in. `chosenAt` (set-provider, `cody new --provider`, `/model`) is
 * recorded as `selectedAt`: a choice made after a conversation last ran applies to its next turn too
 * (see resolve-selection.ts).
 */
export function applyProviderChoice(config: CodyConfig, choice: ProviderChoice, chosenAt?: Date): CodyConfig {
  const provider = parseProvider(choice.provider ?? config.provider ?? 'openai');
  const switching = provider !== (config.provider ?? 'openai');
  let auth = choice.auth === undefined ? authModeOf(config, provider) : parseAuth(provider, choice.auth);
  // A sign-in this command did not ask for, and that cannot serve the API it asks for: back to the key.
  if (auth === 'chatgpt' && choice.auth === undefined && !servedBySignIn(choice.api)) auth = undefined;
  const authChanged = auth !== authModeOf(config, provider);
  let apiName = choice.api ?? (switching ? undefined : config.api) ?? PROVIDER_APIS[provider][0] ?? '';
  if (auth === 'chatgpt') {
    if (!servedBySignIn(choice.api)) {
      throw new UsageError(
        "The ChatGPT sign-in works only with the Responses API (--api responses); use '--auth key' for another API.",
      );
    }
    apiName = 'responses';
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
    const preset = (PRESET_PROVIDERS as readonly string[]).includes(provider);
    if (owner && owner !== provider && !preset && !(provider === 'openai' && baseUrl)) {
      throw new UsageError(`Model '${choice.model}' belongs to ${owner}, not ${provider}.`, {
        hint: 'choose-provider',
        hintSubject: owner,
        hintModel: choice.model,
      });
    }
  } else if (auth === 'chatgpt' && authChanged) {
    model = CHATGPT_DEFAULT_MODEL;
  } else if (model === undefined || (switching && ownerOf(model) !== provider)) {
    model = DEFAULT_MODELS[provider];
  }

  const baseUrls = { ...(config.baseUrls ?? {}) };
  // A new sign-in never inherits an endpoint chosen for another credential (a token must not reach it).
  if (authChanged && choice.baseUrl === undefined) delete baseUrls[provider];
  if (choice.baseUrl !== undefined) {
    if (choice.baseUrl === '') delete baseUrls[provider];
    else baseUrls[provider] = parseBaseUrl(choice.baseUrl);
  }
  const next: CodyConfig = { ...config, provider, api: apiName, model: model ?? DEFAULT_MODELS[provider] };
  if (chosenAt) next.selectedAt = chosenAt.toISOString();
  if (Object.keys(baseUrls).length > 0) next.baseUrls = baseUrls;
  else delete next.baseUrls;
  const authModes = { ...(config.auth ?? {}) };
  if (provider === 'openai' || provider === 'anthropic') {
    if (auth === undefined) delete authModes[provider];
    else Object.assign(authModes, { [provider]: auth });
  }
  if (Object.keys(authModes).length > 0) next.auth = authModes;
  else delete next.auth;
  return next;
}

/** Whether the ChatGPT sign-in can serve this `--api` (absent: it picks the Responses API itself). */
function servedBySignIn(api: string | undefined): boolean {
  return api === undefined || api === 'responses' || api === 'openai-responses';
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
  const provider = after.provider ?? 'openai';
  const was = authModeOf(before, provider);
  return was !== undefined && authModeOf(after, provider) === undefined ? was : undefined;
}

function parseAuth(provider: Provider, text: string): AuthMode | undefined {
  const mode = text.toLowerCase();
  if (mode === 'key' || mode === '') return undefined;
  if (mode === AUTH_MODES.openai && provider === 'openai') return AUTH_MODES.openai;
  if (mode === AUTH_MODES.anthropic && provider === 'anthropic') return AUTH_MODES.anthropic;
  if (mode === AUTH_MODES.openai || mode === AUTH_MODES.anthropic) {
    const owner = mode === AUTH_MODES.openai ? 'openai' : 'anthropic';
    throw new UsageError(`--auth ${mode} signs in to ${owner}, not ${provider}.`, {
      hint: 'choose-provider',
      hintSubject: owner,
    });
  }
  throw new UsageError(`Unknown --auth '${text}'. Choose chatgpt (openai), claude (anthropic) or key.`);
}

function parseProvider(text: string): Provider {
  const found = PROVIDERS.find((provider) => provider === text.toLowerCase());
  if (!found) throw new UsageError(`Unknown provider '${text}'. Choose one of: ${PROVIDERS.join(', ')}.`);
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
