/**
 * Compaction: the summary request, the replacement history (kept user messages + summary), limits and trimming.
 * This file is the folder's public surface: other folders import it, never its modules (eslint.config.js).
 */
export { SUMMARY_PREFIX } from '../rollout/index.js';
export { COMPACTION_PROMPT, buildSummaryRequest, compactionPromptMessage } from './build-summary-request.js';
export { isRealUserMessage, isSummaryMessage } from './is-summary-message.js';
export { collectGhostSnapshots, collectInitialContext } from './collect-initial-context.js';
export { truncateMiddle, truncationMarker } from './truncate-middle.js';
export { truncateToolOutput } from './truncate-tool-output.js';
export { MIN_TRUNCATED_MESSAGE_TOKENS, selectKeptUserMessages } from './select-kept-user-messages.js';
export {
  buildReplacementHistory,
  summaryMessage,
  type ReplacementHistoryParts,
} from './build-replacement-history.js';
export { trimOldestForRetry } from './trim-oldest-for-retry.js';
export {
  autoCompactLimit,
  MAX_REPLY_SHARE,
  MIN_LIMIT_SHARE,
  SUMMARY_PROMPT_RESERVE,
  type AutoCompactLimitOptions,
} from './auto-compact-limit.js';
export { KEPT_MESSAGES_SHARE, keptMessagesBudget, MAX_KEPT_USER_TOKENS } from './kept-messages-budget.js';
export { summaryMaxOutputTokens } from './summary-max-output-tokens.js';
export {
  compactHistory,
  SUMMARY_UNAVAILABLE,
  NOTHING_TO_SUMMARISE,
  type CompactHistoryOptions,
  type CompactionOutcome,
  type CompactionProgress,
} from './compact-history.js';
