/**
 * Several `cody` commands in one process (batch-runner.ts), each run as bin/cody.js runs it and
 * reported like a spawn of its own (`runCody`): exit code, stdout, stderr, whether it hung. One process
 * start instead of one per command, for suites that run hundreds of short commands on the same home.
 * A command that hangs past its deadline, or takes the process down, ends that process; the next
 * command gets a new one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { BatchReply } from './batch-runner.js';
import { REPO_ROOT, type CodyResult } from './run-cody.js';

const RUNNER = join(REPO_ROOT, 'dist', 'tests', 'torture', 'batch-runner.js');

export interface CodyBatch {
  /** Runs `cody <args>`, after the previous command has ended. */
  run(args: string[]): Promise<CodyResult>;
  close(): Promise<void>;
}

export function startCodyBatch(options: {
  env: Record<string, string>;
  cwd: string;
  /** A command still running after this long counts as hung (default 30 s). */
  deadlineMs?: number;
}): CodyBatch {
  let child: ChildProcess | undefined;
  const start = (): ChildProcess => {
    const started = spawn(process.execPath, [RUNNER], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe', 'ipc'],
    });
    started.stdin?.on('error', () => undefined);
    started.stdin?.end('');
    return started;
  };
  const stop = async (runner: ChildProcess): Promise<void> => {
    if (runner.exitCode !== null || runner.signalCode !== null) return;
    const closed = new Promise((resolve) => runner.once('close', resolve));
    runner.kill('SIGKILL');
    await closed;
  };
  return {
    run: async (args) => {
      child ??= start();
      const current = child;
      const began = Date.now();
      // Anything the runner writes to its real streams (it captures the command's writes) is the command's.
      let stdout = '';
      let stderr = '';
      const onStdout = (chunk: Buffer): void => void (stdout += chunk.toString('utf8'));
      const onStderr = (chunk: Buffer): void => void (stderr += chunk.toString('utf8'));
      current.stdout?.on('data', onStdout);
      current.stderr?.on('data', onStderr);
      const outcome = await new Promise<
        { reply: BatchReply } | { ended: [number | null, NodeJS.Signals | null] } | { hung: true }
      >((resolve) => {
        const settle = (result: Parameters<typeof resolve>[0]): void => {
          clearTimeout(deadline);
          current.off('message', onMessage);
          current.off('close', onClose);
          resolve(result);
        };
        const onMessage = (reply: BatchReply): void => settle({ reply });
        const onClose = (code: number | null, signal: NodeJS.Signals | null): void =>
          settle({ ended: [code, signal] });
        const deadline = setTimeout(() => settle({ hung: true }), options.deadlineMs ?? 30_000);
        current.on('message', onMessage);
        current.on('close', onClose);
        current.send({ args });
      });
      current.stdout?.off('data', onStdout);
      current.stderr?.off('data', onStderr);
      const ms = Date.now() - began;
      if ('reply' in outcome) {
        const { code, stdout: out, stderr: err, crashed } = outcome.reply;
        // A reply sent on the way out (a crash) ends the process: the next command starts another.
        if (crashed) {
          child = undefined;
          await stop(current);
        }
        return { code, signal: null, stdout: stdout + out, stderr: stderr + err, hung: false, ms };
      }
      child = undefined;
      if ('hung' in outcome) {
        await stop(current);
        return { code: null, signal: 'SIGKILL', stdout, stderr, hung: true, ms };
      }
      const [code, signal] = outcome.ended;
      return { code, signal, stdout, stderr, hung: false, ms };
    },
    close: async () => {
      if (child) await stop(child);
      child = undefined;
    },
  };
}
