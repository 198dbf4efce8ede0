/**
 * Context window and maximum output of current model families. Drives the auto-compact limit.
 * Overridable per model in config (`models.<model>.contextWindow` / `.maxOutputTokens`).
 */
import type { ReasoningLevel } from '../protocol/index.js';
import type { CodyConfig } from './config.js';

export interface ModelLimits {
  /** Tokens the model accepts in one request (input + output). */
  contextWindow: number;
  /** Most tokens the model may write in one response. */
  maxOutputTokens: number;
  /** Where the figures came from. */
  source: 'catalog' | 'config' | 'default';
}

interface CatalogEntry {
  /** Matches the model id (after any `vendor/` prefix from routers such as OpenRouter is removed). */
  pattern: RegExp;
  contextWindow: number;
  maxOutputTokens: number;
  /** The model reasons (OpenAI: accepts `reasoning.encrypted_content`). Default false. */
  reasoning?: true;
  /**
   * The model takes its API's reasoning control (Responses/Chat `reasoning_effort`, Anthropic `thinking`,
   * Gemini `thinkingConfig`). A model that reasons without it (DeepSeek's reasoner, o1-mini) has none.
   */
  effort?: true;
  /** The model is known to take no images (text-only). Default: it takes them. */
  noImages?: true;
}

/** Most specific first: the first match wins. Figures from the providers' published model pages. */
const CATALOG: readonly CatalogEntry[] = [
  // OpenAI
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
  // Anthropic
  {
    pattern: /^claude-opus-4-[5-9]/,
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    reasoning: true,
    effort: true,
  },
  {
    pattern: /^claude-opus-4/,
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    reasoning: true,
    effort: true,
  },
  {
    pattern: /^claude-sonnet-4/,
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    reasoning: true,
    effort: true,
  },
  {
    pattern: /^claude-haiku-4/,
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    reasoning: true,
    effort: true,
  },
  {
    pattern: /^claude-3-7-sonnet/,
    contextWindow: 200_000,
    maxOutputTokens: 8_192,
    reasoning: true,
    effort: true,
  },
  { pattern: /^claude-(3-5-sonnet|3-5-haiku)/, contextWindow: 200_000, maxOutputTokens: 8_192 },
  // Every Claude model since Claude 3 has at least a 200k window; newer families fall back here.
  { pattern: /^claude-/, contextWindow: 200_000, maxOutputTokens: 32_000 },
  // Google
  {
    pattern: /^gemini-(2\.5|3)(\.\d+)?-(pro|flash)/,
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    reasoning: true,
    effort: true,
  },
  { pattern: /^gemini-2\.0-flash/, contextWindow: 1_048_576, maxOutputTokens: 8_192 },
  // Gemini models since 1.5 accept at least 1M tokens; newer families fall back here.
  { pattern: /^gemini-/, contextWindow: 1_048_576, maxOutputTokens: 8_192 },
  // Open-weight models as Ollama, LM Studio, vLLM and OpenRouter name them (`llama3.1:8b`,
  // `meta-llama-3.1-8b-instruct`, `Qwen/Qwen2.5-7B-Instruct`): the window each model is published with.
  // A server may run a model with a smaller one (Ollama's num_ctx): then set models.<id>.contextWindow.
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
  // DeepSeek's reasoner (and R1 served elsewhere) always reasons and takes no effort setting.
  {
    pattern: /^deepseek-reasoner/i,
    contextWindow: 131_072,
    maxOutputTokens: 65_536,
    reasoning: true,
    noImages: true,
  },
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

/**
 * For a model the catalogue does not know (typical for Ollama, vLLM, LM Studio): small local models
 * run with 4k–8k windows, so assuming 8,192 compacts early rather than overflowing a small window.
 */
export const UNKNOWN_MODEL_LIMITS: Omit<ModelLimits, 'source'> = {
  contextWindow: 8_192,
  maxOutputTokens: 2_048,
};

export function lookupModelLimits(model: string, config?: CodyConfig): ModelLimits {
  const override = config?.models?.[model];
  const bare = model.replace(/^models\//, '').replace(/^[\w.-]+\//, '');
  const entry = CATALOG.find((candidate) => candidate.pattern.test(bare));
  const base = entry ?? UNKNOWN_MODEL_LIMITS;
  const contextWindow = override?.contextWindow ?? base.contextWindow;
  const maxOutputTokens = Math.min(override?.maxOutputTokens ?? base.maxOutputTokens, contextWindow);
  const source = override?.contextWindow !== undefined ? 'config' : entry ? 'catalog' : 'default';
  return { contextWindow, maxOutputTokens, source };
}

/**
 * Whether the model reasons: `models.<model>.reasoning` in config, else the catalogue (o-series, GPT-5.x
 * except `-chat`, Claude 4.x, Gemini 2.5 and 3); a model neither knows is taken not to. Decides whether
 * the Responses API is asked for encrypted reasoning, which models without reasoning refuse.
 */
export function isReasoningModel(model: string, config?: CodyConfig): boolean {
  const override = config?.models?.[model]?.reasoning;
  if (override !== undefined) return override;
  const bare = model.replace(/^models\//, '').replace(/^[\w.-]+\//, '');
  return CATALOG.find((candidate) => candidate.pattern.test(bare))?.reasoning === true;
}

/** Whether the catalogue (not a config override or the default) knows the model. */
export function isKnownModel(model: string): boolean {
  const bare = model.replace(/^models\//, '').replace(/^[\w.-]+\//, '');
  return CATALOG.some((candidate) => candidate.pattern.test(bare));
}

/** What a model does with Cody's reasoning setting. */
export interface ReasoningSupport {
  /** The model reasons at all. */
  reasons: boolean;
  /** The model takes its API's reasoning control (else the setting cannot reach it). */
  effort: boolean;
}

/**
 * Whether the model reasons (`models.<model>.reasoning`, else the catalogue) and whether it takes an
 * effort setting (the catalogue only: a control sent to a model that lacks it is answered 400).
 */
export function reasoningSupport(model: string, config?: CodyConfig): ReasoningSupport {
  const bare = model.replace(/^models\//, '').replace(/^[\w.-]+\//, '');
  const entry = CATALOG.find((candidate) => candidate.pattern.test(bare));
  const reasons = isReasoningModel(model, config);
  return { reasons, effort: reasons && entry?.effort === true };
}

/**
 * The reasoning level that applies to `model` when the conversation chose none: `models.<model>.reasoningEffort`,
 * else the top-level `reasoning`; undefined leaves each API's default.
 */
export function configuredReasoning(model: string, config?: CodyConfig): ReasoningLevel | undefined {
  return config?.models?.[model]?.reasoningEffort ?? config?.reasoning;
}

/**
 * Whether the model takes images: `models.<model>.images` in config, else the catalogue (text-only
 * families such as GPT-3.5, o1-mini, o3-mini, DeepSeek, Qwen 2.5/3, gpt-oss, Code Llama say no); a
 * model neither knows is taken to, and its server answers if it does not.
 */
export function acceptsImages(model: string, config?: CodyConfig): boolean {
  const override = config?.models?.[model]?.images;
  if (override !== undefined) return override;
  const bare = model.replace(/^models\//, '').replace(/^[\w.-]+\//, '');
  return CATALOG.find((candidate) => candidate.pattern.test(bare))?.noImages !== true;
}
