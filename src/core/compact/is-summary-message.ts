import type { MessageItem, ResponseItem } from '../../protocol/index.js';
import { messageText } from '../rollout/index.js';
import { SUMMARY_PREFIX } from '../rollout/index.js';

/** An earlier compaction's summary: a user-role message whose text starts with {@link SUMMARY_PREFIX}. */
export function isSummaryMessage(item: ResponseItem): item is MessageItem {
  return item.type === 'message' && item.role === 'user' && messageText(item).startsWith(SUMMARY_PREFIX);
}

/** A message the person wrote: user role, and not an earlier summary. */
export function isRealUserMessage(item: ResponseItem): item is MessageItem {
  return item.type === 'message' && item.role === 'user' && !isSummaryMessage(item);
}
