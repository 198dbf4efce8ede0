/** Spawning `bin/cody.js` for the torture suite: with a deadline, optionally killed at a given moment. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository root, from the source (tests/torture) or the compiled copy (dist/tests/torture). */
export const REPO_ROOT = ((): string => {
  let directory = import.meta.dirname;
  while (!existsSync(join(directory, 'package.json')) && dirname(directory) !== directory) {
    directory = dirname(directory);
  }
  return directory;
})();

export const CODY_BIN = join(REPO_ROOT, 'bin', 'cody.js');

export interface CodyResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** It was still running at the deadline (a hang) and was killed. */
  hung: boolean;
  ms: number;
}

export interface RunOptions {
  env: Record<string, string>;
  cwd: string;
  input?: string;
  /** Kill with SIGKILL after this many ms (the torture's random moment). */
  killAfterMs?: number;
  /** Kill when stdout or stderr first matches. */
  killWhen?: RegExp;
  /** A run still alive after this long counts as hung (default 30 s). */
  deadlineMs?: number;
}

export function runCody(args: string[], options: RunOptions): Promise<CodyResult> {
  return new Promise((resolvePromise, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [CODY_BIN, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let hung = false;
    const kill = (): void => {
      child.kill('SIGKILL');
    };
    const watch = (): void => {
      if (options.killWhen && (options.killWhen.test(stdout) || options.killWhen.test(stderr))) kill();
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => ((stdout += chunk), watch()));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => ((stderr += chunk), watch()));
    const killer = options.killAfterMs !== undefined ? setTimeout(kill, options.killAfterMs) : undefined;
    const deadline = setTimeout(() => {
      hung = true;
      kill();
    }, options.deadlineMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (killer) clearTimeout(killer);
      clearTimeout(deadline);
      resolvePromise({ code, signal, stdout, stderr, hung, ms: Date.now() - started });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** A stack trace in a command's output: a user should never see one. */
export function hasStackTrace(text: string): boolean {
  return /\n\s+at .+\(.+:\d+:\d+\)|\n\s+at file:\/\//.test(text);
}

/** Deterministic pseudo-random numbers (mulberry32), so a failing run can be replayed by its seed. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}
