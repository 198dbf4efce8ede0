import type { MessageItem, ResponseItem } from '../../protocol/index.js';
import { ITEM_OVERHEAD_TOKENS, type TokenEstimator } from '../tokens/index.js';
import { withImagesNamed } from '../images/index.js';
import { isRealUserMessage } from './is-summary-message.js';
import { messageText } from '../rollout/index.js';
import { truncateMiddle } from './truncate-middle.js';

/**
 * Below this much room, a truncated message would be little more than its marker, so selection stops
 * instead (the marker alone is ~8 tokens).
 */
export const MIN_TRUNCATED_MESSAGE_TOKENS = 24;

/**
 * The most recent messages the person wrote (summaries and system/developer messages excluded),
 * walked newest first while they fit in `budgetTokens`. The first one that does not fit is kept
 * truncated in the middle to the room left, and selection stops there. Images are not kept: each becomes
 * `[image: name]` text. Returned in chronological order; messages left as they were are the originals.
 */
export function selectKeptUserMessages(
  history: readonly ResponseItem[],
  budgetTokens: number,
  estimator: TokenEstimator,
): MessageItem[] {
  const kept: MessageItem[] = [];
  let remaining = budgetTokens;
  for (let index = history.length - 1; index >= 0; index -= 1) {
    const item = history[index];
    if (item === undefined || !isRealUserMessage(item)) continue;
    const named = withImagesNamed(item);
    const cost = estimator.countItem(named);
    if (cost <= remaining) {
      kept.push(named);
      remaining -= cost;
      continue;
    }
    const room = remaining - ITEM_OVERHEAD_TOKENS;
    if (room >= MIN_TRUNCATED_MESSAGE_TOKENS) {
      const text = truncateMiddle(messageText(named), room, estimator);
      kept.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
    }
    break;
  }
  return kept.reverse();
}
