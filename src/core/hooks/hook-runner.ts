/**
 * Runs one hook command: `/bin/sh -c`, in the workspace, in its own process group (a timeout, Ctrl-C or
 * `session/cancel` kills the group, grandchildren included), with the JSON input on stdin and stdout and
 * stderr kept to a bounded head. Never throws and never waits past the timeout.
 */
import { spawn } from 'node:child_process';
import type { HookProcessResult } from './hook-output.js';

/** Bytes kept of each of stdout and stderr; the rest is read and dropped. */
export const MAX_HOOK_OUTPUT_BYTES = 64 * 1024;

/** After the hook exits, how long its output pipes may stay open (a background child holding them). */
const DRAIN_MS = 200;

export interface HookProcessSpec {
  command: string;
  input: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** A stream's head, at most MAX_HOOK_OUTPUT_BYTES. */
class Head {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  add(chunk: Buffer): void {
    const room = MAX_HOOK_OUTPUT_BYTES - this.size;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept.length < chunk.length) this.truncated = true;
    this.chunks.push(kept);
    this.size += kept.length;
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8') + (this.truncated ? '\n[output truncated]' : '');
  }
}

export function runHookProcess(spec: HookProcessSpec): Promise<HookProcessResult> {
  return new Promise((resolve) => {
    const stdout = new Head();
    const stderr = new Head();
    let settled = false;
    let timedOut = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let drain: NodeJS.Timeout | undefined;
    const child = spawn('/bin/sh', ['-c', spec.command], {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const finish = (failure?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      spec.signal?.removeEventListener('abort', onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      const signalled = exit?.signal && !timedOut ? `killed by ${exit.signal}` : undefined;
      const why = failure ?? signalled;
      resolve({
        exitCode: exit?.code ?? null,
        stdout: stdout.text(),
        stderr: stderr.text(),
        timedOut,
        ...(why !== undefined ? { failure: why } : {}),
      });
    };
    const onAbort = (): void => {
      killGroup();
      finish('stopped (the turn was interrupted)');
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
      finish();
    }, spec.timeoutMs);
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    if (spec.signal?.aborted) onAbort();
    child.stdout.on('data', (chunk: Buffer) => stdout.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));
    child.on('error', (error) => finish(error.message));
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Output still in the pipes arrives before 'close'; a child left holding them does not stop us.
      drain = setTimeout(() => finish(), DRAIN_MS);
    });
    child.on('close', () => finish());
    child.stdin.on('error', () => undefined);
    child.stdin.end(spec.input);
  });
}
