import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createGhostSnapshot,
  ghostCommitOf,
  workTreeTree,
} from '../../../../src/core/undo/ghost-snapshot.js';
import { changedFiles, type FileChange } from '../../../../src/core/undo/restore.js';
import { applyRestore, planRestore, treeEntries } from '../../../../src/core/undo/selective-restore.js';
import { diffStat, formatDiffStat, unifiedDiff } from '../../../../src/core/undo/turn-diff.js';

/** Undoes what happened since snapshot `before` (one turn whose end is now), as `cody undo` does. */
async function undoSince(root: string, before: string): Promise<FileChange[]> {
  const after = String((await createGhostSnapshot(root)).ghost_commit.id);
  const changes = await changedFiles(root, before, after);
  const now = await treeEntries(root, await workTreeTree(root));
  const turn = {
    before: await treeEntries(root, before),
    after: await treeEntries(root, after),
    paths: changes.map((change) => change.path),
  };
  await applyRestore(root, planRestore([turn], now, false).writes);
  return changes;
}

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });

describe('ghost snapshots', () => {
  let root: string;
  const binary = Buffer.from([0, 1, 2, 255, 254, 0, 10, 13]);
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'cody-ghost-')));
    git(root, 'init', '-q');
    await writeFile(join(root, '.gitignore'), 'build/\n');
    await writeFile(join(root, 'keep.txt'), 'keep\n');
    await writeFile(join(root, 'change.txt'), 'one\ntwo\n');
    await writeFile(join(root, 'remove.txt'), 'remove me\n');
    await writeFile(join(root, 'image.bin'), binary);
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'init');
    await writeFile(join(root, 'untracked-before.txt'), 'mine\n');
    await mkdir(join(root, 'build'));
    await writeFile(join(root, 'build/out.js'), 'ignored\n');
    await writeFile(join(root, 'change.txt'), 'one\ntwo\nstaged\n');
    git(root, 'add', 'change.txt');
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('leaves HEAD, the index and the work tree untouched, and records Codex’s shape', async () => {
    const head = git(root, 'rev-parse', 'HEAD');
    const index = await readFile(join(root, '.git/index'));
    const status = git(root, 'status', '--porcelain');
    const item = await createGhostSnapshot(root);
    expect(git(root, 'rev-parse', 'HEAD')).toBe(head);
    expect(await readFile(join(root, '.git/index'))).toEqual(index);
    expect(git(root, 'status', '--porcelain')).toBe(status);
    const commit = ghostCommitOf(item);
    expect(commit?.parent).toBe(head.trim());
    expect(Object.keys(item.ghost_commit).sort()).toEqual([
      'id',
      'parent',
      'preexisting_untracked_dirs',
      'preexisting_untracked_files',
    ]);
    expect(item.ghost_commit.preexisting_untracked_files).toEqual(['untracked-before.txt']);
    // The snapshot holds the work tree as it is, untracked (non-ignored) files included.
    expect(git(root, 'show', `${commit?.id ?? ''}:change.txt`)).toBe('one\ntwo\nstaged\n');
    expect(git(root, 'show', `${commit?.id ?? ''}:untracked-before.txt`)).toBe('mine\n');
    expect(() => git(root, 'show', `${commit?.id ?? ''}:build/out.js`)).toThrow();
  });

  it('restores created, modified, deleted and binary files byte for byte; pre-existing untracked and ignored files stay', async () => {
    const item = await createGhostSnapshot(root);
    const id = ghostCommitOf(item)?.id ?? '';
    const indexBefore = await readFile(join(root, '.git/index'));
    // What a turn does.
    await writeFile(join(root, 'change.txt'), 'ONE\n');
    await unlink(join(root, 'remove.txt'));
    await mkdir(join(root, 'new/deep'), { recursive: true });
    await writeFile(join(root, 'new/deep/created.txt'), 'created\n');
    await writeFile(join(root, 'image.bin'), Buffer.from([9, 9, 9]));
    await writeFile(join(root, 'build/out.js'), 'rebuilt\n');

    const stat = await diffStat(root, id);
    expect(formatDiffStat(stat)).toBe('4 files changed, +2 \u22124');
    expect(stat.files.find((file) => file.path === 'image.bin')).toMatchObject({
      binary: true,
      status: 'modified',
    });
    const diff = await unifiedDiff(root, id);
    expect(diff).toContain('+++ b/new/deep/created.txt');
    expect(diff).toContain('-one\n-two\n-staged\n+ONE\n');

    const changes = await undoSince(root, id);
    expect(changes.map((change) => `${change.status} ${change.path}`).sort()).toEqual([
      'added new/deep/created.txt',
      'deleted remove.txt',
      'modified change.txt',
      'modified image.bin',
    ]);
    expect(await readFile(join(root, 'change.txt'), 'utf8')).toBe('one\ntwo\nstaged\n');
    expect(await readFile(join(root, 'remove.txt'), 'utf8')).toBe('remove me\n');
    expect(await readFile(join(root, 'image.bin'))).toEqual(binary);
    expect(existsSync(join(root, 'new'))).toBe(false);
    expect(await readFile(join(root, 'untracked-before.txt'), 'utf8')).toBe('mine\n');
    expect(await readFile(join(root, 'build/out.js'), 'utf8')).toBe('rebuilt\n');
    expect(await readFile(join(root, '.git/index'))).toEqual(indexBefore);
  });

  it('works in a repository with no commit yet', async () => {
    const fresh = await realpath(await mkdtemp(join(tmpdir(), 'cody-ghost-empty-')));
    try {
      git(fresh, 'init', '-q');
      await writeFile(join(fresh, 'a.txt'), 'a\n');
      const item = await createGhostSnapshot(fresh);
      expect(item.ghost_commit.parent).toBeNull();
      await writeFile(join(fresh, 'a.txt'), 'b\n');
      await writeFile(join(fresh, 'b.txt'), 'new\n');
      await undoSince(fresh, String(item.ghost_commit.id));
      expect(await readFile(join(fresh, 'a.txt'), 'utf8')).toBe('a\n');
      expect(existsSync(join(fresh, 'b.txt'))).toBe(false);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });
});
