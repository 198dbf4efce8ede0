/**
 * Where each API's key and endpoint come from: `options.env` only (never `process.env` behind the
 * caller's back), the config's base URL first. One table, used by every client and by core's hints.
 */
import type { ClientOptions, WireApi } from '../../protocol/index.js';

/** The environment variable holding each API's key (the first one set wins). */
export const API_KEY_VARIABLES: Record<WireApi, readonly string[]> = {
  'openai-chat': ['OPENAI_API_KEY'],
  'openai-responses': ['OPENAI_API_KEY'],
  'anthropic-messages': ['ANTHROPIC_API_KEY'],
  gemini: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
};

/** The environment variable overriding each API's endpoint. */
export const BASE_URL_VARIABLES: Record<WireApi, string> = {
  'openai-chat': 'OPENAI_BASE_URL',
  'openai-responses': 'OPENAI_BASE_URL',
  'anthropic-messages': 'ANTHROPIC_BASE_URL',
  gemini: 'GOOGLE_GEMINI_BASE_URL',
};

/** Each SDK's own default endpoint, spelled out so an SDK never falls back to reading `process.env`. */
export const DEFAULT_BASE_URLS: Record<WireApi, string> = {
  'openai-chat': 'https://api.openai.com/v1',
  'openai-responses': 'https://api.openai.com/v1',
  'anthropic-messages': 'https://api.anthropic.com',
  gemini: 'https://generativelanguage.googleapis.com/',
};

function firstSet(values: ReadonlyArray<string | undefined>): string | undefined {
  return values.map((value) => value?.trim() ?? '').find((value) => value !== '');
}

/** The endpoint to call: `options.baseUrl` (config), then the API's variable, then its default. */
export function resolveBaseUrl(options: Pick<ClientOptions, 'api' | 'baseUrl' | 'env'>): string {
  return (
    firstSet([options.baseUrl, options.env[BASE_URL_VARIABLES[options.api]]]) ??
    DEFAULT_BASE_URLS[options.api]
  );
}

/** The API's key from the first of its variables that is set (blank counts as unset). */
export function resolveApiKey(options: Pick<ClientOptions, 'api' | 'env'>): string | undefined {
  return firstSet(API_KEY_VARIABLES[options.api].map((name) => options.env[name]));
}
