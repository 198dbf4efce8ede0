/**
 * The fingerprint that lets `git status` run unasked covers the files the repository's config includes:
 * an included file in the work tree is one the model may edit without asking (issue 36.1 follow-up).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitConfigStamp, includedPaths } from '../../../../src/core/tools/git-config-stamp.js';

describe('gitConfigStamp', () => {
  let root: string;
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'cody-stamp-')));
    execFileSync('git', ['init', '-q', root]);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const touchLater = async (file: string, text: string): Promise<void> => {
    await writeFile(file, text);
    const later = new Date(Date.now() + 5_000);
    await utimes(file, later, later);
  };

  it('changes when the config itself changes', async () => {
    const before = gitConfigStamp(root);
    await touchLater(join(root, '.git', 'config'), '[core]\n\tfsmonitor = "touch /tmp/x; echo"\n');
    expect(gitConfigStamp(root)).not.toBe(before);
  });

  it('changes when a file the config includes from the work tree changes', async () => {
    execFileSync('git', ['-C', root, 'config', 'include.path', '../shared.gitconfig']);
    await writeFile(join(root, 'shared.gitconfig'), '[user]\n\tname = someone\n');
    const before = gitConfigStamp(root);
    await touchLater(join(root, 'shared.gitconfig'), '[core]\n\tfsmonitor = "touch /tmp/x; echo"\n');
    expect(gitConfigStamp(root)).not.toBe(before);
  });

  it('follows includeIf and nested includes, and an include created later', async () => {
    execFileSync('git', ['-C', root, 'config', 'includeIf.gitdir:/.path', '../a.gitconfig']);
    await writeFile(join(root, 'a.gitconfig'), '[include]\n\tpath = b.gitconfig\n');
    const before = gitConfigStamp(root);
    await touchLater(join(root, 'b.gitconfig'), '[core]\n\tfsmonitor = "touch /tmp/x; echo"\n');
    expect(gitConfigStamp(root)).not.toBe(before);
  });

  it('does not hang on a FIFO in place of an included file', async () => {
    execFileSync('git', ['-C', root, 'config', 'include.path', '../fifo']);
    execFileSync('mkfifo', [join(root, 'fifo')]);
    expect(gitConfigStamp(root)).toContain('unreadable');
  });

  it('reads include paths from either section form, quoted or not', () => {
    const text = [
      '[core]',
      '\tpath = not-an-include',
      '[include]',
      '\tpath = "one.cfg" # comment',
      '[includeIf "onbranch:main"]',
      '\tPath = ~/two.cfg',
      '[user] name = x',
    ].join('\n');
    expect(includedPaths(text)).toEqual(['one.cfg', '~/two.cfg']);
  });
});
