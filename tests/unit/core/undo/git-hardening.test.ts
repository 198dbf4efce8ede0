/**
 * Cody's own git runs nothing the repository configures (issue 36): for each way a repository's config
 * (or a file it includes, or its hooks) can name a program, a snapshot, a diff, an undo and a file list
 * run, and the program's marker file is never created, while the snapshot and the undo still work.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGhostSnapshot } from '../../../../src/core/undo/ghost-snapshot.js';
import { changedFiles } from '../../../../src/core/undo/restore.js';
import { applyRestore, planRestore, treeEntries } from '../../../../src/core/undo/selective-restore.js';
import { unifiedDiff } from '../../../../src/core/undo/turn-diff.js';
import { workTreeTree } from '../../../../src/core/undo/ghost-snapshot.js';
import { listFiles } from '../../../../src/core/tools/file-search.js';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });

/** Hooks any of Cody's git commands could conceivably start. */
const HOOKS = [
  'post-index-change',
  'reference-transaction',
  'post-checkout',
  'pre-commit',
  'post-commit',
  'pre-auto-gc',
];

let root: string;
/** Outside the work tree: the markers, scripts, a linked worktree. */
let scratch: string;
let markers: string;
/** A shell command that leaves a marker named `name`, then passes its input through (a filter's job). */
const touch = (name: string): string => `touch ${join(markers, name)}; cat`;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'cody-git-harden-')));
  scratch = await realpath(await mkdtemp(join(tmpdir(), 'cody-git-scratch-')));
  markers = join(scratch, 'markers');
  await mkdir(markers);
  git(root, 'init', '-q');
  await writeFile(join(root, 'a.txt'), 'one\n');
  await writeFile(join(root, 'b.dat'), 'data\n');
  git(root, 'add', '.');
  git(root, 'commit', '-qm', 'init');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
});

const setConfig = (key: string, value: string, file?: string): void => {
  git(root, 'config', ...(file !== undefined ? ['--file', file] : []), key, value);
};

/** A snapshot, a turn's edits, a second snapshot, the diff, the undo and a file list, as Cody runs them. */
async function exercise(): Promise<void> {
  const before = String((await createGhostSnapshot(root)).ghost_commit.id);
  await writeFile(join(root, 'a.txt'), 'two\n');
  await writeFile(join(root, 'b.dat'), 'changed\n');
  await writeFile(join(root, 'new.txt'), 'new\n');
  const after = String((await createGhostSnapshot(root)).ghost_commit.id);
  expect(await unifiedDiff(root, before, after)).toContain('-one\n+two\n');
  const changes = await changedFiles(root, before, after);
  const now = await treeEntries(root, await workTreeTree(root));
  const turn = {
    before: await treeEntries(root, before),
    after: await treeEntries(root, after),
    paths: changes.map((change) => change.path),
  };
  await applyRestore(root, planRestore([turn], now, false).writes);
  expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('one\n');
  expect(await readFile(join(root, 'b.dat'), 'utf8')).toBe('data\n');
  expect(existsSync(join(root, 'new.txt'))).toBe(false);
  expect(await listFiles(root)).toContain(join(root, 'a.txt'));
}

async function expectNoMarker(): Promise<void> {
  await exercise();
  expect(await readdir(markers)).toEqual([]);
}

describe("Cody's own git runs nothing the repository configures", () => {
  it('core.fsmonitor (the issue’s repro)', async () => {
    setConfig('core.fsmonitor', `touch ${join(markers, 'fsmonitor')}; echo`);
    await expectNoMarker();
  });

  it('hooks, in .git/hooks and under core.hooksPath', async () => {
    const hooksPath = join(root, 'my-hooks');
    await mkdir(hooksPath);
    for (const [directory, tag] of [
      [join(root, '.git/hooks'), 'default'],
      [hooksPath, 'hookspath'],
    ] as const) {
      for (const hook of HOOKS) {
        await writeFile(join(directory, hook), `#!/bin/sh\ntouch ${join(markers, `${tag}-${hook}`)}\n`);
        await chmod(join(directory, hook), 0o755);
      }
    }
    await expectNoMarker();
    setConfig('core.hooksPath', hooksPath);
    await expectNoMarker();
  });

  it('clean and smudge filters named by .gitattributes', async () => {
    await commitAttributes('*.txt filter=evil\n');
    setConfig('filter.evil.clean', touch('clean'));
    setConfig('filter.evil.smudge', touch('smudge'));
    await expectNoMarker();
  });

  it('a long-running process filter, named by .git/info/attributes', async () => {
    await writeFile(join(root, '.git/info/attributes'), '*.dat filter=proc\n');
    setConfig('filter.proc.process', `touch ${join(markers, 'process')}`);
    setConfig('filter.proc.required', 'false');
    await expectNoMarker();
  });

  it('textconv and an external diff driver', async () => {
    await commitAttributes('*.txt diff=conv\n');
    setConfig('diff.conv.textconv', `sh -c 'touch ${join(markers, 'textconv')}; cat "$1"' -`);
    setConfig('diff.conv.command', `touch ${join(markers, 'diff-command')}; true`);
    await expectNoMarker();
  });

  it('diff.external', async () => {
    setConfig('diff.external', await script('external'));
    await expectNoMarker();
  });

  it('aliases, pagers and a credential helper', async () => {
    for (const command of ['add', 'diff-tree', 'ls-files', 'read-tree', 'write-tree', 'rev-parse'])
      setConfig(`alias.${command}`, `!touch ${join(markers, `alias-${command}`)}`);
    setConfig('core.pager', touch('core-pager'));
    setConfig('pager.diff-tree', touch('pager'));
    setConfig('credential.helper', `!touch ${join(markers, 'credential')}`);
    await expectNoMarker();
  });

  it('include.path pointing to a file in the work tree that holds them', async () => {
    const included = join(root, 'settings.gitconfig');
    await commitAttributes('*.txt filter=evil diff=conv\n');
    setConfig('core.fsmonitor', `touch ${join(markers, 'fsmonitor')}; echo`, included);
    setConfig('filter.evil.clean', touch('clean'), included);
    setConfig('filter.evil.smudge', touch('smudge'), included);
    setConfig('diff.conv.textconv', touch('textconv'), included);
    git(root, 'add', 'settings.gitconfig');
    git(root, 'commit', '-qm', 'settings');
    setConfig('include.path', '../settings.gitconfig');
    await expectNoMarker();
  });

  it('core.worktree pointing elsewhere: the snapshot and the undo stay on the work tree', async () => {
    const elsewhere = join(scratch, 'elsewhere');
    await mkdir(elsewhere);
    setConfig('core.worktree', elsewhere);
    await expectNoMarker();
    expect(await readdir(elsewhere)).toEqual([]);
  });

  it('a linked worktree (`.git` is a gitdir: file) with core.fsmonitor in the common config', async () => {
    const linked = join(scratch, 'linked');
    git(root, 'worktree', 'add', '-q', linked);
    const main = root;
    try {
      root = await realpath(linked);
      setConfig('core.fsmonitor', `touch ${join(markers, 'fsmonitor')}; echo`);
      await expectNoMarker();
    } finally {
      root = main;
    }
  });
});

async function commitAttributes(text: string): Promise<void> {
  await writeFile(join(root, '.gitattributes'), text);
  git(root, 'add', '.gitattributes');
  git(root, 'commit', '-qm', 'attributes');
}

async function script(name: string): Promise<string> {
  const path = join(scratch, `${name}.sh`);
  await writeFile(path, `#!/bin/sh\ntouch ${join(markers, name)}\n`);
  await chmod(path, 0o755);
  return path;
}

describe("Cody's own git keeps what only describes content", () => {
  it('info/exclude and a core.excludesFile from the repository config still keep files out of snapshots', async () => {
    await writeFile(join(root, '.git/info/exclude'), 'local-only.txt\n');
    await writeFile(join(scratch, 'ignore'), 'elsewhere-ignored.txt\n');
    setConfig('core.excludesFile', join(scratch, 'ignore'));
    for (const name of ['local-only.txt', 'elsewhere-ignored.txt', 'kept.txt'])
      await writeFile(join(root, name), 'x\n');
    const id = String((await createGhostSnapshot(root)).ghost_commit.id);
    expect([...(await treeEntries(root, id)).keys()].sort()).toEqual(['a.txt', 'b.dat', 'kept.txt']);
  });

  it('a sha256 repository', async () => {
    const sha256 = join(scratch, 'sha256');
    await mkdir(sha256);
    git(sha256, 'init', '-q', '--object-format=sha256');
    await writeFile(join(sha256, 'f.txt'), 'f\n');
    git(sha256, 'add', '.');
    git(sha256, 'commit', '-qm', 'init');
    await writeFile(join(sha256, 'f.txt'), 'g\n');
    const item = await createGhostSnapshot(sha256);
    expect(String(item.ghost_commit.id)).toMatch(/^[0-9a-f]{64}$/);
    expect(git(sha256, 'show', `${String(item.ghost_commit.id)}:f.txt`)).toBe('g\n');
  });
});
