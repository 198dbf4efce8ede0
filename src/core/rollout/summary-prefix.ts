import type { MessageItem } from '../../protocol/index.js';

/**
 * Every compaction summary enters the history as a user-role message starting with this prefix. It tells
 * the model the text is a hand-over note, and tells Cody which user messages are earlier summaries (never
 * kept as "real" user messages by the next compaction). Changing it breaks recognition of old summaries.
 */
export const SUMMARY_PREFIX =
  '[Cody context summary] The earlier part of this conversation was compacted. Summary of it so far:';

/** The summary as it enters the history: a user message starting with {@link SUMMARY_PREFIX}. */
export function summaryMessage(summary: string): MessageItem {
  return {
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: `${SUMMARY_PREFIX}\n${summary}` }],
  };
}
