/** What differs between two snapshots (commits or trees), as files: a turn's change set is built from it. */
import { git } from './git.js';

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
