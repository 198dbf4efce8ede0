/**
 * `$CODY_HOME/config.json`: which provider, API and model the next turn runs with, per-provider base URLs,
 * per-model context-window overrides, and the compaction, retry and tool-output settings.
 * Read with zod (lenient about unknown keys), written atomically (temp file + rename, mode 0600).
 */
import { rename, writeFile } from 'node:fs/promises';
import type { z } from 'zod';
import { isWireApi, type WireApi } from '../protocol/index.js';
import type { configSchema } from './config-schema.js';
import { CodyError, errorMessage, StorageError, UsageError } from './errors.js';

export { errorMessage, isErrno } from './errors.js';
import { quickCheckedConfig } from './config-quick-check.js';
import { forbiddenKeyPath, readConfigText } from './read-config-file.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';

import { PROVIDERS, type Provider } from './provider-names.js';

export { PROVIDERS, type Provider };

/** Presets: OpenAI-compatible servers spoken to with Chat Completions (see core/auth/provider-endpoints). */
export const PRESET_PROVIDERS = ['openrouter', 'ollama', 'lmstudio', 'vllm'] as const;

/** The API names a person types, per provider (the first is the default). */
export const PROVIDER_APIS: Record<Provider, readonly string[]> = {
  openai: ['chat', 'responses'],
  anthropic: ['messages'],
  google: ['gemini'],
  openrouter: ['chat'],
  ollama: ['chat'],
  lmstudio: ['chat'],
  vllm: ['chat'],
};

/** Model used when a provider is chosen without `--model`. */
export const DEFAULT_MODELS: Record<Provider, string> = {
  openai: 'gpt-4.1-mini',
  anthropic: 'claude-sonnet-4-6',
  google: 'gemini-2.5-flash',
  openrouter: 'anthropic/claude-sonnet-4.5',
  ollama: 'llama3.1:8b',
  lmstudio: 'qwen2.5-7b-instruct',
  vllm: 'Qwen/Qwen2.5-7B-Instruct',
};

/** Signing in with another program's subscription login, per provider (`--auth`). */
export const AUTH_MODES = { openai: 'chatgpt', anthropic: 'claude' } as const;
export type AuthMode = (typeof AUTH_MODES)[keyof typeof AUTH_MODES];

/** The model a ChatGPT sign-in starts with (Codex's backend serves the GPT-5 Codex family). */
export const CHATGPT_DEFAULT_MODEL = 'gpt-5.1-codex';

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

/** The wire API for an API name a person types (`chat`), or for a wire API id (`openai-chat`) the provider speaks. */
export function toWireApi(provider: Provider, apiName: string): WireApi {
  if (isWireApi(apiName)) {
    const preset = (PRESET_PROVIDERS as readonly string[]).includes(provider);
    if (providerOfApi(apiName) === provider || (preset && apiName === 'openai-chat')) return apiName;
  }
  if (provider === 'openai' && apiName === 'chat') return 'openai-chat';
  if (provider === 'openai' && apiName === 'responses') return 'openai-responses';
  if (provider === 'anthropic' && apiName === 'messages') return 'anthropic-messages';
  if (provider === 'google' && apiName === 'gemini') return 'gemini';
  if (apiName === 'chat' && (PRESET_PROVIDERS as readonly string[]).includes(provider)) return 'openai-chat';
  throw new UsageError(
    `Provider '${provider}' has no API '${apiName}'. Choose one of: ${PROVIDER_APIS[provider].join(', ')}.`,
  );
}

export function providerOfApi(api: WireApi): Provider {
  switch (api) {
    case 'openai-chat':
    case 'openai-responses':
      return 'openai';
    case 'anthropic-messages':
      return 'anthropic';
    case 'gemini':
      return 'google';
    default: {
      const exhaustive: never = api;
      throw new Error(`unknown api ${String(exhaustive)}`);
    }
  }
}

export function apiNameOf(api: WireApi): string {
  switch (api) {
    case 'openai-chat':
      return 'chat';
    case 'openai-responses':
      return 'responses';
    case 'anthropic-messages':
      return 'messages';
    case 'gemini':
      return 'gemini';
    default: {
      const exhaustive: never = api;
      throw new Error(`unknown api ${String(exhaustive)}`);
    }
  }
}

export function resolveSelection(config: CodyConfig): Selection {
  const provider = config.provider ?? 'openai';
  const apiName = config.api ?? PROVIDER_APIS[provider][0] ?? 'chat';
  const api = toWireApi(provider, apiName);
  const model = config.model ?? DEFAULT_MODELS[provider];
  const baseUrl = config.baseUrls?.[provider];
  const auth = authModeOf(config, provider);
  return { provider, apiName, api, model, ...(baseUrl ? { baseUrl } : {}), ...(auth ? { auth } : {}) };
}

/** The sign-in chosen for a provider with `--auth`, if any. */
export function authModeOf(config: CodyConfig, provider: Provider): AuthMode | undefined {
  if (provider === 'openai') return config.auth?.openai;
  if (provider === 'anthropic') return config.auth?.anthropic;
  return undefined;
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
