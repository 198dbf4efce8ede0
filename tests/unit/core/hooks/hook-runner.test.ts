import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_HOOK_OUTPUT_BYTES, runHookProcess } from '../../../../src/core/hooks/hook-runner.js';

const spec = {
  input: '{"a":1}',
  cwd: process.cwd(),
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  timeoutMs: 5_000,
};

/** Whether the process runs (a zombie waiting to be reaped is dead). */
function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

describe('running a hook', () => {
  it('gives it the input on stdin and returns its exit code and output', async () => {
    const result = await runHookProcess({ ...spec, command: 'cat; echo oops >&2; exit 3' });
    expect(result).toEqual({ exitCode: 3, stdout: '{"a":1}', stderr: 'oops\n', timedOut: false });
  });

  it('stops a hung hook at its timeout, killing its whole process group', async () => {
    const started = Date.now();
    // The hook starts a grandchild that would outlive it, prints its pid, and hangs.
    const result = await runHookProcess({ ...spec, timeoutMs: 500, command: 'sleep 30 & echo $!; sleep 30' });
    expect(result.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(3_000);
    const grandchild = Number(result.stdout.trim());
    expect(grandchild).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(grandchild)).toBe(false);
  });

  it('keeps a bounded head of a hook writing megabytes', async () => {
    const result = await runHookProcess({ ...spec, command: 'head -c 5000000 /dev/zero | tr "\\0" x' });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.length).toBeLessThanOrEqual(MAX_HOOK_OUTPUT_BYTES + 50);
    expect(result.stdout).toMatch(/\[output truncated\]$/);
  });

  it('is stopped by the turn’s abort signal', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await runHookProcess({ ...spec, signal: controller.signal, command: 'sleep 30' });
    expect(result.failure).toMatch(/interrupted/);
  });

  it('does not wait for a background child that keeps its output open', async () => {
    const started = Date.now();
    const result = await runHookProcess({ ...spec, command: 'echo done; (sleep 5 &)' });
    expect(result.stdout).toBe('done\n');
    expect(Date.now() - started).toBeLessThan(2_000);
    execFileSync('true');
  });
});
