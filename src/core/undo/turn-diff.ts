/** What a turn changed: a unified diff and per-file line counts between two snapshots (or the work tree). */
import { git, gitText } from './git.js';
import { workTreeTree } from './ghost-snapshot.js';

export interface DiffFile {
  path: string;
  status: 'added' | 'modified' | 'deleted';
  /** Lines added/removed; undefined for binary files. */
  added?: number;
  removed?: number;
  binary: boolean;
}

export interface DiffStat {
  files: DiffFile[];
  added: number;
  removed: number;
}

/** `to` undefined: the work tree as it is now. */
async function treeOf(root: string, commitOrUndefined: string | undefined): Promise<string> {
  if (commitOrUndefined === undefined) return workTreeTree(root);
  return gitText(['rev-parse', `${commitOrUndefined}^{tree}`], { cwd: root });
}

export async function unifiedDiff(root: string, from: string, to?: string): Promise<string> {
  const [a, b] = [await treeOf(root, from), await treeOf(root, to)];
  return (
    await git(
      ['diff-tree', '-p', '--no-color', '--no-ext-diff', '--no-textconv', '--binary', '--no-renames', a, b],
      { cwd: root },
    )
  ).toString('utf8');
}

export async function diffStat(root: string, from: string, to?: string): Promise<DiffStat> {
  const [a, b] = [await treeOf(root, from), await treeOf(root, to)];
  const numstat = (
    await git(['diff-tree', '-r', '-z', '--no-renames', '--numstat', a, b], { cwd: root })
  ).toString('utf8');
  const status = (await git(['diff-tree', '-r', '-z', '--no-renames', '--name-status', a, b], { cwd: root }))
    .toString('utf8')
    .split('\0');
  const statusOf = new Map<string, DiffFile['status']>();
  for (let index = 0; index + 1 < status.length; index += 2) {
    const code = status[index] ?? '';
    statusOf.set(
      status[index + 1] ?? '',
      code.startsWith('A') ? 'added' : code.startsWith('D') ? 'deleted' : 'modified',
    );
  }
  const files: DiffFile[] = [];
  for (const record of numstat.split('\0')) {
    const match = /^(-|\d+)\t(-|\d+)\t([\s\S]*)$/.exec(record);
    if (!match) continue;
    const path = match[3] ?? '';
    const binary = match[1] === '-';
    files.push({
      path,
      status: statusOf.get(path) ?? 'modified',
      binary,
      ...(binary ? {} : { added: Number(match[1]), removed: Number(match[2]) }),
    });
  }
  return {
    files,
    added: files.reduce((sum, file) => sum + (file.added ?? 0), 0),
    removed: files.reduce((sum, file) => sum + (file.removed ?? 0), 0),
  };
}

/** `3 files changed, +12 −4` */
export function formatDiffStat(stat: DiffStat): string {
  const count = stat.files.length;
  return `${count} file${count === 1 ? '' : 's'} changed, +${stat.added} \u2212${stat.removed}`;
}
