/**
 * SIGINT and SIGTERM end any command within about two seconds with the rollout consistent (issue 7.4):
 * mid-stream (the turn is recorded as interrupted), while reading a message from a pipe that never
 * closes, while waiting for another process's lock, and during a compaction (the history is kept).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireConversationLock } from '../../src/core/rollout/lock.js';
import { CODY_BIN, createHarness, type Harness, linesOfType } from './harness.js';

/** Well under the "~2 s", with room for a loaded two-core machine. */
const PROMPT_EXIT_MS = 2_500;
const LONG_REPLY = 'The reply streams slowly, piece after piece, so a signal lands in the middle. '.repeat(8);

interface Stopped {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Milliseconds from the signal to the exit. */
  afterSignalMs: number;
}

/** Starts `cody args`, sends `signal` once `ready(stdout, stderr)` holds, and reports how it ended. */
function stopWhen(
  harness: Harness,
  args: string[],
  signal: NodeJS.Signals,
  ready: (stdout: string, stderr: string) => boolean,
  options: { closeStdin?: boolean } = {},
): Promise<Stopped> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CODY_BIN, ...args], {
      cwd: harness.home,
      env: harness.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let signalledAt: number | undefined;
    const check = (): void => {
      if (signalledAt === undefined && ready(stdout, stderr)) {
        signalledAt = Date.now();
        child.kill(signal);
      }
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => ((stdout += chunk), check()));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => ((stderr += chunk), check()));
    const poll = setInterval(check, 50);
    const hardStop = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code, killedBy) => {
      clearInterval(poll);
      clearTimeout(hardStop);
      resolve({
        code,
        signal: killedBy,
        stdout,
        stderr,
        afterSignalMs: signalledAt === undefined ? Number.NaN : Date.now() - signalledAt,
      });
    });
    if (options.closeStdin !== false) child.stdin.end();
  });
}

describe('signals end every command promptly (e2e)', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness({ chunkDelayMs: 60 });
  });
  afterEach(async () => {
    await harness.close();
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)('%s mid-stream: exit %i, the turn recorded as interrupted', async (signal, code) => {
    const id = (await harness.cody(['new'])).stdout.trim();
    harness.server.enqueue({ type: 'reply', text: LONG_REPLY });
    // stdout is a pipe, where the reply is held until it is final: signal once the stream is under way.
    let streamingSince: number | undefined;
    const run = await stopWhen(harness, ['chat', 'tell me slowly'], signal, () => {
      if (harness.server.modelRequests().length === 0) return false;
      streamingSince ??= Date.now();
      return Date.now() - streamingSince > 400;
    });
    expect(run.code, run.stderr).toBe(code);
    expect(run.afterSignalMs).toBeLessThan(PROMPT_EXIT_MS);
    expect(run.stdout.length).toBeLessThan(LONG_REPLY.length);

    const lines = await harness.rollout(id);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    const users = linesOfType(lines, 'response_item').filter((line) => line.payload.role === 'user');
    expect(users.at(-1)?.payload).toMatchObject({ content: [{ text: 'tell me slowly' }] });
    expect(lines.some((line) => line.includes('turn_aborted'))).toBe(true);

    // The conversation goes on, and the next request is well formed.
    const next = await harness.cody(['chat', 'again']);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toBe('echo: again\n');
  });

  it('SIGTERM while reading a message from a pipe that never closes', async () => {
    await harness.cody(['new']);
    const started = Date.now();
    const run = await stopWhen(harness, ['chat'], 'SIGTERM', () => Date.now() - started > 700, {
      closeStdin: false,
    });
    expect(run.code).toBe(143);
    expect(run.afterSignalMs).toBeLessThan(PROMPT_EXIT_MS);
    expect(harness.server.modelRequests()).toHaveLength(0);
  });

  it('SIGTERM while waiting for the lock another process holds', async () => {
    const id = (await harness.cody(['new'])).stdout.trim();
    const release = await acquireConversationLock(
      join(harness.env.CODY_HOME ?? '', 'conversations', `${id}.jsonl`),
    );
    try {
      const run = await stopWhen(harness, ['chat', 'hello'], 'SIGTERM', (_out, err) => /Waiting/.test(err));
      expect(run.code).toBe(143);
      expect(run.afterSignalMs).toBeLessThan(PROMPT_EXIT_MS);
      expect(harness.server.modelRequests()).toHaveLength(0);
    } finally {
      await release();
    }
    const lines = await harness.rollout(id);
    expect(lines.some((line) => line.includes('hello'))).toBe(false);
  });

  it('SIGTERM during a manual compaction keeps the history', async () => {
    const id = (await harness.cody(['new'])).stdout.trim();
    for (const word of ['one', 'two', 'three']) {
      expect((await harness.cody(['chat', `message ${word}`])).code).toBe(0);
    }
    const before = await harness.rollout(id);
    harness.server.enqueue({ type: 'reply', text: LONG_REPLY });
    const run = await stopWhen(
      harness,
      ['compact'],
      'SIGTERM',
      () => harness.server.modelRequests().length > 3,
    );
    expect(run.code).toBe(143);
    expect(run.afterSignalMs).toBeLessThan(PROMPT_EXIT_MS);
    const after = await harness.rollout(id);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(linesOfType(after, 'compacted')).toHaveLength(0);
    const next = await harness.cody(['chat', 'still here?']);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toBe('echo: still here?\n');
  });
});
