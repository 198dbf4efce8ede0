/**
 * A turn's change set: the paths whose content differs between the ghost snapshot taken before the turn
 * and the one taken after it. Recorded at the end of every turn that took a snapshot, as a Cody event
 * (`cody_turn_changes`, see codex-lines.ts), so undo and diff never mistake a person's later edit (made
 * between turns) for something the turn did.
 */
import { createGhostSnapshot } from './ghost-snapshot.js';
import { changedFiles, type FileChange } from './restore.js';

/** The `turn_changes` event, as written after the turn (on disk: `cody_turn_changes`). */
export type TurnChangesPayload = {
  type: 'turn_changes';
  /** The ghost snapshot taken before the turn's first call that may change files. */
  before: string;
  /** The snapshot of the work tree as the turn left it. */
  after: string;
  /** Exactly what differs between `before` and `after`; empty for a turn that changed nothing. */
  files: FileChange[];
};

/** Snapshots the work tree as the turn left it and lists what differs from `before`. */
export async function takeTurnChanges(root: string, before: string): Promise<TurnChangesPayload> {
  const snapshot = await createGhostSnapshot(root);
  const after = String(snapshot.ghost_commit.id);
  return { type: 'turn_changes', before, after, files: await changedFiles(root, before, after) };
}

/** A recorded `turn_changes` payload, checked; undefined when malformed. */
export function turnChangesOf(payload: Record<string, unknown>): TurnChangesPayload | undefined {
  const { before, after, files } = payload;
  const id = (value: unknown): value is string =>
    typeof value === 'string' && /^[0-9a-f]{40,64}$/.test(value);
  if (!id(before) || !id(after) || !Array.isArray(files)) return undefined;
  const checked: FileChange[] = [];
  for (const file of files as unknown[]) {
    if (typeof file !== 'object' || file === null) return undefined;
    const { status, path } = file as Record<string, unknown>;
    if (typeof path !== 'string' || (status !== 'added' && status !== 'modified' && status !== 'deleted'))
      return undefined;
    checked.push({ status, path });
  }
  return { type: 'turn_changes', before, after, files: checked };
}
