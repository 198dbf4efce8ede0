/** Where the auto-compact line sits, and how much of the new history recent user messages may take. */
import { DEFAULT_COMPACT_THRESHOLD } from '../config.js';

/** Tokens the compaction prompt itself adds to the summary request (it is ~170 tokens; rounded up). */
export const SUMMARY_PROMPT_RESERVE = 400;
/** A limit never goes below this share of the window, however large the reserves. */
const MIN_LIMIT_SHARE = 0.3;

/**
 * threshold × window (or the absolute `tokenLimit`), honoured whether higher or lower, but clamped so a
 * history at the limit still leaves room for the reply (the model's max output, at most a quarter of the
 * window) and for the summary request's prompt: limit ≤ window − min(maxOutput, window/4) − 400.
 */
export function autoCompactLimit(options: {
  contextWindow: number;
  maxOutputTokens: number;
  threshold?: number;
  tokenLimit?: number;
}): number {
  const window = options.contextWindow;
  const wanted = options.tokenLimit ?? Math.floor((options.threshold ?? DEFAULT_COMPACT_THRESHOLD) * window);
  const replyReserve = Math.min(options.maxOutputTokens, Math.floor(window / 4));
  const ceiling = window - replyReserve - SUMMARY_PROMPT_RESERVE;
  return Math.max(Math.floor(window * MIN_LIMIT_SHARE), Math.min(wanted, ceiling));
}

/** Codex keeps up to 20k tokens of recent user messages; small windows get a quarter of the limit. */
export const MAX_KEPT_USER_TOKENS = 20_000;

/**
 * Budget for the recent user messages kept verbatim: min(20,000, limit/4), so instructions + kept
 * messages + summary land well under the limit even on a 4k-token local model.
 */
export function keptMessagesBudget(autoLimit: number): number {
  return Math.min(MAX_KEPT_USER_TOKENS, Math.floor(autoLimit / 4));
}

/** Longest summary asked for: the model's max output, but at most 15% of the window (min 256). */
export function summaryMaxOutputTokens(contextWindow: number, maxOutputTokens: number): number {
  return Math.min(maxOutputTokens, Math.max(256, Math.floor(contextWindow * 0.15)));
}
