/**
 * Ghost snapshots: a commit object of the work tree (tracked files plus untracked, non-ignored ones)
 * made with a temporary index (`GIT_INDEX_FILE`, `git add --all`, `write-tree`, `commit-tree`), so HEAD,
 * the index and the work tree are untouched. Recorded as a `ghost_snapshot` item in Codex's shape.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GhostSnapshotItem } from '../../protocol/index.js';
import { git, gitText } from './git.js';

/** Codex's `GhostCommit`. */
export interface GhostCommit {
  id: string;
  parent: string | null;
  preexisting_untracked_files: string[];
  preexisting_untracked_dirs: string[];
}

export function ghostCommitOf(item: GhostSnapshotItem): GhostCommit | undefined {
  const commit = item.ghost_commit;
  if (typeof commit.id !== 'string' || !/^[0-9a-f]{40,64}$/.test(commit.id)) return undefined;
  const strings = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
  return {
    id: commit.id,
    parent: typeof commit.parent === 'string' ? commit.parent : null,
    preexisting_untracked_files: strings(commit.preexisting_untracked_files),
    preexisting_untracked_dirs: strings(commit.preexisting_untracked_dirs),
  };
}

/** Runs `body` with a fresh temporary index file path. */
export async function withTemporaryIndex<T>(body: (indexFile: string) => Promise<T>): Promise<T> {
  const directory = await mkdtemp(join(tmpdir(), 'cody-index-'));
  try {
    return await body(join(directory, 'index'));
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** The tree of the work tree as it is now (tracked + untracked non-ignored files), via a temporary index. */
export async function workTreeTree(root: string): Promise<string> {
  return withTemporaryIndex(async (indexFile) => {
    const head = await headCommit(root);
    if (head !== null) await git(['read-tree', head], { cwd: root, indexFile });
    await git(['add', '--all', '--', '.'], { cwd: root, indexFile });
    return gitText(['write-tree'], { cwd: root, indexFile });
  });
}

export async function headCommit(root: string): Promise<string | null> {
  try {
    return await gitText(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: root });
  } catch {
    return null;
  }
}

export async function createGhostSnapshot(root: string): Promise<GhostSnapshotItem> {
  const parent = await headCommit(root);
  const tree = await workTreeTree(root);
  const id = await gitText(
    ['commit-tree', tree, ...(parent !== null ? ['-p', parent] : []), '-m', 'cody snapshot'],
    { cwd: root },
  );
  const untracked = (await git(['ls-files', '-z', '--others', '--exclude-standard'], { cwd: root }))
    .toString('utf8')
    .split('\0')
    .filter((name) => name !== '');
  const commit: GhostCommit = {
    id,
    parent,
    preexisting_untracked_files: untracked,
    preexisting_untracked_dirs: [],
  };
  return { type: 'ghost_snapshot', ghost_commit: { ...commit } };
}
