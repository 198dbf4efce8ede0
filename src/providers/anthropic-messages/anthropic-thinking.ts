/**
 * Cody's reasoning level → Anthropic's extended thinking: `thinking: {type: "enabled", budget_tokens}`
 * with a budget per level that stays below `max_tokens`, and the beta header that lets Claude 4 models
 * think between tool calls. `off` sends nothing: thinking is off unless asked for.
 */
import type { MessageParam, ThinkingConfigParam } from '@anthropic-ai/sdk/resources/messages';
import type { ReasoningLevel } from '../../protocol/index.js';

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
