/**
 * Context window and maximum output of current model families, from the wire APIs' definitions. Drives
 * the auto-compact limit.
 * Overridable per model in config (`models.<model>.contextWindow` / `.maxOutputTokens`).
 */
import type { ReasoningLevel } from '../../protocol/index.js';
import { type ModelEntry, modelEntries } from '../../providers/lookup.js';
import type { CodyConfig } from '../config/index.js';

export interface ModelLimits {
  /** Tokens the model accepts in one request (input + output). */
  contextWindow: number;
  /** Most tokens the model may write in one response. */
  maxOutputTokens: number;
  /** Where the figures came from (`listed`: the provider's own model list, cached). */
  source: 'catalog' | 'config' | 'listed' | 'default';
}

/** The catalogue: every wire API definition's model entries (src/providers/<api>/definition.ts). */
function catalogEntry(bare: string): ModelEntry | undefined {
  return modelEntries().find((candidate) => candidate.pattern.test(bare));
}

/**
 * For a model the catalogue does not know (typical for Ollama, vLLM, LM Studio): small local models
 * run with 4k–8k windows, so assuming 8,192 compacts early rather than overflowing a small window.
 */
export const UNKNOWN_MODEL_LIMITS: Omit<ModelLimits, 'source'> = {
  contextWindow: 8_192,
  maxOutputTokens: 2_048,
};

/**
 * The model's limits: config's `models.<model>`, else what the provider's own list reports (`listed`,
 * from the cached list: Gemini's and Anthropic's give both), else the catalogue, else the unknown-model
 * default.
 */
export function lookupModelLimits(
  model: string,
  config?: CodyConfig,
  listed?: { contextWindow?: number; maxOutputTokens?: number },
): ModelLimits {
  const override = config?.models?.[model];
  const bare = model.replace(/^models\//, '').replace(/^[\w.-]+\//, '');
  const entry = catalogEntry(bare);
  const base = entry ?? UNKNOWN_MODEL_LIMITS;
  const contextWindow = override?.contextWindow ?? listed?.contextWindow ?? base.contextWindow;
  const maxOutputTokens = Math.min(
    override?.maxOutputTokens ?? listed?.maxOutputTokens ?? base.maxOutputTokens,
    contextWindow,
  );
  const source =
    override?.contextWindow !== undefined
      ? 'config'
      : listed?.contextWindow !== undefined
        ? 'listed'
        : entry
          ? 'catalog'
          : 'default';
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
  return catalogEntry(bare)?.reasoning === true;
}

/** Whether the catalogue (not a config override or the default) knows the model. */
export function isKnownModel(model: string): boolean {
  const bare = model.replace(/^models\//, '').replace(/^[\w.-]+\//, '');
  return catalogEntry(bare) !== undefined;
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
  const entry = catalogEntry(bare);
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
  return catalogEntry(bare)?.noImages !== true;
}
