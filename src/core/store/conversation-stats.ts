/** Small facts about a conversation recorded with its turns: token counts, message counts, previews. */
import type { MessageItem, ResponseItem, TokenUsage } from '../../protocol/index.js';
import { isCountedMessage, partsText, previewText, typedUserText } from '../rollout/index.js';

/** Token counts in Codex's snake_case shape (all five, as Codex requires). */
function codexCounts(usage: TokenUsage): Record<string, number> {
  return {
    input_tokens: usage.inputTokens ?? 0,
    cached_input_tokens: usage.cachedInputTokens ?? 0,
    output_tokens: usage.outputTokens ?? 0,
    reasoning_output_tokens: usage.reasoningTokens ?? 0,
    total_tokens: usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0),
  };
}

/** `total` plus one response's `usage`: the conversation's running token total, as Codex keeps it. */
export function addTokenUsage(total: TokenUsage | undefined, usage: TokenUsage): TokenUsage {
  const sum = (a: number | undefined, b: number | undefined): number => (a ?? 0) + (b ?? 0);
  return {
    inputTokens: sum(total?.inputTokens, usage.inputTokens),
    cachedInputTokens: sum(total?.cachedInputTokens, usage.cachedInputTokens),
    outputTokens: sum(total?.outputTokens, usage.outputTokens),
    reasoningTokens: sum(total?.reasoningTokens, usage.reasoningTokens),
    totalTokens: sum(
      total?.totalTokens,
      usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0),
    ),
  };
}

/**
 * The `token_count` event in Codex's shape, for the rollout: the last response's usage and the running
 * total (`total`, which already includes `usage`; without one the last usage stands in for it).
 */
export function tokenCountEvent(
  usage: TokenUsage,
  contextWindow: number,
  total?: TokenUsage,
): Record<string, unknown> & { type: string } {
  const last = codexCounts(usage);
  return {
    type: 'token_count',
    info: {
      total_token_usage: total ? codexCounts(total) : last,
      last_token_usage: last,
      model_context_window: contextWindow,
    },
  };
}

/** A message's text on one line, shortened for `cody list` (the preview). */
export function previewOf(item: MessageItem): string {
  return previewText(partsText(item.content, ' '));
}

/** User and assistant messages (what `cody list` counts; see rollout/definitions.ts). */
export function countMessages(history: readonly ResponseItem[]): number {
  return history.filter(isCountedMessage).length;
}

/** The first typed user message, shortened, if there is one. */
export function firstUserPreview(history: readonly ResponseItem[]): string | undefined {
  for (const item of history) {
    const text = item.type === 'message' ? typedUserText(item) : undefined;
    if (text !== undefined) return previewText(text);
  }
  return undefined;
}
