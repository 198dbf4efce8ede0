export { SUMMARY_PREFIX } from './summary-prefix.js';
export { COMPACTION_PROMPT, buildSummaryRequest } from './prompt.js';
export {
  buildReplacementHistory,
  collectGhostSnapshots,
  collectInitialContext,
  isSummaryMessage,
  selectKeptUserMessages,
  trimOldestForRetry,
} from './history-parts.js';
export { truncateMiddle, truncateToolOutput } from './truncate.js';
export {
  autoCompactLimit,
  keptMessagesBudget,
  MAX_KEPT_USER_TOKENS,
  summaryMaxOutputTokens,
} from './limits.js';
export {
  compactHistory,
  SUMMARY_UNAVAILABLE,
  type CompactionOutcome,
  type CompactionProgress,
  type CompactOptions,
} from './compact-history.js';
