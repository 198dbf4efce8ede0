/**
 * Undo that takes back only what Cody did. Each path of a turn's change set goes back to its content
 * before the turn only while it still holds what the turn left; a path changed since (by the person or
 * anything else) is kept, unless forced. Planned in memory over `mode id` keys of the trees involved,
 * then applied with one temporary index, so nothing outside the change sets is ever written.
 */
import { dirname, join } from 'node:path';
import { removeChecked, removeDirectoryChecked } from '../tools/index.js';
import { git } from './git.js';
import { withTemporaryIndex } from './ghost-snapshot.js';

/** A tree's files: path → `mode id` (gitlinks left out: a submodule is never restored). */
export type TreeEntries = Map<string, string>;

export async function treeEntries(root: string, treeish: string): Promise<TreeEntries> {
  const raw = (await git(['ls-tree', '-r', '-z', '--full-tree', treeish], { cwd: root })).toString('utf8');
  const entries: TreeEntries = new Map();
  for (const record of raw.split('\0')) {
    const match = /^(\d+) (\w+) ([0-9a-f]+)\t([\s\S]+)$/.exec(record);
    if (match && match[2] === 'blob') entries.set(match[4] ?? '', `${match[1] ?? ''} ${match[3] ?? ''}`);
  }
  return entries;
}

export interface TurnRestore {
  before: TreeEntries;
  after: TreeEntries;
  /** The turn's change set. */
  paths: readonly string[];
}

export interface RestorePlan {
  /** Path → the `mode id` to write, or null to remove the file. */
  writes: Map<string, string | null>;
  /** Written back to their content before the turn(s). */
  restored: string[];
  /** Created by the turn(s), removed. */
  removed: string[];
  /** Changed since the turn: left as they are. */
  kept: string[];
  /** Changed since the turn, restored anyway (force). */
  overwritten: string[];
}

/**
 * Plans undoing `turns` (newest first) from the work tree `now`. A path is restored only while its
 * current content is what the turn left (`after`); already as `before` means nothing to do.
 */
export function planRestore(turns: readonly TurnRestore[], now: TreeEntries, force: boolean): RestorePlan {
  const state = new Map<string, string | null>();
  const current = (path: string): string | null =>
    state.has(path) ? (state.get(path) ?? null) : (now.get(path) ?? null);
  const kept = new Set<string>();
  const overwritten = new Set<string>();
  for (const turn of turns) {
    for (const path of turn.paths) {
      const before = turn.before.get(path) ?? null;
      const content = current(path);
      if (content === before) continue;
      if (content !== (turn.after.get(path) ?? null)) {
        if (!force) {
          kept.add(path);
          continue;
        }
        overwritten.add(path);
      }
      state.set(path, before);
    }
  }
  const writes = new Map<string, string | null>();
  for (const [path, target] of state) if (target !== (now.get(path) ?? null)) writes.set(path, target);
  const sorted = (paths: Iterable<string>): string[] => [...paths].sort();
  return {
    writes,
    restored: sorted([...writes].filter(([, target]) => target !== null).map(([path]) => path)),
    removed: sorted([...writes].filter(([, target]) => target === null).map(([path]) => path)),
    kept: sorted([...kept].filter((path) => !writes.has(path))),
    overwritten: sorted([...overwritten].filter((path) => writes.has(path))),
  };
}

/** Writes the plan: removals first (with the directories they leave empty), then contents byte for byte. */
export async function applyRestore(root: string, writes: ReadonlyMap<string, string | null>): Promise<void> {
  const contents: string[] = [];
  for (const [path, target] of writes) {
    if (target !== null) {
      contents.push(`${target.replace(' ', ' blob ')}\t${path}`);
      continue;
    }
    // Never through a link that replaced a directory since (checked-files).
    await removeChecked(join(root, path));
    await removeEmptyParents(root, dirname(path));
  }
  if (contents.length === 0) return;
  await withTemporaryIndex(async (indexFile) => {
    await git(['update-index', '-z', '--index-info'], {
      cwd: root,
      indexFile,
      input: `${contents.join('\0')}\0`,
    });
    const paths = [...writes].filter(([, target]) => target !== null).map(([path]) => path);
    await git(['checkout-index', '-f', '-z', '--stdin'], {
      cwd: root,
      indexFile,
      input: `${paths.join('\0')}\0`,
    });
  });
}

export async function removeEmptyParents(root: string, directory: string): Promise<void> {
  for (
    let current = directory;
    current !== '.' && current !== '' && current !== '/';
    current = dirname(current)
  ) {
    try {
      await removeDirectoryChecked(join(root, current));
    } catch {
      return;
    }
  }
}
