/**
 * Runs one shell command in its own process group: output streamed as it arrives, a timeout, and an
 * abort that kills the whole group (the command's children too) and keeps the output seen so far.
 * Optionally inside bubblewrap: workspace writable except its git directories and `.cody`, everything
 * else read-only, sign-in files hidden, network off, and a PID namespace of its own, so the command sees
 * no process outside it and nothing it starts outlives it.
 */
import { spawn } from 'node:child_process';
import { mountArguments, sandboxMounts, type SandboxMount } from './sandbox-mounts.js';

/** Most output characters kept per stream (the session truncates further by tokens). */
const OUTPUT_LIMIT = 1_000_000;
/** After SIGTERM, how long the group gets before SIGKILL. */
const KILL_GRACE_MS = 1_000;
/** After the command exits, how long output still held open by its background children is awaited. */
const EXIT_DRAIN_MS = 250;

export interface ShellRequest {
  command: string;
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
  onOutput?: (chunk: string) => void;
  /** Run inside bubblewrap with this writable root; `hide`: files commands must not read (sign-ins). */
  sandbox?: { bwrap: string; writableRoot: string; network: boolean; hide?: readonly string[] };
  env?: NodeJS.ProcessEnv;
}

export interface ShellOutcome {
  exitCode: number | undefined;
  /** Interleaved stdout and stderr, as they arrived. */
  output: string;
  timedOut: boolean;
  aborted: boolean;
  signal: string | undefined;
  durationMs: number;
}

export interface BwrapSettings {
  writableRoot: string;
  network: boolean;
  /** Laid over the writable root, in order (sandbox-mounts.ts). */
  mounts: readonly SandboxMount[];
}

/** The settings for a command now: the mounts are looked up afresh (only what exists can be mounted over). */
export function bwrapSettings(sandbox: {
  writableRoot: string;
  network: boolean;
  hide?: readonly string[];
}): BwrapSettings {
  return {
    writableRoot: sandbox.writableRoot,
    network: sandbox.network,
    mounts: sandboxMounts(sandbox.writableRoot, sandbox.hide ?? []),
  };
}

export function bwrapArguments(bwrap: BwrapSettings, cwd: string, command: string): string[] {
  return [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    '--bind',
    bwrap.writableRoot,
    bwrap.writableRoot,
    ...mountArguments(bwrap.mounts),
    ...(bwrap.network ? [] : ['--unshare-net']),
    // Its own PID namespace: Cody's process (its environment) is not there to read, and when the
    // command's shell exits the namespace goes with everything the command left running.
    '--unshare-pid',
    '--new-session',
    '--die-with-parent',
    '--chdir',
    cwd,
    'bash',
    '-c',
    command,
  ];
}

export function runShellCommand(request: ShellRequest): Promise<ShellOutcome> {
  const started = performance.now();
  return new Promise((resolvePromise) => {
    const [file, args] = request.sandbox
      ? [request.sandbox.bwrap, bwrapArguments(bwrapSettings(request.sandbox), request.cwd, request.command)]
      : ['bash', ['-c', request.command]];
    const child = spawn(file, args, {
      cwd: request.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      env: request.env ?? process.env,
    });
    let output = '';
    let timedOut = false;
    let aborted = false;
    let settled = false;
    const onData = (chunk: string): void => {
      if (output.length < OUTPUT_LIMIT) output += chunk.slice(0, OUTPUT_LIMIT - output.length);
      request.onOutput?.(chunk);
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    let killTimer: NodeJS.Timeout | undefined;
    const killGroup = (): void => {
      signalGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS);
      killTimer.unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, request.timeoutMs);
    const onAbort = (): void => {
      aborted = true;
      killGroup();
    };
    if (request.signal?.aborted) onAbort();
    else request.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (exitCode: number | undefined, signal: string | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      // The leader is gone; make sure nothing it started lingers.
      if (timedOut || aborted) signalGroup(child.pid, 'SIGKILL');
      if (killTimer) clearTimeout(killTimer);
      resolvePromise({
        exitCode,
        output,
        timedOut,
        aborted,
        signal,
        durationMs: Math.round(performance.now() - started),
      });
    };
    child.on('error', (error) => {
      output += `${error.message}\n`;
      finish(undefined, undefined);
    });
    child.on('close', (code, signal) => finish(code ?? undefined, signal ?? undefined));
    // A background process the command left behind may hold the pipes open: once the command itself
    // has exited, wait briefly for the rest of its output, then stop listening.
    child.on('exit', (code, signal) => {
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(code ?? undefined, signal ?? undefined);
      }, EXIT_DRAIN_MS).unref();
    });
  });
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}
