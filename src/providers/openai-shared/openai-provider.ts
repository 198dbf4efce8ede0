/**
 * The `openai` provider and OpenAI's model families, shared by the two OpenAI wire APIs (Chat Completions
 * lists them first, so it is the provider's default API; Responses serves the same provider).
 */
import type { CredentialCheckRequest, ModelEntry, PriceEntry, ProviderPreset } from '../definition.js';
import { bearerKeyHeader, checkWithGet } from '../shared/check-credential.js';

/** Listing models: the cheapest request an OpenAI-compatible key can be checked with. */
export function checkByListingModels(request: CredentialCheckRequest) {
  return checkWithGet(request, 'models', bearerKeyHeader(request));
}

export const OPENAI_PROVIDER: ProviderPreset = {
  name: 'openai',
  defaultModel: 'gpt-4.1-mini',
  keyVariables: ['OPENAI_API_KEY'],
  baseUrlVariable: 'OPENAI_BASE_URL',
  defaultBaseUrl: 'https://api.openai.com/v1',
  needsKey: true,
  storesKey: true,
  ownsModels: /^(gpt-|o\d(-|$)|chatgpt-)/,
  knownModels: [
    'gpt-5',
    'gpt-5-mini',
    'gpt-5-nano',
    'gpt-5-codex',
    'gpt-5-chat-latest',
    'gpt-4.1',
    'gpt-4.1-mini',
    'gpt-4.1-nano',
    'gpt-4o',
    'gpt-4o-mini',
    'o1',
    'o1-mini',
    'o3',
    'o3-mini',
    'o4-mini',
  ],
  checkCredential: checkByListingModels,
  // Codex's backend serves the GPT-5 Codex family over the Responses API only.
  signIn: {
    mode: 'chatgpt',
    label: 'ChatGPT (from Codex)',
    apis: ['openai-responses'],
    defaultModel: 'gpt-5.1-codex',
  },
};

/** Figures from OpenAI's published model pages; most specific first. */
export const OPENAI_MODELS: readonly ModelEntry[] = [
  {
    pattern: /^gpt-5(\.\d+)?-codex/,
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    reasoning: true,
    effort: true,
  },
  { pattern: /^gpt-5(\.\d+)?-chat/, contextWindow: 128_000, maxOutputTokens: 16_384 },
  { pattern: /^gpt-5/, contextWindow: 400_000, maxOutputTokens: 128_000, reasoning: true, effort: true },
  { pattern: /^gpt-4\.1/, contextWindow: 1_047_576, maxOutputTokens: 32_768 },
  { pattern: /^gpt-4o/, contextWindow: 128_000, maxOutputTokens: 16_384 },
  { pattern: /^gpt-4-turbo/, contextWindow: 128_000, maxOutputTokens: 4_096 },
  { pattern: /^gpt-4(-\d|$)/, contextWindow: 8_192, maxOutputTokens: 8_192, noImages: true },
  { pattern: /^gpt-3\.5-turbo/, contextWindow: 16_385, maxOutputTokens: 4_096, noImages: true },
  {
    pattern: /^o1-mini/,
    contextWindow: 128_000,
    maxOutputTokens: 65_536,
    reasoning: true,
    noImages: true,
  },
  {
    pattern: /^o3-mini/,
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
    reasoning: true,
    effort: true,
    noImages: true,
  },
  {
    pattern: /^o(1|3|4)(-|$)/,
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
    reasoning: true,
    effort: true,
  },
];

/** USD per million tokens, from OpenAI's price page. */
export const OPENAI_PRICES: readonly PriceEntry[] = [
  { pattern: /^gpt-4\.1-nano/, input: 0.1, cachedInput: 0.025, output: 0.4 },
  { pattern: /^gpt-4\.1-mini/, input: 0.4, cachedInput: 0.1, output: 1.6 },
  { pattern: /^gpt-4\.1/, input: 2, cachedInput: 0.5, output: 8 },
  { pattern: /^gpt-4o-mini/, input: 0.15, cachedInput: 0.075, output: 0.6 },
  { pattern: /^gpt-4o/, input: 2.5, cachedInput: 1.25, output: 10 },
  { pattern: /^o4-mini/, input: 1.1, cachedInput: 0.275, output: 4.4 },
];
