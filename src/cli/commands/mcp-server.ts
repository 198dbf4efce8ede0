/**
 * `cody mcp-server`: Cody as an MCP server on stdin/stdout (src/mcp-server), until the client closes
 * stdin or SIGTERM/SIGINT; running turns are then interrupted and recorded. The server's code loads only
 * here, so no other command pays for it.
 */
import { Writable } from 'node:stream';
import { ExitCode } from '../exit-codes.js';
import type { Io } from '../io.js';
import { sanitizeForTerminal } from '../sanitize.js';
import { CLI_VERSION } from '../version.js';

export async function runMcpServer(io: Io): Promise<number> {
  const { runMcpServer: serve } = await import('../../mcp-server/index.js');
  const protocol = protocolStdout();
  let onSignal: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    onSignal = resolve;
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
  try {
    await serve({
      version: CLI_VERSION,
      env: io.env,
      cwd: io.cwd,
      stdin: process.stdin,
      stdout: protocol.stream,
      log: (line) => io.stderr.write(`${sanitizeForTerminal(line)}\n`),
      stopped,
    });
  } finally {
    process.removeListener('SIGTERM', onSignal);
    process.removeListener('SIGINT', onSignal);
    protocol.restore();
  }
  return ExitCode.ok;
}

/**
 * stdout for protocol messages only: the transport gets the real stdout, and anything else in the process
 * that writes to `process.stdout` (a library's console.log) is sent to stderr instead, where it cannot
 * corrupt the JSON-RPC stream.
 */
function protocolStdout(): { stream: Writable; restore: () => void } {
  const stdout = process.stdout;
  const write = stdout.write.bind(stdout);
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      write(chunk, (error) => callback(error ?? null));
    },
  });
  stdout.write = process.stderr.write.bind(process.stderr) as typeof stdout.write;
  return {
    stream,
    restore: () => {
      stdout.write = write;
    },
  };
}
