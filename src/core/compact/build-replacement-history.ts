import type { GhostSnapshotItem, MessageItem, ResponseItem } from '../../protocol/index.js';
import { summaryMessage } from '../rollout/index.js';

export { summaryMessage };

/** What a compacted history is made of. */
export interface ReplacementHistoryParts {
  /** The leading system/developer messages, verbatim. */
  initialContext: readonly ResponseItem[];
  /** The recent user messages kept (see `selectKeptUserMessages`), in chronological order. */
  keptUserMessages: readonly MessageItem[];
  /** The model's hand-over note (or the placeholder when it could not be had). */
  summary: string;
  /** Every undo point of the original history. */
  ghostSnapshots: readonly GhostSnapshotItem[];
}

/**
 * The history that replaces the old one: instructions, then the kept user messages, then the summary
 * (last, so the model reads the hand-over right before the next turn), then every ghost snapshot
 * (never sent, kept for undo). Contains no tool calls, so no call can lose its output.
 */
export function buildReplacementHistory(parts: ReplacementHistoryParts): ResponseItem[] {
  return [
    ...parts.initialContext,
    ...parts.keptUserMessages,
    summaryMessage(parts.summary),
    ...parts.ghostSnapshots,
  ];
}
