/**
 * Cody's reasoning level → the model's own reasoning switch, which Converse passes through in
 * `additionalModelRequestFields` (AWS documents Claude's `thinking` and `output_config` and Nova 2's
 * `reasoningConfig` there). Claude takes the same fields as on Anthropic's API (anthropic-thinking.ts):
 * a budget, or adaptive thinking with its effort on the adaptive-only models.
 */
import type { DocumentType } from '@smithy/types';
import type { ReasoningLevel } from '../../protocol/index.js';
import { claudeThinkingFields } from '../anthropic-messages/anthropic-thinking.js';
import { baseModelId, isClaude, isNova2 } from './definition.js';

/** The Anthropic beta that lets Claude 4 think after each tool result; Bedrock takes it as `anthropic_beta`. */
export const INTERLEAVED_THINKING_BETA = 'interleaved-thinking-2025-05-14';

/**
 * `maxTokens` when the caller sets no cap but a thinking budget needs one to stay under: 8,192, as for
 * Anthropic's own API. Without a budget no cap is sent and the model's Bedrock default applies.
 */
export const DEFAULT_THINKING_MAX_TOKENS = 8_192;

/** What the reasoning level adds to a request. */
export interface ConverseReasoning {
  fields: Record<string, DocumentType>;
  /** The output cap the fields need (Claude's budget must stay below it). */
  maxTokens?: number;
  /** Claude thinks adaptively: a tool loop's assistant turn need not open with its reasoning. */
  adaptive?: true;
}

/**
 * The fields for `level` on `model` under `maxTokens` (the caller's cap, if any); undefined when nothing
 * is sent: `off` where thinking is off unless asked for, a model whose reasoning switch Cody does not know,
 * or a cap leaving no room for a budget.
 */
export function converseReasoning(
  model: string,
  level: ReasoningLevel | undefined,
  maxTokens: number | undefined,
): ConverseReasoning | undefined {
  if (level === undefined) return undefined;
  if (isClaude(model)) return claudeReasoning(model, level, maxTokens);
  if (level === 'off') return undefined;
  if (isNova2(model)) {
    const effort = level === 'minimal' ? 'low' : level;
    return { fields: { reasoningConfig: { type: 'enabled', maxReasoningEffort: effort } } };
  }
  return undefined;
}

function claudeReasoning(
  model: string,
  level: ReasoningLevel,
  maxTokens: number | undefined,
): ConverseReasoning | undefined {
  const cap = maxTokens ?? DEFAULT_THINKING_MAX_TOKENS;
  const { thinking, effort, adaptive } = claudeThinkingFields(model, level, cap);
  if (thinking === undefined) return undefined;
  const fields: Record<string, DocumentType> = { thinking: { ...thinking } };
  if (effort !== undefined) fields.output_config = { effort };
  if (adaptive) return { fields, adaptive: true };
  if (/^anthropic\.claude-(opus|sonnet|haiku)-4/.test(baseModelId(model)))
    fields.anthropic_beta = [INTERLEAVED_THINKING_BETA];
  return { fields, maxTokens: cap };
}
