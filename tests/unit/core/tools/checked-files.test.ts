/**
 * Cody's own writes go where the approval looked: a link swapped in after the check sends nothing
 * outside the workspace (issue 36 item 2: write_file d/… landed outside while d flipped).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:fs';
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openChecked,
  readChecked,
  removeChecked,
  writeChecked,
} from '../../../../src/core/tools/checked-files.js';
import { createToolRuntime, type CodyToolRuntime } from '../../../../src/core/tools/runtime.js';
import type { FunctionCallItem } from '../../../../src/protocol/index.js';

let counter = 0;
function call(name: string, args: Record<string, unknown>): FunctionCallItem {
  counter += 1;
  return { type: 'function_call', name, arguments: JSON.stringify(args), call_id: `call_${counter}` };
}

/** A shell loop swapping links until killed. */
function flipper(script: string, cwd: string): ChildProcess {
  return spawn('bash', ['-c', `while :; do ${script}; done`], { cwd, stdio: 'ignore' });
}

async function stop(child: ChildProcess): Promise<void> {
  const ended = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await ended;
}

describe('writes through what was checked', () => {
  let root: string;
  let outside: string;
  let tools: CodyToolRuntime;

  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'cody-checked-')));
    outside = await realpath(await mkdtemp(join(tmpdir(), 'cody-checked-out-')));
    await mkdir(join(root, 'real'));
    await writeFile(join(root, 'real', 'kept.txt'), 'one\n');
    await symlink('real', join(root, 'd'));
    await writeFile(join(outside, 'kept.txt'), 'outside\n');
    tools = createToolRuntime({ cwd: root, policy: 'full-auto', env: { PATH: '/nonexistent' } });
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('a link flipped between the decision and the write: the write goes to the directory that was checked', async () => {
    const item = call('write_file', { path: 'd/new.txt', content: 'hello\n' });
    expect((await tools.decide(item)).kind).toBe('allow');
    await rm(join(root, 'd'));
    await symlink(outside, join(root, 'd'));
    const result = await tools.run(item, {});
    expect(result.status).toBe('ok');
    expect(await readFile(join(root, 'real', 'new.txt'), 'utf8')).toBe('hello\n');
    expect(await readdir(outside)).toEqual(['kept.txt']);
  });

  it('a checked directory replaced by a link: every kind of change is refused and nothing outside changes', async () => {
    const calls = [
      call('write_file', { path: 'd/new.txt', content: 'x' }),
      call('edit_file', { path: 'd/kept.txt', old_text: 'outside', new_text: 'owned' }),
      call('apply_patch', { input: '*** Begin Patch\n*** Add File: d/added.txt\n+x\n*** End Patch' }),
      call('apply_patch', {
        input: '*** Begin Patch\n*** Update File: d/kept.txt\n@@\n-outside\n+owned\n*** End Patch',
      }),
      call('apply_patch', { input: '*** Begin Patch\n*** Delete File: d/kept.txt\n*** End Patch' }),
      call('apply_patch', {
        input:
          '*** Begin Patch\n*** Update File: d/kept.txt\n*** Move to: moved.txt\n@@\n-outside\n+owned\n*** End Patch',
      }),
    ];
    // Checked while real/ is a directory (edit and patch context match what the outside file holds).
    await writeFile(join(root, 'real', 'kept.txt'), 'outside\n');
    for (const item of calls) expect((await tools.decide(item)).kind).toBe('allow');
    await rename(join(root, 'real'), join(root, 'was-real'));
    await symlink(outside, join(root, 'real'));
    for (const item of calls) {
      const result = await tools.run(item, {});
      expect(result.status, `${item.name} ${item.arguments}`).toBe('error');
      expect(result.output).toMatch(/refused to change .*real/);
    }
    expect(await readdir(outside)).toEqual(['kept.txt']);
    expect(await readFile(join(outside, 'kept.txt'), 'utf8')).toBe('outside\n');
    await expect(readFile(join(root, 'moved.txt'))).rejects.toThrow();
  });

  it('a FIFO or a link as the file itself is refused, not followed or waited on', async () => {
    await symlink(join(outside, 'kept.txt'), join(root, 'real', 'link.txt'));
    await expect(writeChecked(join(root, 'real', 'link.txt'), 'x')).rejects.toThrow(/refused .*link/);
    await expect(removeChecked(join(root, 'd', 'kept.txt'))).rejects.toThrow(/refused/);
    expect(await readFile(join(outside, 'kept.txt'), 'utf8')).toBe('outside\n');
    execFileSync('mkfifo', [join(root, 'pipe')]);
    // With no reader, opening it to write fails at once instead of blocking; reading is refused.
    await expect(writeChecked(join(root, 'pipe'), 'x')).rejects.toThrow(/ENXIO/);
    await expect(readChecked(join(root, 'pipe'))).rejects.toThrow(/not a plain file/);
    // An error names the file, not the descriptor it was reached through.
    await writeChecked(join(root, 'real', 'made', 'x.txt'), 'x');
    expect(await readFile(join(root, 'real', 'made', 'x.txt'), 'utf8')).toBe('x');
    expect(await readChecked(join(root, 'real', 'nodir', 'x'))).toBeUndefined();
    await expect(openChecked(join(root, 'real', 'absent.txt'), constants.O_RDWR)).rejects.toThrow(
      `ENOENT: no such file or directory, open '${join(root, 'real', 'absent.txt')}'`,
    );
  });

  it('stress: links flipping while files are written, nothing ever lands outside', async () => {
    // The race: d flips between real/ and the outside while write_file d/… calls are decided and run.
    const flipD = flipper(`ln -sfn ${outside} d; ln -sfn real d`, root);
    // And the checked directory itself turning into a link and back.
    const flipReal = flipper(`mv real hold && ln -s ${outside} real && rm real && mv hold real`, root);
    const deadline = performance.now() + 1_500;
    let attempts = 0;
    try {
      // At least 30 attempts however slow the machine is, more while time allows.
      while ((performance.now() < deadline || attempts < 30) && attempts < 400) {
        attempts += 1;
        const item = call('write_file', { path: `d/f${attempts}.txt`, content: 'x' });
        const decision = await tools.decide(item).catch(() => undefined);
        // Only what the policy let run unasked (a path checked inside the workspace).
        if (decision?.kind === 'allow') await tools.run(item, {});
        await writeChecked(join(root, 'real', `g${attempts}.txt`), 'y').catch(() => undefined);
      }
    } finally {
      await stop(flipD);
      await stop(flipReal);
    }
    expect(attempts).toBeGreaterThan(10);
    expect(await readdir(outside)).toEqual(['kept.txt']);
  });
});
