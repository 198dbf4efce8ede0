/**
 * Servers spoken to with Chat Completions besides OpenAI: a router (OpenRouter) and local servers
 * (Ollama, LM Studio, vLLM), and the open-weight model families they serve.
 */
import type { ModelEntry, PriceEntry, ProviderPreset } from '../definition.js';
import { bearerKeyHeader, checkWithGet } from '../shared/check-credential.js';

/** OpenRouter's optional app attribution (https://openrouter.ai/docs/api-reference/overview#headers). */
export const OPENROUTER_HEADERS = { 'HTTP-Referer': 'cody', 'X-Title': 'Cody' } as const;

export const OPENROUTER: ProviderPreset = {
  name: 'openrouter',
  defaultModel: 'anthropic/claude-sonnet-4.5',
  keyVariables: ['OPENROUTER_API_KEY'],
  baseUrlVariable: 'OPENROUTER_BASE_URL',
  defaultBaseUrl: 'https://openrouter.ai/api/v1',
  needsKey: true,
  headers: OPENROUTER_HEADERS,
  preset: true,
  storesKey: true,
  // Its model list needs no key, so the key is checked by describing it.
  checkCredential: (request) => checkWithGet(request, 'key', bearerKeyHeader(request)),
};

/** A local OpenAI-compatible server: answers without a key, nothing cheap to check. */
function localServer(name: string, defaultModel: string, port: number): ProviderPreset {
  const variable = name.toUpperCase();
  return {
    name,
    defaultModel,
    keyVariables: [`${variable}_API_KEY`],
    baseUrlVariable: `${variable}_BASE_URL`,
    defaultBaseUrl: `http://localhost:${port}/v1`,
    needsKey: false,
    preset: true,
  };
}

/**
 * DeepSeek's own API (https://api-docs.deepseek.com/), OpenAI-compatible; its thinking rules are
 * deepseek.ts's. Listing models is the cheapest request a key can be checked with. `deepseek-flash` is
 * DeepSeek's current name for V4.1 Flash (`deepseek-v4-flash` still answers, served by it);
 * `deepseek-chat` and `deepseek-reasoner` were retired on 2026-07-24
 * (https://api-docs.deepseek.com/, "Your First API Call"), so they are no longer offered.
 */
export const DEEPSEEK: ProviderPreset = {
  name: 'deepseek',
  defaultModel: 'deepseek-v4-pro',
  keyVariables: ['DEEPSEEK_API_KEY'],
  baseUrlVariable: 'DEEPSEEK_BASE_URL',
  defaultBaseUrl: 'https://api.deepseek.com',
  needsKey: true,
  preset: true,
  storesKey: true,
  knownModels: ['deepseek-v4-pro', 'deepseek-flash', 'deepseek-v4-flash'],
  checkCredential: (request) => checkWithGet(request, 'models', bearerKeyHeader(request)),
};

/**
 * DeepSeek's models and prices, from https://api-docs.deepseek.com/quick_start/pricing (checked
 * 2026-11-29: `deepseek-flash` is DeepSeek-V4.1-Flash-1017, `deepseek-v4-pro` DeepSeek-V4-Pro-0813): a 1M
 * window and at most 384K output, thinking on by default with `reasoning_effort` low, high or max
 * (deepseek.ts). Flash takes images ("Vision"), Pro does not. The retired `deepseek-chat` (V4 Flash
 * without thinking) and `deepseek-reasoner` (with it) keep their entries for servers that still serve them.
 */
export const DEEPSEEK_MODELS: readonly ModelEntry[] = [
  { pattern: /^deepseek-chat/i, contextWindow: 1_000_000, maxOutputTokens: 384_000, noImages: true },
  {
    pattern: /^deepseek-(v4-pro|reasoner)/i,
    contextWindow: 1_000_000,
    maxOutputTokens: 384_000,
    reasoning: true,
    effort: true,
    noImages: true,
  },
  {
    pattern: /^deepseek-(v4-)?flash/i,
    contextWindow: 1_000_000,
    maxOutputTokens: 384_000,
    reasoning: true,
    effort: true,
  },
];

/**
 * USD per million tokens at DeepSeek's peak rate (cached: cache hits). Peak hours are 01:00-04:00 and
 * 06:00-10:00 UTC on weekdays; off-peak, every other hour, costs half.
 */
export const DEEPSEEK_PRICES: readonly PriceEntry[] = [
  { pattern: /^deepseek-v4-pro/, input: 1.32, cachedInput: 0.044, output: 3.96 },
  { pattern: /^deepseek-((v4-)?flash|chat|reasoner)/, input: 0.3, cachedInput: 0.006, output: 1.2 },
];

export const OLLAMA = localServer('ollama', 'llama3.1:8b', 11434);
export const LMSTUDIO = localServer('lmstudio', 'qwen2.5-7b-instruct', 1234);
export const VLLM = localServer('vllm', 'Qwen/Qwen2.5-7B-Instruct', 8000);

/**
 * Open-weight models as Ollama, LM Studio, vLLM and OpenRouter name them (`llama3.1:8b`,
 * `meta-llama-3.1-8b-instruct`, `Qwen/Qwen2.5-7B-Instruct`): the window each model is published with.
 * A server may run a model with a smaller one (Ollama's num_ctx): then set models.<id>.contextWindow.
 */
export const OPEN_WEIGHT_MODELS: readonly ModelEntry[] = [
  { pattern: /^(meta-)?llama-?3\.[123]([^\d]|$)/i, contextWindow: 131_072, maxOutputTokens: 8_192 },
  { pattern: /^(meta-)?llama-?3([:-]|$)/i, contextWindow: 8_192, maxOutputTokens: 4_096 },
  { pattern: /^(meta-)?llama-?4/i, contextWindow: 1_048_576, maxOutputTokens: 8_192 },
  { pattern: /^qwen3/i, contextWindow: 40_960, maxOutputTokens: 8_192, noImages: true },
  { pattern: /^qwen2\.5/i, contextWindow: 32_768, maxOutputTokens: 8_192, noImages: true },
  { pattern: /^gpt-oss/i, contextWindow: 131_072, maxOutputTokens: 32_768, noImages: true },
  { pattern: /^gemma-?3/i, contextWindow: 131_072, maxOutputTokens: 8_192 },
  { pattern: /^gemma-?2/i, contextWindow: 8_192, maxOutputTokens: 4_096 },
  { pattern: /^mistral-nemo/i, contextWindow: 131_072, maxOutputTokens: 8_192 },
  { pattern: /^(mistral|mixtral)/i, contextWindow: 32_768, maxOutputTokens: 8_192 },
  // R1 as other servers serve it always reasons and takes no effort setting.
  {
    pattern: /^deepseek-r1/i,
    contextWindow: 131_072,
    maxOutputTokens: 32_768,
    reasoning: true,
    noImages: true,
  },
  { pattern: /^deepseek-coder-v2/i, contextWindow: 163_840, maxOutputTokens: 8_192, noImages: true },
  { pattern: /^phi-?4/i, contextWindow: 16_384, maxOutputTokens: 4_096 },
  { pattern: /^codellama/i, contextWindow: 16_384, maxOutputTokens: 4_096, noImages: true },
];
