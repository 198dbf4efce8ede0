/** Codex's budget for recent user messages kept verbatim through a compaction. */
export const MAX_KEPT_USER_TOKENS = 20_000;

/**
 * Share of the auto-compact limit the kept user messages may take. With the summary capped at 15% of
 * the window (see `summaryMaxOutputTokens`) and the instructions on top, the new history lands around
 * half the limit, leaving several turns of room before the next compaction.
 */
export const KEPT_MESSAGES_SHARE = 0.25;

/**
 * Tokens of recent user messages a compaction keeps: min(20,000, ⌊0.25 × min(window, limit)⌋).
 * Large windows get Codex's 20,000; a 4,096-token local model (limit 2,672) gets 668.
 */
export function keptMessagesBudget(contextWindow: number, autoLimit: number): number {
  const share = Math.floor(KEPT_MESSAGES_SHARE * Math.min(contextWindow, autoLimit));
  return Math.max(0, Math.min(MAX_KEPT_USER_TOKENS, share));
}
