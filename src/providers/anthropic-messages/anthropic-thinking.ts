/**
 * Cody's reasoning level → Claude's thinking, for Anthropic's API and Bedrock alike. A model that takes a
 * budget gets `thinking: {type: "enabled", budget_tokens}` with a budget per level that stays below
 * `max_tokens` (and the beta header that lets Claude 4 models think between tool calls); `off` sends
 * nothing, thinking being off unless asked for. An adaptive-only model (Opus 4.7 and later, 5.x, Fable,
 * Mythos) gets `thinking: {type: "adaptive"}` with `output_config.effort`, and `off` as its catalogue
 * entry says (claude-models.ts).
 */
import type { MessageParam, ThinkingConfigParam } from '@anthropic-ai/sdk/resources/messages';
import type { ReasoningLevel } from '../../protocol/index.js';
import { claudeThinkingControl } from './claude-models.js';

/** Thinking budgets per level (Claude Code's "think" / "think hard" / "ultrathink": 4,000 / 10,000 / 31,999). */
export const ANTHROPIC_THINKING_BUDGETS: Readonly<Record<Exclude<ReasoningLevel, 'off'>, number>> = {
  minimal: 1_024,
  low: 4_000,
  medium: 10_000,
  high: 31_999,
};

/** Anthropic's smallest thinking budget. */
export const MIN_THINKING_BUDGET = 1_024;

/** Anthropic's beta that lets Claude 4 models think after each tool result, not only at the turn's start. */
export const INTERLEAVED_THINKING_BETA = 'interleaved-thinking-2025-05-14';

/**
 * The thinking parameter for `level` under `maxTokens`: the level's budget, lowered to leave at least
 * 1,024 tokens for the answer (Anthropic requires `budget_tokens < max_tokens`); undefined for `off`, or
 * when `max_tokens` leaves no room for the smallest budget.
 */
export function anthropicThinking(level: ReasoningLevel, maxTokens: number): ThinkingConfigParam | undefined {
  if (level === 'off') return undefined;
  const budget = Math.min(ANTHROPIC_THINKING_BUDGETS[level], maxTokens - MIN_THINKING_BUDGET);
  if (budget < MIN_THINKING_BUDGET) return undefined;
  return { type: 'enabled', budget_tokens: budget };
}

/**
 * Cody's levels as adaptive thinking's efforts. Every adaptive model takes `low`, `medium` and `high`
 * (the pinned SDK's `OutputConfig.effort` also names `xhigh` and `max`, which not every model takes);
 * `minimal` has no effort of its own and is `low`, the least.
 */
export const ADAPTIVE_EFFORTS: Readonly<Record<Exclude<ReasoningLevel, 'off'>, ClaudeAdaptiveEffort>> = {
  minimal: 'low',
  low: 'low',
  medium: 'medium',
  high: 'high',
};

export type ClaudeAdaptiveEffort = 'low' | 'medium' | 'high';

/** What the reasoning level adds to a Claude request. */
export interface ClaudeThinkingFields {
  thinking?: ThinkingConfigParam;
  /** Adaptive thinking's effort, sent as `output_config: {effort}`. */
  effort?: ClaudeAdaptiveEffort;
  /**
   * The model thinks adaptively: it thinks between tool calls without the interleaved beta, and may skip
   * thinking, so a tool loop's assistant turn need not open with a thinking block.
   */
  adaptive: boolean;
}

/** The thinking fields for `level` on `model` under `maxTokens` (a budget must stay below it). */
export function claudeThinkingFields(
  model: string,
  level: ReasoningLevel,
  maxTokens: number,
): ClaudeThinkingFields {
  const control = claudeThinkingControl(model);
  if (control.kind === 'none') return { adaptive: false };
  if (control.kind === 'budget') {
    const thinking = anthropicThinking(level, maxTokens);
    return thinking ? { thinking, adaptive: false } : { adaptive: false };
  }
  if (level !== 'off')
    return { thinking: { type: 'adaptive' }, effort: ADAPTIVE_EFFORTS[level], adaptive: true };
  switch (control.off) {
    case 'omit':
      return { adaptive: true };
    case 'disabled':
      return { thinking: { type: 'disabled' }, adaptive: true };
    case 'between-tools':
      return { thinking: { type: 'between_tools' }, adaptive: true };
    case 'always':
      return { thinking: { type: 'adaptive' }, effort: 'low', adaptive: true };
    default: {
      const exhaustive: never = control.off;
      throw new Error(`unknown thinking-off mode ${String(exhaustive)}`);
    }
  }
}

/** Whether the model is a Claude 4 model, which thinks between tool calls only with the interleaved beta. */
export function needsInterleavedBeta(model: string): boolean {
  return /^claude-(opus|sonnet|haiku)-4/.test(model.toLowerCase().replace(/^.*\//, ''));
}

/**
 * With thinking on, Anthropic requires the assistant turn of a tool loop in progress (the last one, whose
 * tool results end the request) to start with its thinking block (400 "Expected `thinking` or
 * `redacted_thinking`, but found `tool_use`"). A loop begun with thinking off (or by another provider)
 * has none: then this request goes without thinking.
 */
export function toolLoopLacksThinking(messages: readonly MessageParam[]): boolean {
  const last = messages.at(-1);
  const assistant = messages.at(-2);
  if (last?.role !== 'user' || assistant?.role !== 'assistant' || typeof last.content === 'string')
    return false;
  if (!last.content.some((block) => block.type === 'tool_result')) return false;
  if (typeof assistant.content === 'string') return true;
  const first = assistant.content[0];
  return first?.type !== 'thinking' && first?.type !== 'redacted_thinking';
}
