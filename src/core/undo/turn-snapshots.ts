/** Which user turn each ghost snapshot belongs to, numbered from 1 in the live history. */
import type { ResponseItem } from '../../protocol/index.js';
import { ghostCommitOf } from './ghost-snapshot.js';
import { turnStarts } from './rollback.js';

export interface TurnSnapshot {
  /** 1-based user turn number. */
  turn: number;
  /** The snapshot taken before that turn changed files. */
  snapshot: string;
}

export function turnSnapshots(history: readonly ResponseItem[]): TurnSnapshot[] {
  const starts = turnStarts(history);
  const result: TurnSnapshot[] = [];
  history.forEach((item, index) => {
    if (item.type !== 'ghost_snapshot') return;
    const commit = ghostCommitOf(item);
    if (!commit) return;
    const turn = starts.filter((start) => start < index).length;
    // One snapshot per turn: the first is the state before the turn changed anything.
    if (result.some((entry) => entry.turn === turn)) return;
    result.push({ turn: Math.max(1, turn), snapshot: commit.id });
  });
  return result;
}
