/**
 * `cody undo` byte for byte (issue 9): a turn that modifies a text file, rewrites a binary one, deletes
 * a tracked file and creates text and binary files is undone exactly — created files removed, changed
 * and deleted ones restored to the byte, the person's pre-existing untracked file left as it was, HEAD
 * and the index untouched — and `cody diff` lists each change.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { makeRepo } from './tool-fixtures.js';

/** Every byte value, twice, NULs included: what git would call binary. */
const BINARY = Buffer.from([...Array.from({ length: 256 }, (_, index) => index), 0, 0, 255, 10, 13]);

describe('undo restores files byte for byte (e2e)', () => {
  let harness: Harness;
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: harness.home, encoding: 'utf8' }).trim();
  beforeEach(async () => {
    harness = await createHarness();
    await makeRepo(harness.home);
    await writeFile(join(harness.home, 'logo.bin'), BINARY);
    await writeFile(join(harness.home, 'gone.txt'), 'to be deleted\n');
    execFileSync('git', ['add', 'logo.bin', 'gone.txt'], { cwd: harness.home });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'more'], {
      cwd: harness.home,
    });
    await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-4o-mini' });
  });
  afterEach(async () => {
    await harness.close();
  });

  it('created, modified, deleted and binary files; a pre-existing untracked file is left alone', async () => {
    const head = git('rev-parse', 'HEAD');
    const index = git('ls-files', '--stage');
    const command = [
      'rm gone.txt',
      "printf 'changed\\000bytes' > logo.bin",
      'echo more >> a.txt',
      "printf 'new\\001\\002' > created.bin",
      'mkdir -p sub && echo hi > sub/created.txt',
    ].join(' && ');
    harness.server.enqueue(
      { type: 'reply', toolCalls: [{ id: 'call_1', name: 'shell', arguments: { command } }] },
      { type: 'reply', text: 'Changed things.' },
    );
    const run = await harness.cody(['chat', '--approval', 'full-auto', 'change things']);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(harness.home, 'gone.txt'))).toBe(false);

    const diff = JSON.parse((await harness.cody(['diff', '--json'])).stdout) as {
      files: Array<{ path: string; status: string }>;
    };
    expect(diff.files.map((file) => `${file.status} ${file.path}`).sort()).toEqual([
      'added created.bin',
      'added sub/created.txt',
      'deleted gone.txt',
      'modified a.txt',
      'modified logo.bin',
    ]);
    const text = (await harness.cody(['diff'])).stdout;
    expect(text).toContain('+more');
    expect(text).toContain('-to be deleted');

    const undo = await harness.cody(['undo']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(await readFile(join(harness.home, 'a.txt'), 'utf8')).toBe('alpha\nbeta\n');
    expect((await readFile(join(harness.home, 'logo.bin'))).equals(BINARY)).toBe(true);
    expect(await readFile(join(harness.home, 'gone.txt'), 'utf8')).toBe('to be deleted\n');
    expect(existsSync(join(harness.home, 'created.bin'))).toBe(false);
    expect(existsSync(join(harness.home, 'sub', 'created.txt'))).toBe(false);
    expect(await readFile(join(harness.home, 'untracked-before.txt'), 'utf8')).toBe('mine\n');
    // The person's git state was never touched: same HEAD, same index, a clean tree again.
    expect(git('rev-parse', 'HEAD')).toBe(head);
    expect(git('ls-files', '--stage')).toBe(index);
    expect(git('status', '--porcelain')).toBe('?? untracked-before.txt');
  });
});
