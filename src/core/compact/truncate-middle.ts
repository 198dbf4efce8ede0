import type { TokenEstimator } from '../tokens/index.js';

/** The marker standing in for what was cut. */
export function truncationMarker(removedTokens: number): string {
  return `…${removedTokens} tokens truncated…`;
}

/** Share by which the kept length shrinks when a first cut still does not fit. */
const SHRINK_FACTOR = 0.85;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Moves a head cut back so it never ends between the two halves of a surrogate pair. */
function headCut(text: string, index: number): number {
  return index > 0 && isHighSurrogate(text.charCodeAt(index - 1)) ? index - 1 : index;
}

/** Moves a tail cut forward so it never starts on the second half of a surrogate pair. */
function tailCut(text: string, index: number): number {
  return index < text.length && isLowSurrogate(text.charCodeAt(index)) ? index + 1 : index;
}

/**
 * `text` when it fits in `maxTokens`; otherwise its head and tail (about half the budget each) joined
 * by `…N tokens truncated…`, N being the tokens cut. Cuts fall on code-point boundaries, so emoji and
 * other astral characters are never split (every UTF-16 string cut this way is valid UTF-8). When not
 * even the marker fits, the marker alone is returned.
 */
export function truncateMiddle(text: string, maxTokens: number, estimator: TokenEstimator): string {
  const total = estimator.countText(text);
  if (total <= maxTokens) return text;
  const contentBudget = maxTokens - estimator.countText(truncationMarker(total));
  if (contentBudget <= 0) return truncationMarker(total);
  let keepCharacters = Math.floor((contentBudget * text.length) / total);
  for (;;) {
    const headEnd = headCut(text, Math.ceil(keepCharacters / 2));
    const tailStart = Math.max(headEnd, tailCut(text, text.length - Math.floor(keepCharacters / 2)));
    const head = text.slice(0, headEnd);
    const tail = text.slice(tailStart);
    const removed = Math.max(1, total - estimator.countText(head) - estimator.countText(tail));
    const result = `${head}${truncationMarker(removed)}${tail}`;
    if (keepCharacters === 0 || estimator.countText(result) <= maxTokens) return result;
    keepCharacters = Math.floor(keepCharacters * SHRINK_FACTOR);
  }
}
