/**
 * Reasoning that OpenAI-compatible servers stream in fields OpenAI does not have: DeepSeek's
 * `reasoning_content` (also vLLM's older name) and `reasoning` (Ollama, vLLM, OpenRouter).
 */
import type { ReasoningItem } from '../../protocol/index.js';

/** Key of `ReasoningItem.provider_data` naming the field the reasoning arrived in. */
export const REASONING_FIELD_KEY = 'field';

export type ReasoningField = 'reasoning_content' | 'reasoning';

/**
 * The reasoning of one reply as Cody's own reasoning item, tagged with the API and model that produced
 * it (recorded as `cody_reasoning`, so no Codex request ever carries it).
 */
export function chatReasoningItem(text: string, field: ReasoningField, model: string): ReasoningItem {
  return {
    type: 'reasoning',
    summary: [],
    content: [{ type: 'reasoning_text', text }],
    origin: { api: 'openai-chat', model },
    provider_data: { [REASONING_FIELD_KEY]: field },
  };
}
