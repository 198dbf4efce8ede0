import type { ContentPart, ResponseItem } from '../../protocol/index.js';
import { ITEM_OVERHEAD_TOKENS, type TokenEstimator } from '../tokens/index.js';
import { truncateMiddle } from './truncate-middle.js';

function capParts(
  parts: readonly ContentPart[],
  maxTokens: number,
  estimator: TokenEstimator,
): ContentPart[] {
  const textParts = parts.filter((part) => part.type !== 'input_image').length;
  const share = Math.max(1, Math.floor(maxTokens / Math.max(1, textParts)));
  return parts.map((part) =>
    part.type === 'input_image' ? part : { ...part, text: truncateMiddle(part.text, share, estimator) },
  );
}

/**
 * The items of a summary request with every message or tool output costing more than `maxTokens`
 * cut in the middle to fit (its head and tail kept around a `…N tokens truncated…` marker). Without
 * it, one message larger than the window (a 20 MB paste) would be trimmed away whole and the summary
 * would not mention it at all. Calls keep their arguments (they must stay valid JSON); other items
 * and the items that fit are returned as they are.
 */
export function capOversizedItems(
  items: readonly ResponseItem[],
  maxTokens: number,
  estimator: TokenEstimator,
): ResponseItem[] {
  return items.map((item) => {
    if (item.type !== 'message' && item.type !== 'function_call_output') return item;
    if (estimator.countItem(item) <= maxTokens) return item;
    const room = Math.max(1, maxTokens - ITEM_OVERHEAD_TOKENS);
    if (item.type === 'message') return { ...item, content: capParts(item.content, room, estimator) };
    const output =
      typeof item.output === 'string'
        ? truncateMiddle(item.output, room, estimator)
        : capParts(item.output, room, estimator);
    return { ...item, output };
  });
}
