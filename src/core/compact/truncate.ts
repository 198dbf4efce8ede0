/** Middle truncation that keeps the head and tail of a text, measured in tokens, UTF-8 safe. */
import type { TokenEstimator } from '../tokens/estimator.js';

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Moves a cut index off the middle of a surrogate pair. */
function safeCut(text: string, index: number): number {
  return index > 0 && index < text.length && isLowSurrogate(text.charCodeAt(index)) ? index - 1 : index;
}

/**
 * `text` if it fits in `maxTokens`; otherwise its head and tail with `…N tokens truncated…` between them.
 * The cut points are found by the text's own characters-per-token ratio, then tightened until it fits.
 */
export function truncateMiddle(text: string, maxTokens: number, estimator: TokenEstimator): string {
  const total = estimator.countText(text);
  if (total <= maxTokens) return text;
  if (maxTokens <= 0) return `…${total} tokens truncated…`;
  const charsPerToken = text.length / Math.max(1, total);
  let keepChars = Math.floor(maxTokens * charsPerToken * 0.9);
  for (;;) {
    const headEnd = safeCut(text, Math.floor(keepChars / 2));
    const tailStart = safeCut(text, text.length - Math.ceil(keepChars / 2));
    const head = text.slice(0, headEnd);
    const tail = text.slice(Math.max(tailStart, headEnd));
    const removed = Math.max(1, total - estimator.countText(head) - estimator.countText(tail));
    const result = `${head}\n…${removed} tokens truncated…\n${tail}`;
    if (estimator.countText(result) <= maxTokens || keepChars <= 0) return result;
    keepChars = Math.floor(keepChars * 0.8);
  }
}

/** A tool output as recorded: at most `maxTokens`, head and tail kept. */
export function truncateToolOutput(output: string, maxTokens: number, estimator: TokenEstimator): string {
  return truncateMiddle(output, maxTokens, estimator);
}
