/**
 * read_file reads regular files only, up to a cap: a FIFO in the workspace (made by a command, or by
 * whoever wrote the repository) is refused at once instead of hanging the turn (issue 36.5's rule for
 * the files Cody reads, applied to the model's own reads); a device is refused; a missing file says so.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileTool } from '../../../../src/core/tools/file-tools.js';
import { openWorkspace } from '../../../../src/core/tools/workspace.js';
import type { ToolResult } from '../../../../src/core/tools/tool-decision.js';

describe('read_file', () => {
  let root: string;
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'cody-read-')));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const read = async (path: string): Promise<ToolResult> => {
    const bound = readFileTool.bind({ path });
    if (!bound.ok) throw new Error(bound.error);
    return bound.call.run({ workspace: openWorkspace(root), defaultShellTimeoutMs: 1_000 });
  };

  it('reads a regular file with numbered lines', async () => {
    await writeFile(join(root, 'a.txt'), 'one\ntwo\n');
    const result = await read('a.txt');
    expect(result.status).toBe('ok');
    expect(result.output).toMatch(/^\s+1\tone\n\s+2\ttwo$/);
  });

  it('refuses a FIFO at once instead of waiting for a writer', async () => {
    execFileSync('mkfifo', [join(root, 'pipe')]);
    const started = Date.now();
    const result = await read('pipe');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(result.status).toBe('error');
    expect(result.output).toMatch(/^Error: cannot read pipe: .*FIFO/i);
  });

  it('refuses a device reached through a link', async () => {
    await symlink('/dev/zero', join(root, 'zero'));
    const result = await read('zero');
    expect(result.status).toBe('error');
    expect(result.output).toMatch(/^Error: cannot read zero: /);
  });

  it('names a missing file plainly', async () => {
    const result = await read('nope.txt');
    expect(result).toEqual({ status: 'error', output: 'Error: no such file: nope.txt' });
  });

  it("reads the editor's buffer of a checked file, and never asks the editor about a FIFO or a missing file", async () => {
    await writeFile(join(root, 'a.txt'), 'on disk\n');
    execFileSync('mkfifo', [join(root, 'pipe')]);
    const asked: string[] = [];
    const editorFiles = {
      readTextFile: (path: string) => {
        asked.push(path);
        return Promise.resolve('in the buffer\n');
      },
    };
    const run = (path: string): Promise<ToolResult> => {
      const bound = readFileTool.bind({ path });
      if (!bound.ok) throw new Error(bound.error);
      return bound.call.run({ workspace: openWorkspace(root), defaultShellTimeoutMs: 1_000, editorFiles });
    };
    expect((await run('a.txt')).output).toMatch(/^\s+1\tin the buffer$/);
    expect((await run('pipe')).status).toBe('error');
    expect((await run('missing.txt')).status).toBe('error');
    expect(asked).toEqual([join(root, 'a.txt')]);
  });
});
