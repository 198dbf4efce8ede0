/**
 * Cody's reasoning level → the model's own reasoning switch, which Converse passes through in
 * `additionalModelRequestFields` (AWS documents Claude's `thinking` and Nova 2's `reasoningConfig` there).
 */
import type { DocumentType } from '@smithy/types';
import type { ReasoningLevel } from '../../protocol/index.js';
import { baseModelId, isClaude, isNova2 } from './definition.js';

/** Claude's thinking budgets per level, as the Anthropic client uses (Claude Code's think levels). */
export const CLAUDE_THINKING_BUDGETS: Readonly<Record<Exclude<ReasoningLevel, 'off'>, number>> = {
  minimal: 1_024,
  low: 4_000,
  medium: 10_000,
  high: 31_999,
};

/** Claude's smallest thinking budget; `budget_tokens` must also stay below `maxTokens`. */
const MIN_CLAUDE_BUDGET = 1_024;

/** The Anthropic beta that lets Claude 4 think after each tool result; Bedrock takes it as `anthropic_beta`. */
export const INTERLEAVED_THINKING_BETA = 'interleaved-thinking-2025-05-14';

/**
 * `maxTokens` when the caller sets no cap but thinking needs one to stay under: 8,192, as for Anthropic's
 * own API. Without thinking no cap is sent and the model's Bedrock default applies.
 */
export const DEFAULT_THINKING_MAX_TOKENS = 8_192;

/** What the reasoning level adds to a request. */
export interface ConverseReasoning {
  fields: Record<string, DocumentType>;
  /** The output cap the fields need (Claude's budget must stay below it). */
  maxTokens?: number;
}

/**
 * The fields for `level` on `model` under `maxTokens` (the caller's cap, if any); undefined for `off`,
 * for a model whose reasoning switch Cody does not know, or when the cap leaves no room for a budget.
 */
export function converseReasoning(
  model: string,
  level: ReasoningLevel | undefined,
  maxTokens: number | undefined,
): ConverseReasoning | undefined {
  if (level === undefined || level === 'off') return undefined;
  if (isClaude(model)) {
    const cap = maxTokens ?? DEFAULT_THINKING_MAX_TOKENS;
    const budget = Math.min(CLAUDE_THINKING_BUDGETS[level], cap - MIN_CLAUDE_BUDGET);
    if (budget < MIN_CLAUDE_BUDGET) return undefined;
    const fields: Record<string, DocumentType> = { thinking: { type: 'enabled', budget_tokens: budget } };
    if (/^anthropic\.claude-(opus|sonnet|haiku)-4/.test(baseModelId(model)))
      fields.anthropic_beta = [INTERLEAVED_THINKING_BETA];
    return { fields, maxTokens: cap };
  }
  if (isNova2(model)) {
    const effort = level === 'minimal' ? 'low' : level;
    return { fields: { reasoningConfig: { type: 'enabled', maxReasoningEffort: effort } } };
  }
  return undefined;
}
