/**
 * Runs the person's `statusLine` command once: `sh -c` in the workspace, in its own process group, with
 * the shell tool's environment (no provider keys), the state JSON on stdin. Bounded: killed (the whole
 * group) after `timeoutMs`, at most `MAX_OUTPUT` bytes read, only the first line kept.
 */
import { spawn } from 'node:child_process';
import { toolEnvironment } from '../../core/index.js';
import { statusText } from './status-text.js';

/** Default time a status command may take (Claude Code refreshes at most every 300 ms; 1 s is generous). */
export const STATUS_TIMEOUT_MS = 1000;
/** Bytes of output read at most: a status line is one line. */
export const MAX_OUTPUT = 4096;

export type StatusRun = { kind: 'line'; text: string } | { kind: 'failed'; reason: string };

export interface StatusCommandOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** The config's `shellEnvironment`: what tool processes inherit. */
  policy?: Parameters<typeof toolEnvironment>[1];
}

export function runStatusCommand(
  command: string,
  input: unknown,
  options: StatusCommandOptions,
): Promise<StatusRun> {
  const timeoutMs = options.timeoutMs ?? STATUS_TIMEOUT_MS;
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn('/bin/sh', ['-c', command], {
        cwd: options.cwd,
        env: toolEnvironment(options.env, options.policy),
        detached: true,
        stdio: ['pipe', 'pipe', 'ignore'],
      });
    } catch (error) {
      resolve({ kind: 'failed', reason: error instanceof Error ? error.message : String(error) });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const finish = (result: StatusRun): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      killGroup();
      resolve(result);
    };
    const timer = setTimeout(
      () => finish({ kind: 'failed', reason: `timed out after ${timeoutMs} ms` }),
      timeoutMs,
    );
    child.on('error', (error) => finish({ kind: 'failed', reason: error.message }));
    child.stdout.on('data', (chunk: Buffer) => {
      const room = MAX_OUTPUT - size;
      if (room > 0) chunks.push(chunk.subarray(0, room));
      size += chunk.length;
      // One line is all it shows: once it is whole (or the cap is reached), the rest is not waited for.
      if (size >= MAX_OUTPUT || chunk.includes(10)) {
        finish({ kind: 'line', text: statusText(Buffer.concat(chunks).toString('utf8')) });
      }
    });
    child.on('close', (code, signal) => {
      if (code === 0) finish({ kind: 'line', text: statusText(Buffer.concat(chunks).toString('utf8')) });
      else
        finish({ kind: 'failed', reason: signal !== null ? `killed by ${signal}` : `exited with ${code}` });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${JSON.stringify(input)}\n`);
  });
}
