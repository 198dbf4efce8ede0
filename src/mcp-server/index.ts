/**
 * `cody mcp-server`: Cody as an MCP server on stdio (the official SDK's `McpServer`), a front end beside
 * the CLI and `cody serve` that enters core only through `src/core/index.ts` (eslint.config.js). The
 * tools are in tools.ts; each call's turn in run-turn.ts. stdout carries only protocol messages: every
 * diagnostic goes to `log` (stderr).
 */
import type { Readable, Writable } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type * as Engine from './create-engine.js';
import { Engines } from './engines.js';
import type { AskClient } from './run-turn.js';
import { registerTools, type CallContext } from './tools.js';

export interface McpServerOptions {
  version: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The working directory of a `cody` call that names none. */
  cwd: string;
  stdin: Readable;
  /** Where protocol messages go (nothing else is written there). */
  stdout: Writable;
  /** A diagnostic line (stderr). */
  log: (line: string) => void;
  /** Settles when the process is asked to stop (a signal). */
  stopped?: Promise<unknown>;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * An approval question waits for the person (or the engine's approval timeout, which then withdraws it),
 * not for the SDK's 60-second request default.
 */
const QUESTION_TIMEOUT_MS = 24 * 60 * 60 * 1_000;

/** Serves until stdin ends, the client closes or `stopped` settles; running turns are then interrupted. */
export async function runMcpServer(options: McpServerOptions): Promise<void> {
  const server = new McpServer({ name: 'cody', title: 'Cody', version: options.version });
  const canAsk = (): boolean => server.server.getClientCapabilities()?.elicitation?.form !== undefined;
  // The engine loads after the handshake (`initialized`), so `initialize` is answered without it.
  let core: Promise<typeof Engine> | undefined;
  const loadCore = (): Promise<typeof Engine> => (core ??= import('./create-engine.js'));
  server.server.oninitialized = () => void loadCore();
  const engines = new Engines(options.cwd, async (cwd) =>
    (await loadCore()).createCody({
      env: options.env,
      cwd,
      version: options.version,
      // A call the policy would ask about goes to the client's person when it can be asked; otherwise the
      // engine declines it with a reason the model sees.
      canAsk: () => Promise.resolve(canAsk()),
      onNotice: (notice) => options.log(`${notice.level === 'warning' ? 'warning: ' : ''}${notice.message}`),
    }),
  );
  registerTools(server, engines, (extra) => callContext(server, extra, canAsk()));
  const transport = new StdioServerTransport(options.stdin, options.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    options.stdin.once('end', () => resolve());
    options.stdin.once('close', () => resolve());
  });
  transport.onerror = (error) => options.log(`cody mcp-server: ${error.message}`);
  await server.connect(transport);
  await Promise.race([closed, options.stopped]);
  // Turns first (each recorded as interrupted), then the connection.
  await engines.close();
  await server.close();
}

/** What one `tools/call` brings: its abort signal, its progress token, and the client's elicitation. */
function callContext(server: McpServer, extra: Extra, canAsk: boolean): CallContext {
  const progress = progressOf(extra);
  const ask: AskClient = async (form, signal) => {
    const result = await server.server.elicitInput(
      { mode: 'form', ...form },
      { signal, relatedRequestId: extra.requestId, timeout: QUESTION_TIMEOUT_MS },
    );
    return { action: result.action, content: result.content };
  };
  return { signal: extra.signal, ...(progress ? { progress } : {}), ...(canAsk ? { ask } : {}) };
}

/** `notifications/progress` with the request's token, numbered 1, 2, …; none when it brought no token. */
function progressOf(extra: Extra): ((message: string) => void) | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  let progress = 0;
  return (message) => {
    progress += 1;
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress, message },
      })
      .catch(() => undefined);
  };
}
