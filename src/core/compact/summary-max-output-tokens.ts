/** Share of the window a summary may fill: it becomes part of the new history. */
export const SUMMARY_WINDOW_SHARE = 0.15;

/** A hand-over note longer than this stops being a summary; models rarely need half of it. */
export const MAX_SUMMARY_TOKENS = 8_192;

/** Even a tiny window gets room for a few paragraphs. */
export const MIN_SUMMARY_TOKENS = 256;

/**
 * The output cap of a summary request: 15% of the window, between 256 and 8,192 tokens, and never
 * above the model's own maximum output.
 */
export function summaryMaxOutputTokens(contextWindow: number, maxOutputTokens?: number): number {
  const share = Math.floor(contextWindow * SUMMARY_WINDOW_SHARE);
  const wanted = Math.min(MAX_SUMMARY_TOKENS, Math.max(MIN_SUMMARY_TOKENS, share));
  return Math.max(1, Math.min(wanted, maxOutputTokens ?? wanted));
}
