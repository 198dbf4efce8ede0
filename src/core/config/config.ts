/**
 * `$CODY_HOME/config.json`: which provider, API and model the next turn runs with, per-provider base URLs,
 * per-model context-window overrides, and the compaction, retry and tool-output settings.
 * Read with zod (lenient about unknown keys), written atomically (temp file + rename, mode 0600).
 */
import { rename, writeFile } from 'node:fs/promises';
import type { z } from 'zod';
import type { WireApi } from '../../protocol/index.js';
import {
  apisOfProvider,
  definitionOf,
  definitions,
  ownProviderOf,
  presetOf,
  type ProviderDefinition,
  type ProviderPreset,
} from '../../providers/lookup.js';
import type { configSchema } from './config-schema.js';
import { CodyError, errorMessage, StorageError, UsageError } from '../errors.js';

export { errorMessage, isErrno } from '../errors.js';
import { quickCheckedConfig } from './config-quick-check.js';
import { forbiddenKeyPath, readConfigText } from './read-config-file.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';

import { isProvider, providerList, type Provider } from './provider-names.js';

export { isProvider, providerList, type Provider };
export { isWireApi, modelEntries, priceEntries, wireApis } from '../../providers/lookup.js';

/** A subscription sign-in's `--auth` value (`chatgpt`, `claude`), as the provider's definition names it. */
export type AuthMode = string;

/** A provider's settings from the registry; a usage error for a name it does not know. */
export function providerSettings(provider: string): ProviderPreset {
  const preset = presetOf(provider);
  if (!preset) {
    throw new UsageError(`Unknown provider '${provider}'. Choose one of: ${providerList().join(', ')}.`);
  }
  return preset;
}

/** Whether the provider is a preset: a server reached over another vendor's API (OpenRouter, Ollama, …). */
export function isPresetProvider(provider: string): boolean {
  return presetOf(provider)?.preset === true;
}

/** The API names a person types for a provider (`chat`, `responses`), its default first. */
export function apiNamesOf(provider: string): string[] {
  return apisOfProvider(provider).map((definition) => definition.apiName);
}

/** Whether the provider's sign-in can serve `api` (ChatGPT's serves only the Responses API). */
export function signInServes(provider: string, api: WireApi): boolean {
  const apis = presetOf(provider)?.signIn?.apis;
  return apis === undefined || apis.includes(api);
}

/** How the API lists its server's models (`cody models`); undefined when it has no such list. */
export function listsModels(api: WireApi): ProviderDefinition['listModels'] {
  return definitionOf(api)?.listModels;
}

/** The providers whose API lists its server's models. */
export function providersListingModels(): string[] {
  return providerList().filter((provider) =>
    apisOfProvider(provider).some((definition) => definition.listModels !== undefined),
  );
}

/** Every API name a person may type with `--api`, in registry order. */
export function allApiNames(): string[] {
  return definitions().map((definition) => definition.apiName);
}

/** The `--auth` values of the providers' sign-ins. */
export function signInModes(): string[] {
  return providerList().flatMap((provider) => presetOf(provider)?.signIn?.mode ?? []);
}

/** The model used when a provider is chosen without `--model`. */
export function defaultModelOf(provider: string): string {
  return providerSettings(provider).defaultModel;
}

/** The provider when config names none. */
export const DEFAULT_PROVIDER = 'openai';

/** Default compaction threshold: compact at 80% of the window, leaving room for the reply and summary. */
export const DEFAULT_COMPACT_THRESHOLD = 0.8;
/** Tool outputs longer than this many tokens are truncated (head + tail) when recorded. */
export const DEFAULT_TOOL_OUTPUT_TOKENS = 10_000;

export type CodyConfig = z.infer<typeof configSchema>;

/** What a turn runs with, fully resolved. */
export interface Selection {
  provider: Provider;
  /** The API name a person types (`chat`, `responses`, `messages`, `gemini`). */
  apiName: string;
  api: WireApi;
  model: string;
  baseUrl?: string;
  /** A subscription sign-in chosen with `--auth` (ChatGPT via Codex, Claude via Claude Code). */
  auth?: AuthMode;
}

/** The wire API for an API name a person types (`chat`), or for a wire API id (`openai-chat`) the provider serves. */
export function toWireApi(provider: Provider, apiName: string): WireApi {
  providerSettings(provider);
  const apis = apisOfProvider(provider);
  const found = apis.find((definition) => definition.api === apiName || definition.apiName === apiName);
  if (found) return found.api;
  throw new UsageError(
    `Provider '${provider}' has no API '${apiName}'. Choose one of: ${apis.map((definition) => definition.apiName).join(', ')}.`,
  );
}

/** The provider whose own API `api` is (`openai-chat` → `openai`). */
export function providerOfApi(api: WireApi): Provider {
  const own = ownProviderOf(api);
  if (!own) throw new Error(`unknown api ${api}`);
  return own.name;
}

/** The API name a person types for a wire API id (`openai-chat` → `chat`). */
export function apiNameOf(api: WireApi): string {
  const definition = definitionOf(api);
  if (!definition) throw new Error(`unknown api ${api}`);
  return definition.apiName;
}

export function resolveSelection(config: CodyConfig): Selection {
  const provider = config.provider ?? DEFAULT_PROVIDER;
  const apiName = config.api ?? apiNamesOf(provider)[0] ?? 'chat';
  const api = toWireApi(provider, apiName);
  const model = config.model ?? defaultModelOf(provider);
  const baseUrl = config.baseUrls?.[provider];
  const auth = authModeOf(config, provider);
  return { provider, apiName, api, model, ...(baseUrl ? { baseUrl } : {}), ...(auth ? { auth } : {}) };
}

/** The sign-in chosen for a provider with `--auth`, if any (only one its definition offers counts). */
export function authModeOf(config: CodyConfig, provider: Provider): AuthMode | undefined {
  const chosen =
    config.auth !== undefined && Object.hasOwn(config.auth, provider) ? config.auth[provider] : undefined;
  return chosen !== undefined && presetOf(provider)?.signIn?.mode === chosen ? chosen : undefined;
}

export function retryPolicyOf(config: CodyConfig): RetryPolicy {
  return { ...DEFAULT_RETRY_POLICY, ...stripUndefined(config.retry ?? {}) };
}

export async function loadConfig(configFile: string): Promise<CodyConfig> {
  const text = readConfigText(configFile);
  if (text === undefined) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new CodyError(
      `${configFile} is not valid JSON (${errorMessage(error)}). Fix or delete it.`,
      'usage',
    );
  }
  const forbidden = forbiddenKeyPath(raw);
  if (forbidden !== undefined) {
    throw new CodyError(
      `${configFile}: the key '${forbidden}' is not allowed (it would change how the settings are read). Remove it.`,
      'usage',
    );
  }
  // The shapes Cody itself writes need no zod; anything else is checked by the full schema.
  const quick = quickCheckedConfig(raw);
  if (quick) return quick as CodyConfig;
  const { configSchema } = await import('./config-schema.js');
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? issue.path.join('.') : '';
    throw new CodyError(
      `${configFile}: invalid setting ${where ? `'${where}'` : ''}: ${issue?.message ?? 'invalid'}. Fix or delete it.`,
      'usage',
    );
  }
  return parsed.data;
}

/** Writes the config atomically: a reader never sees half a file. */
export async function saveConfig(configFile: string, config: CodyConfig): Promise<void> {
  const temporary = `${configFile}.${process.pid}-${Date.now().toString(36)}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, configFile);
  } catch (error) {
    throw new StorageError(`Cannot write ${configFile}: ${errorMessage(error)}`, { cause: error });
  }
}

function stripUndefined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
