/** Pure helpers that pick apart a history for compaction. */
import type { GhostSnapshotItem, MessageItem, ResponseItem } from '../../protocol/index.js';
import type { TokenEstimator } from '../tokens/estimator.js';
import { SUMMARY_PREFIX } from './summary-prefix.js';
import { truncateMiddle } from './truncate.js';

function textOf(message: MessageItem): string {
  return message.content.map((part) => (part.type === 'input_image' ? '' : part.text)).join('');
}

/** A user message that is an earlier compaction summary (not something the person wrote). */
export function isSummaryMessage(item: ResponseItem): boolean {
  return item.type === 'message' && item.role === 'user' && textOf(item).startsWith(SUMMARY_PREFIX);
}

/** The leading system/developer messages: the instructions every prompt starts with. */
export function collectInitialContext(history: readonly ResponseItem[]): MessageItem[] {
  const initial: MessageItem[] = [];
  for (const item of history) {
    if (item.type === 'message' && (item.role === 'system' || item.role === 'developer')) initial.push(item);
    else break;
  }
  return initial;
}

export function collectGhostSnapshots(history: readonly ResponseItem[]): GhostSnapshotItem[] {
  return history.filter((item): item is GhostSnapshotItem => item.type === 'ghost_snapshot');
}

/** Below this many tokens of room, a truncated message would be mostly marker: stop instead. */
const MIN_TRUNCATED_TOKENS = 32;

/**
 * The most recent messages the person wrote (not summaries), newest first within `budgetTokens`, the
 * oldest kept one truncated in the middle to fit; returned in chronological order.
 */
export function selectKeptUserMessages(
  history: readonly ResponseItem[],
  budgetTokens: number,
  estimator: TokenEstimator,
): MessageItem[] {
  const kept: MessageItem[] = [];
  let remaining = budgetTokens;
  for (let index = history.length - 1; index >= 0 && remaining > 0; index -= 1) {
    const item = history[index];
    if (!item || item.type !== 'message' || item.role !== 'user' || isSummaryMessage(item)) continue;
    const cost = estimator.countItem(item);
    if (cost <= remaining) {
      kept.push(item);
      remaining -= cost;
      continue;
    }
    if (remaining >= MIN_TRUNCATED_TOKENS) {
      const text = textOf(item);
      kept.push({
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: truncateMiddle(text, remaining - 8, estimator) }],
      });
    }
    break;
  }
  return kept.reverse();
}

/** The history that replaces the old one: instructions, kept user messages, the summary, undo points. */
export function buildReplacementHistory(parts: {
  initialContext: readonly ResponseItem[];
  keptUserMessages: readonly MessageItem[];
  summary: string;
  ghostSnapshots: readonly GhostSnapshotItem[];
}): ResponseItem[] {
  const summary: MessageItem = {
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: `${SUMMARY_PREFIX}\n${parts.summary}` }],
  };
  return [...parts.initialContext, ...parts.keptUserMessages, summary, ...parts.ghostSnapshots];
}

/**
 * Drops the oldest item after the initial context, together with its call/output partner, so a retry of
 * an overflowing summary request is smaller and still valid.
 */
export function trimOldestForRetry(history: readonly ResponseItem[]): {
  history: ResponseItem[];
  removed: number;
} {
  const start = collectInitialContext(history).length;
  const victim = history.slice(start).find((item) => item.type !== 'ghost_snapshot');
  if (!victim) return { history: [...history], removed: 0 };
  const callId =
    victim.type === 'function_call' || victim.type === 'function_call_output' ? victim.call_id : undefined;
  const result = history.filter((item) => {
    if (item === victim) return false;
    if (callId === undefined) return true;
    return !(
      (item.type === 'function_call' || item.type === 'function_call_output') &&
      item.call_id === callId
    );
  });
  return { history: result, removed: history.length - result.length };
}
