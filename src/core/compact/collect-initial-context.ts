import type { GhostSnapshotItem, MessageItem, ResponseItem } from '../../protocol/index.js';

/**
 * The leading system and developer messages: the instructions every prompt starts with, kept verbatim
 * by compaction. Stops at the first item of any other kind.
 */
export function collectInitialContext(history: readonly ResponseItem[]): MessageItem[] {
  const initial: MessageItem[] = [];
  for (const item of history) {
    if (item.type !== 'message' || (item.role !== 'system' && item.role !== 'developer')) break;
    initial.push(item);
  }
  return initial;
}

/** Every ghost snapshot (undo point) in `history`, in order; compaction keeps them all. */
export function collectGhostSnapshots(history: readonly ResponseItem[]): GhostSnapshotItem[] {
  return history.filter((item): item is GhostSnapshotItem => item.type === 'ghost_snapshot');
}
