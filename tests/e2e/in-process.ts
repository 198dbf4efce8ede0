/**
 * A `cody` command run in this process: the command line's own `main` (what bin/cody.js runs) with the
 * harness's environment, home and fake provider, its output captured from fake streams, stdin piped
 * (never a terminal). For the steps a test takes to get somewhere — start a conversation, give it a few
 * turns, choose a provider — when what the test checks is a later command: ~20 ms instead of a
 * process start (~0.2–0.3 s of CPU). The command under test stays a real spawn (`harness.cody`).
 */
import type { Io } from '../../src/cli/io.js';
import type { CodyRun, Harness } from './harness.js';

export async function codyInProcess(
  harness: Harness,
  args: string[],
  options: { input?: string; env?: Record<string, string | undefined>; cwd?: string } = {},
): Promise<CodyRun> {
  const { main } = await import('../../src/cli/main.js');
  const env: Record<string, string | undefined> = { ...harness.env, ...options.env };
  let stdout = '';
  let stderr = '';
  const input = options.input;
  const io: Io = {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    stdin: {
      isTTY: false,
      [Symbol.asyncIterator]: async function* () {
        if (input !== undefined && input !== '') yield Buffer.from(input);
      },
    },
    env: Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined)),
    cwd: options.cwd ?? harness.home,
  };
  const code = await main(['node', 'cody', ...args], io);
  return { code, stdout, stderr };
}
