/**
 * The child side of `runCodyBatch` (run-batch.ts): one process that runs several `cody` commands in turn,
 * each the way bin/cody.js runs one — the same built entry (dist/bundle/main.js, or the bare listing for
 * a bare `cody list`), the process's own streams and environment, `exitCodeAfterSignal`, and exit 70 with
 * "unexpected error" for anything the entry throws. The parent sends one command at a time over IPC and
 * checks the files between commands; everything the command writes to stdout and stderr (also directly
 * to the process's streams) comes back with its exit code. An uncaught exception or unhandled rejection
 * ends this process the way it ends `cody` (its stack on stderr, exit 1), so the parent sees both.
 * Started only by the parent, with the environment and working directory the commands would get.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CODY_BIN, REPO_ROOT } from './run-cody.js';

interface Entry {
  main?: (argv: readonly string[]) => Promise<number>;
  runBare?: () => Promise<number>;
  installSignalHandling(): void;
  exitCodeAfterSignal(code: number): number;
}

/** A command the parent asks for, and what it gets back. */
export interface BatchRequest {
  args: string[];
}
export interface BatchReply {
  code: number;
  stdout: string;
  stderr: string;
  /** The process ends after this reply (an uncaught error). */
  crashed?: true;
}

const output = { stdout: '', stderr: '' };

/** What the command writes to the process's streams is kept for the parent (never passed through). */
function capture(stream: NodeJS.WriteStream, key: 'stdout' | 'stderr'): void {
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
    output[key] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const callback = rest.find((value) => typeof value === 'function') as (() => void) | undefined;
    if (callback) process.nextTick(callback);
    return true;
  }) as typeof stream.write;
}

function send(message: BatchReply): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(message, () => resolve());
  });
}

/** As Node ends a process on an uncaught error: the stack on stderr, exit 1. */
async function crash(error: unknown): Promise<void> {
  output.stderr += `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`;
  await send({ code: 1, ...output, crashed: true });
  process.exit(1);
}

async function load(file: string): Promise<Entry> {
  const path = join(REPO_ROOT, 'dist', 'bundle', file);
  if (file.endsWith('.cjs')) return createRequire(import.meta.url)(path) as Entry;
  return (await import(pathToFileURL(path).href)) as Entry;
}

/** One command, as bin/cody.js's `run()` does it. */
async function runOne(args: string[]): Promise<BatchReply> {
  output.stdout = '';
  output.stderr = '';
  const bare = args.length === 1 && args[0] === 'list';
  const entry = await load(bare ? 'bare-list.cjs' : 'main.js');
  entry.installSignalHandling();
  let code: number;
  try {
    const running = bare ? entry.runBare?.() : entry.main?.([process.execPath, CODY_BIN, ...args]);
    code = entry.exitCodeAfterSignal(await (running ?? Promise.resolve(70)));
  } catch (error) {
    output.stderr += `cody: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`;
    code = 70;
  }
  // Writes that land just after the command settles still belong to it.
  await new Promise((resolve) => setImmediate(resolve));
  return { code, ...output };
}

capture(process.stdout, 'stdout');
capture(process.stderr, 'stderr');
process.on('uncaughtException', (error) => void crash(error));
process.on('unhandledRejection', (error) => void crash(error));
process.on('message', (request: BatchRequest) => {
  void runOne(request.args).then(send, crash);
});
