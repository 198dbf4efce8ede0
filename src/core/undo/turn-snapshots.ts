/**
 * The turns of the live history that took a ghost snapshot, numbered from 1, with their change sets:
 * from the `turn_changes` record written at the end of the turn, or (rollouts written before it existed,
 * or a turn whose process died) from the snapshot to the next turn's snapshot, or to the work tree.
 */
import { readFile } from 'node:fs/promises';
import type { ResponseItem } from '../../protocol/index.js';
import { lineOrUndefined, payloadRecord } from '../rollout/index.js';
import { codyEventOf } from '../rollout/index.js';
import { ghostCommitOf, workTreeTree } from './ghost-snapshot.js';
import { changedFiles, type FileChange } from './restore.js';
import { turnStarts } from '../rollout/index.js';
import { turnChangesOf, type TurnChangesPayload } from './turn-changes.js';

export interface TurnSnapshot {
  /** 1-based user turn number. */
  turn: number;
  /** The snapshot taken before that turn changed files. */
  snapshot: string;
}

export interface TurnChangeSet extends TurnSnapshot {
  /** The snapshot as the turn left the work tree; undefined: the work tree now (no record, last turn). */
  after: string | undefined;
  /** The paths whose content differs between `snapshot` and `after`. */
  files: FileChange[];
}

export function turnSnapshots(history: readonly ResponseItem[]): TurnSnapshot[] {
  const starts = turnStarts(history);
  const result: TurnSnapshot[] = [];
  history.forEach((item, index) => {
    if (item.type !== 'ghost_snapshot') return;
    const commit = ghostCommitOf(item);
    if (!commit) return;
    const turn = Math.max(1, starts.filter((start) => start < index).length);
    // One snapshot per turn: the first is the state before the turn changed anything.
    if (result.some((entry) => entry.turn === turn)) return;
    result.push({ turn, snapshot: commit.id });
  });
  return result;
}

/** The `turn_changes` records of a rollout, by the snapshot they start from. */
export async function readTurnChanges(filePath: string): Promise<Map<string, TurnChangesPayload>> {
  const records = new Map<string, TurnChangesPayload>();
  const text = await readFile(filePath, 'utf8');
  for (const line of text.split('\n')) {
    if (!line.includes('"cody_turn_changes"')) continue;
    const parsed = lineOrUndefined(line);
    if (!parsed) continue;
    const event = codyEventOf(parsed.type, payloadRecord(parsed));
    const record = event?.kind === 'turn_changes' ? turnChangesOf(event.payload) : undefined;
    if (record) records.set(record.before, record);
  }
  return records;
}

/** Every snapshotted turn with its change set (empty for a turn that changed nothing). */
export async function turnChangeSets(
  root: string,
  history: readonly ResponseItem[],
  records: ReadonlyMap<string, TurnChangesPayload>,
): Promise<TurnChangeSet[]> {
  const snapshots = turnSnapshots(history);
  const sets: TurnChangeSet[] = [];
  for (const [index, entry] of snapshots.entries()) {
    const record = records.get(entry.snapshot);
    if (record) {
      sets.push({ ...entry, after: record.after, files: record.files });
      continue;
    }
    const after = snapshots[index + 1]?.snapshot;
    const files = await changedFiles(root, entry.snapshot, after ?? (await workTreeTree(root)));
    sets.push({ ...entry, after, files });
  }
  return sets;
}

/** The turns that changed files: a turn with an empty change set (`ls`, `git status`) is not one. */
export function withChanges(sets: readonly TurnChangeSet[]): TurnChangeSet[] {
  return sets.filter((set) => set.files.length > 0);
}
