/**
 * DeepSeek V4's thinking mode on Chat Completions, as its guide describes it
 * (https://api-docs.deepseek.com/guides/thinking_mode): `deepseek-v4-flash` and `deepseek-v4-pro` think by
 * default, and `deepseek-reasoner` is the legacy alias of V4 Flash thinking (`deepseek-chat` of V4 Flash
 * without it). `thinking: {"type": "disabled"}` turns thinking off; `reasoning_effort` takes `high` or
 * `max` (low and medium are taken as high). Between two user messages, when the model called tools, the
 * assistant's `reasoning_content` must come back in every later request, or the API answers 400 ("The
 * reasoning_content in the thinking mode must be passed back to the API"); reasoning of an assistant
 * message without tool calls is ignored, so it is not sent.
 */
import type { ReasoningLevel } from '../../protocol/index.js';

/** Whether the model is one of DeepSeek's own thinking models (by the id DeepSeek's API names it). */
export function isDeepSeekThinkingModel(model: string): boolean {
  return /^deepseek-(v4-|reasoner)/.test(model.toLowerCase());
}

/** Whether reasoning produced by `model` is DeepSeek's (any DeepSeek model: its text goes back as is). */
export function isDeepSeekModel(model: string): boolean {
  return /^deepseek-/.test(model.toLowerCase());
}

/** The request fields for Cody's reasoning level on a DeepSeek thinking model. */
export interface DeepSeekThinkingFields {
  thinking?: { type: 'disabled' };
  reasoning_effort?: 'high' | 'max';
}

/**
 * `off` turns thinking off; Cody's `high` is DeepSeek's `max`; the lower levels are `high` (DeepSeek maps
 * low and medium to high itself, so sending them would only hide what happens). No level: nothing, the
 * API's default (thinking on, `high`).
 */
export function deepSeekThinkingFields(level: ReasoningLevel | undefined): DeepSeekThinkingFields {
  if (level === undefined) return {};
  if (level === 'off') return { thinking: { type: 'disabled' } };
  return { reasoning_effort: level === 'high' ? 'max' : 'high' };
}

/**
 * Whether every earlier tool-calling assistant message must carry `reasoning_content`: a DeepSeek
 * thinking model whose thinking is not turned off.
 */
export function returnsAllReasoning(model: string, level: ReasoningLevel | undefined): boolean {
  return isDeepSeekThinkingModel(model) && level !== 'off';
}
