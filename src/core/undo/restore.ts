/**
 * Restores the work tree to a ghost snapshot: files created since are removed, changed and deleted ones
 * come back byte for byte, ignored files (never in a snapshot) are left alone. HEAD and the index are
 * untouched: the snapshot is checked out through a temporary index.
 */
import { rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { git, gitText } from './git.js';
import { withTemporaryIndex, workTreeTree } from './ghost-snapshot.js';

export interface FileChange {
  status: 'added' | 'modified' | 'deleted';
  path: string;
}

/** What differs between two trees (or commits), as files. */
export async function changedFiles(root: string, from: string, to: string): Promise<FileChange[]> {
  const raw = (await git(['diff-tree', '-r', '-z', '--no-renames', '--name-status', from, to], { cwd: root }))
    .toString('utf8')
    .split('\0');
  const changes: FileChange[] = [];
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const code = raw[index] ?? '';
    const path = raw[index + 1] ?? '';
    if (code === '') continue;
    changes.push({
      status: code.startsWith('A') ? 'added' : code.startsWith('D') ? 'deleted' : 'modified',
      path,
    });
  }
  return changes;
}

/** Puts the work tree back as it was in `snapshot` (a commit id); returns what was changed. */
export async function restoreSnapshot(root: string, snapshot: string): Promise<FileChange[]> {
  const snapshotTree = await gitText(['rev-parse', `${snapshot}^{tree}`], { cwd: root });
  const now = await workTreeTree(root);
  const changes = await changedFiles(root, snapshotTree, now);
  const restore = changes.filter((change) => change.status !== 'added').map((change) => change.path);
  for (const change of changes.filter((entry) => entry.status === 'added')) {
    await rm(join(root, change.path), { force: true });
    await removeEmptyParents(root, dirname(change.path));
  }
  if (restore.length > 0) {
    await withTemporaryIndex(async (indexFile) => {
      await git(['read-tree', snapshotTree], { cwd: root, indexFile });
      await git(['checkout-index', '-f', '-z', '--stdin'], {
        cwd: root,
        indexFile,
        input: `${restore.join('\0')}\0`,
      });
    });
  }
  return changes;
}

async function removeEmptyParents(root: string, directory: string): Promise<void> {
  for (
    let current = directory;
    current !== '.' && current !== '' && current !== '/';
    current = dirname(current)
  ) {
    try {
      await rmdir(join(root, current));
    } catch {
      return;
    }
  }
}
