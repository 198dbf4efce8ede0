/**
 * DeepSeek's thinking mode on Chat Completions, as its guide describes it
 * (https://api-docs.deepseek.com/guides/thinking_mode, checked 2026-11-29): `deepseek-flash` (V4.1 Flash;
 * `deepseek-v4-flash` is its legacy name) and `deepseek-v4-pro` think by default; `deepseek-reasoner` was
 * the alias of V4 Flash thinking (`deepseek-chat` of V4 Flash without it) until DeepSeek retired both names
 * on 2026-07-24. `thinking: {"type": "disabled"}` turns thinking off; `reasoning_effort` takes `low`,
 * `high` or `max` (minimal is taken as low, medium and xhigh as high). Between two user messages, when the
 * model called tools, the assistant's `reasoning_content` must come back in every later request, or the
 * API answers 400 ("The reasoning_content in the thinking mode must be passed back to the API");
 * reasoning of an assistant message without tool calls is ignored, so it is not sent.
 */
import type { ReasoningLevel } from '../../protocol/index.js';

/** Whether the model is one of DeepSeek's own thinking models (by the id DeepSeek's API names it). */
export function isDeepSeekThinkingModel(model: string): boolean {
  return /^deepseek-(flash|v4-|reasoner)/.test(model.toLowerCase());
}

/** Whether reasoning produced by `model` is DeepSeek's (any DeepSeek model: its text goes back as is). */
export function isDeepSeekModel(model: string): boolean {
  return /^deepseek-/.test(model.toLowerCase());
}

/** The request fields for Cody's reasoning level on a DeepSeek thinking model. */
export interface DeepSeekThinkingFields {
  thinking?: { type: 'disabled' };
  reasoning_effort?: 'low' | 'high' | 'max';
}

/** Cody's levels as DeepSeek's three efforts: its own names for what it does with each. */
const DEEPSEEK_EFFORTS = { minimal: 'low', low: 'low', medium: 'high', high: 'max' } as const;

/**
 * `off` turns thinking off; Cody's `high` is DeepSeek's `max`, `medium` its `high`, `minimal` and `low`
 * its `low`. No level: nothing, the API's default (thinking on, `high`).
 */
export function deepSeekThinkingFields(level: ReasoningLevel | undefined): DeepSeekThinkingFields {
  if (level === undefined) return {};
  if (level === 'off') return { thinking: { type: 'disabled' } };
  return { reasoning_effort: DEEPSEEK_EFFORTS[level] };
}

/**
 * Whether every earlier tool-calling assistant message must carry `reasoning_content`: a DeepSeek
 * thinking model whose thinking is not turned off.
 */
export function returnsAllReasoning(model: string, level: ReasoningLevel | undefined): boolean {
  return isDeepSeekThinkingModel(model) && level !== 'off';
}
