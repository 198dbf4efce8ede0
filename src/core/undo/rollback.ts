/**
 * Rolling a conversation back over turns: which ghost snapshot an undo restores, and the history after
 * a `thread_rolled_back` event (Codex's name and `num_turns` field), applied the same way on resume.
 */
import type { GhostSnapshotItem, ResponseItem } from '../../protocol/index.js';
import { isRealUserMessage } from '../compact/is-summary-message.js';
import { messageText } from '../compact/message-text.js';
import { isContextualUserText } from '../rollout/is-contextual-user-text.js';

/** Indices of the messages that start a user turn. */
export function turnStarts(history: readonly ResponseItem[]): number[] {
  const starts: number[] = [];
  history.forEach((item, index) => {
    if (isRealUserMessage(item) && !isContextualUserText(messageText(item))) starts.push(index);
  });
  return starts;
}

/** The history without its last `turns` user turns. */
export function dropLastTurns(history: readonly ResponseItem[], turns: number): ResponseItem[] {
  if (turns <= 0) return [...history];
  const starts = turnStarts(history);
  const cut = starts.length >= turns ? (starts[starts.length - turns] ?? 0) : (starts[0] ?? history.length);
  return history.slice(0, cut);
}

export interface UndoPlan {
  snapshot: GhostSnapshotItem;
  /** User turns dropped from the history (from the snapshot's turn to the end). */
  turns: number;
  /** Snapshots available in all. */
  available: number;
}

/**
 * Undoing N turns restores the N-th last snapshot (turns that changed no files have none) and drops
 * every turn from the one that snapshot began. Undefined when there are fewer than N snapshots.
 */
export function planUndo(history: readonly ResponseItem[], count: number): UndoPlan | undefined {
  const snapshots: number[] = [];
  history.forEach((item, index) => {
    if (item.type === 'ghost_snapshot') snapshots.push(index);
  });
  const index = snapshots[snapshots.length - count];
  if (index === undefined || count < 1) return undefined;
  const starts = turnStarts(history);
  const turns = starts.filter(
    (start) => start >= (starts.filter((value) => value < index).pop() ?? 0),
  ).length;
  return {
    snapshot: history[index] as GhostSnapshotItem,
    turns: Math.max(1, turns),
    available: snapshots.length,
  };
}
