/** Small facts about a conversation recorded with its turns: token counts, message counts, previews. */
import type { MessageItem, ResponseItem, TokenUsage } from '../protocol/index.js';
import { isContextualUserText } from './rollout/is-contextual-user-text.js';

/** A message the person or the model wrote (not contextual text such as project instructions). */
function isConversationMessage(item: ResponseItem): item is MessageItem {
  if (item.type !== 'message') return false;
  if (item.role === 'assistant') return true;
  if (item.role !== 'user') return false;
  const first = item.content[0];
  return !(first?.type === 'input_text' && isContextualUserText(first.text));
}

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

/** Long enough to recognise a conversation by, short enough for one table row. */
const PREVIEW_LENGTH = 80;

/** A message's text on one line, shortened for `cody list`. */
export function previewOf(item: MessageItem): string {
  const text = item.content
    .map((part) => (part.type === 'input_image' ? '[image]' : part.text))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH - 1)}…` : text;
}

/** User and assistant messages (what `cody list` counts). */
export function countMessages(history: readonly ResponseItem[]): number {
  return history.filter(isConversationMessage).length;
}

/** The first user message, shortened, if there is one. */
export function firstUserPreview(history: readonly ResponseItem[]): string | undefined {
  const first = history.find(
    (item): item is MessageItem => isConversationMessage(item) && item.role === 'user',
  );
  return first ? previewOf(first) : undefined;
}
