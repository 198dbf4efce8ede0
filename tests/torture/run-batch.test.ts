/**
 * The torture suite's batch of commands in one process (run-batch.ts) reports what a spawn of each
 * command would: the same exit codes and output as `runCody`, a hang past the deadline, and a crash of
 * the process (an uncaught error) with its stack trace, after which the next command still runs.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTortureHome, type TortureHome } from './home.js';
import { startCodyBatch } from './run-batch.js';
import { hasStackTrace, runCody } from './run-cody.js';

describe('several cody commands in one process (torture)', () => {
  let torture: TortureHome;
  beforeAll(async () => {
    torture = await createTortureHome();
  });
  afterAll(async () => {
    await torture.close();
  });

  it('gives each command the exit code and output a process of its own gives it', async () => {
    const spawned = (args: string[]) => runCody(args, { env: torture.env, cwd: torture.root });
    const batch = startCodyBatch({ env: torture.env, cwd: torture.root });
    try {
      const id = (await batch.run(['new'])).stdout.trim();
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      torture.server.enqueue({ type: 'reply', text: 'from the batch' });
      const chat = await batch.run(['chat', 'hello']);
      expect(chat).toMatchObject({ code: 0, stdout: 'from the batch\n', hung: false });
      for (const args of [
        ['show', id],
        ['list'],
        ['list', '--json'],
        ['status'],
        ['show', 'nope'],
        ['chta'],
      ]) {
        const [inBatch, alone] = [await batch.run(args), await spawned(args)];
        expect({ args, code: inBatch.code, stdout: inBatch.stdout, stderr: inBatch.stderr }).toEqual({
          args,
          code: alone.code,
          stdout: alone.stdout,
          stderr: alone.stderr,
        });
      }
      const missing = await batch.run(['show', 'nope']);
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toMatch(/^cody: /);
    } finally {
      await batch.close();
    }
  });

  it('reports a hang at the deadline and a crash with its stack trace, then runs the next command', async () => {
    const home = await mkdtemp(join(tmpdir(), 'cody-batch-'));
    try {
      await mkdir(join(home, '.cody'), { recursive: true });
      const env = { ...torture.env, HOME: home, CODY_HOME: join(home, '.cody') };
      // A reply that streams too slowly for the deadline: the command hangs; the next one runs anew.
      const slow = await createTortureHome({ chunkDelayMs: 10_000 });
      const batch = startCodyBatch({ env: slow.env, cwd: slow.root, deadlineMs: 1_500 });
      try {
        slow.server.enqueue({ type: 'reply', text: 'too late' });
        expect(await batch.run(['chat', 'hello'])).toMatchObject({ hung: true, code: null });
        expect(await batch.run(['list', '--json'])).toMatchObject({ hung: false, code: 0 });
      } finally {
        await batch.close();
        await slow.close();
      }
      // A runner whose command throws where nothing catches it: Node's crash, stack and all.
      const crashing = startCodyBatch({
        env: {
          ...env,
          NODE_OPTIONS:
            "--import=data:text/javascript,process.on('message',()=>setImmediate(()=>{throw(Error('boom'))}))",
        },
        cwd: home,
      });
      try {
        for (const attempt of [1, 2]) {
          const crashed = await crashing.run(['list']);
          expect({ attempt, code: crashed.code, hung: crashed.hung }).toEqual({
            attempt,
            code: 1,
            hung: false,
          });
          expect(crashed.stderr).toContain('Error: boom');
          expect(hasStackTrace(crashed.stderr)).toBe(true);
        }
      } finally {
        await crashing.close();
      }
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
