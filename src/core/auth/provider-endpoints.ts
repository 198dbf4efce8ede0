/**
 * Per provider (the three APIs' own and the OpenAI-compatible presets): where its key comes from, its
 * endpoint variable and default, whether it needs a key at all, and the headers it wants on every request.
 */
import { API_KEY_VARIABLES, BASE_URL_VARIABLES, DEFAULT_BASE_URLS } from '../../providers/index.js';
import type { Provider } from '../config.js';

export interface ProviderEndpoint {
  /** Variables holding the key, the first one set wins. */
  keyVariables: readonly string[];
  baseUrlVariable: string;
  defaultBaseUrl: string;
  /** Local servers answer without a key; the hosted APIs refuse. */
  needsKey: boolean;
  /** Sent with every request. */
  headers?: Readonly<Record<string, string>>;
}

/** OpenRouter's optional app attribution (https://openrouter.ai/docs/api-reference/overview#headers). */
export const OPENROUTER_HEADERS = { 'HTTP-Referer': 'cody', 'X-Title': 'Cody' } as const;

export const PROVIDER_ENDPOINTS: Record<Provider, ProviderEndpoint> = {
  openai: {
    keyVariables: API_KEY_VARIABLES['openai-chat'],
    baseUrlVariable: BASE_URL_VARIABLES['openai-chat'],
    defaultBaseUrl: DEFAULT_BASE_URLS['openai-chat'],
    needsKey: true,
  },
  anthropic: {
    keyVariables: API_KEY_VARIABLES['anthropic-messages'],
    baseUrlVariable: BASE_URL_VARIABLES['anthropic-messages'],
    defaultBaseUrl: DEFAULT_BASE_URLS['anthropic-messages'],
    needsKey: true,
  },
  google: {
    keyVariables: API_KEY_VARIABLES.gemini,
    baseUrlVariable: BASE_URL_VARIABLES.gemini,
    defaultBaseUrl: DEFAULT_BASE_URLS.gemini,
    needsKey: true,
  },
  openrouter: {
    keyVariables: ['OPENROUTER_API_KEY'],
    baseUrlVariable: 'OPENROUTER_BASE_URL',
    defaultBaseUrl: 'https://openrouter.ai/api/v1',
    needsKey: true,
    headers: OPENROUTER_HEADERS,
  },
  ollama: {
    keyVariables: ['OLLAMA_API_KEY'],
    baseUrlVariable: 'OLLAMA_BASE_URL',
    defaultBaseUrl: 'http://localhost:11434/v1',
    needsKey: false,
  },
  lmstudio: {
    keyVariables: ['LMSTUDIO_API_KEY'],
    baseUrlVariable: 'LMSTUDIO_BASE_URL',
    defaultBaseUrl: 'http://localhost:1234/v1',
    needsKey: false,
  },
  vllm: {
    keyVariables: ['VLLM_API_KEY'],
    baseUrlVariable: 'VLLM_BASE_URL',
    defaultBaseUrl: 'http://localhost:8000/v1',
    needsKey: false,
  },
};

type Env = Readonly<Record<string, string | undefined>>;

function firstSet(values: ReadonlyArray<string | undefined>): string | undefined {
  return values.map((value) => value?.trim() ?? '').find((value) => value !== '');
}

/** The provider's key from its variables, with the variable's name. */
export function keyFromEnvironment(
  provider: Provider,
  env: Env,
): { key: string; variable: string } | undefined {
  for (const variable of PROVIDER_ENDPOINTS[provider].keyVariables) {
    const key = firstSet([env[variable]]);
    if (key !== undefined) return { key, variable };
  }
  return undefined;
}

/** The endpoint: the config's base URL, then the provider's variable, then its default. */
export function endpointOf(provider: Provider, configured: string | undefined, env: Env): string {
  const endpoint = PROVIDER_ENDPOINTS[provider];
  return (firstSet([configured, env[endpoint.baseUrlVariable]]) ?? endpoint.defaultBaseUrl).replace(
    /\/+$/,
    '',
  );
}
