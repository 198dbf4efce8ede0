/**
 * `cody acp`: the Agent Client Protocol agent on stdin/stdout, for editors (Zed, JetBrains, Neovim). The
 * ACP front end (src/acp) and its SDK load only here.
 */
import type { Io } from '../io.js';
import { CLI_VERSION } from '../version.js';

export async function runAcpCommand(io: Io): Promise<number> {
  const { runAcp } = await import('../../acp/agent.js');
  return runAcp({
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: io.stderr,
    env: io.env,
    cwd: io.cwd,
    version: CLI_VERSION,
  });
}
