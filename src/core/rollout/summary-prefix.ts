/**
 * Every compaction summary enters the history as a user-role message starting with this prefix. It tells
 * the model the text is a hand-over note, and tells Cody which user messages are earlier summaries (never
 * kept as "real" user messages by the next compaction). Changing it breaks recognition of old summaries.
 */
export const SUMMARY_PREFIX =
  '[Cody context summary] The earlier part of this conversation was compacted. Summary of it so far:';
