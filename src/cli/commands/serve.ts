/**
 * `cody serve`: the engine over HTTP (and the web page at `/`) until SIGTERM or Ctrl-C, then an orderly
 * stop and exit 0. `cody web` is the same server, and opens the page in the browser.
 */
import { isErrno, UsageError } from '../../core/index.js';
import { ensureCodyHome, resolveCodyPaths } from '../../core/index.js';
import { ExitCode } from '../exit-codes.js';
import { isWildcardHost, parseServeOptions, type ServeOptionsInput } from '../../server/serve-options.js';
import type { Io } from '../io.js';
import { sanitizeForTerminal } from '../sanitize.js';
import { CLI_VERSION } from '../version.js';
import { openBrowser } from '../open-browser.js';

export async function runServe(
  input: ServeOptionsInput,
  io: Io,
  mode: { openBrowser?: boolean } = {},
): Promise<number> {
  const options = parseServeOptions(input);
  const paths = resolveCodyPaths(io.env);
  await ensureCodyHome(paths);
  const [{ createCody }, { startCodyServer, IDLE_CLOSE_MS }, { loadOrCreateToken }, { knownSecrets }] =
    await Promise.all([
      import('../../core/index.js'),
      import('../../server/http-server.js'),
      import('../../server/token.js'),
      import('../../core/index.js'),
    ]);
  const token = await loadOrCreateToken(paths.home);
  // An approval is asked only of a client attached to that conversation's events (see clientAttached).
  let attached: (conversationId: string) => Promise<boolean> = () => Promise.resolve(false);
  const engine = createCody({
    home: paths.home,
    env: io.env,
    cwd: io.cwd,
    canAsk: (conversationId) => attached(conversationId),
    // A server runs for days: a conversation with no turn, no client and no request is closed.
    idleCloseMs: IDLE_CLOSE_MS,
    version: CLI_VERSION,
    // Redacted from every event and rollout by the engine, like the keys it reads.
    secrets: [token.token],
    // Bubblewrap missing, an MCP server failing: said on the server's stderr, as `cody chat` does.
    onNotice: (notice) => {
      const prefix = notice.level === 'warning' ? 'warning: ' : '';
      io.stderr.write(`${sanitizeForTerminal(`${prefix}${notice.message}`)}\n`);
    },
  });
  const server = await startCodyServer({
    engine,
    token: token.token,
    host: options.host,
    port: options.port,
    ...(options.corsOrigin !== undefined ? { corsOrigin: options.corsOrigin } : {}),
    env: io.env,
    // Stored keys and sign-in tokens: never in an answer or a frame, also those learnt after a rollout.
    secrets: () => knownSecrets(io.env, paths.home),
    allowRemote: options.allowRemote,
    workspace: io.cwd,
    log: (line) => io.stderr.write(`${line}\n`),
  }).catch((error: unknown) => {
    // Another program (or another cody serve) has the port: a usage error, one line, no stack.
    if (isErrno(error, 'EADDRINUSE')) throw new UsageError(`port ${options.port} is in use; pass --port`);
    throw error;
  });
  attached = (conversationId) => server.clientAttached(conversationId);
  await announce(io, { token, url: server.url, signIn: server.signInUrl(), host: options.host }, mode);
  await onFirstSignal(async (signal) => {
    io.stderr.write(`cody serve: ${signal}: stopping (running turns are interrupted and recorded)\n`);
    await server.close();
    await engine.close();
  });
  io.stderr.write('cody serve: stopped\n');
  return ExitCode.ok;
}

/** What the server says on stderr once it listens: the token, the address, the web page's sign-in link. */
async function announce(
  io: Io,
  server: {
    token: { created: boolean; path: string; token: string };
    url: string;
    signIn: string;
    host: string;
  },
  mode: { openBrowser?: boolean },
): Promise<void> {
  const { token, signIn } = server;
  // The token line comes first: a program that waits for "listening on" then has everything it needs.
  if (token.created) {
    io.stderr.write(
      `cody serve: new API token (saved to ${token.path}, shown only this once): ${token.token}\n`,
    );
  } else {
    io.stderr.write(`cody serve: API token in ${token.path}\n`);
  }
  io.stderr.write(`cody serve: listening on ${server.url}\n`);
  if (isWildcardHost(server.host)) {
    // The link below names this machine's loopback: 0.0.0.0 is no address a browser can open.
    io.stderr.write(
      "cody serve: every interface: the sign-in link uses this machine's loopback address; from another machine, put this machine's address in its place\n",
    );
  }
  // The sign-in link carries a one-time code (in the fragment, which no request or log ever holds).
  if (mode.openBrowser !== true) {
    io.stderr.write(`cody serve: web page (one-time sign-in link): ${signIn}\n`);
  } else if (await openBrowser(signIn, io.env)) {
    io.stderr.write(`cody web: opened the web page in your browser\n`);
  } else {
    io.stderr.write(`cody web: could not open a browser; open this one-time sign-in link: ${signIn}\n`);
  }
}

/** Waits for SIGTERM or SIGINT, then runs the orderly stop; the listeners stay until it is done. */
async function onFirstSignal(stop: (signal: NodeJS.Signals) => Promise<void>): Promise<void> {
  // `on`, not `once`: proper-lockfile's signal-exit re-raises a signal when it sees no other listener,
  // which would kill the process in the middle of the orderly stop.
  let onSignal: (signal: NodeJS.Signals) => void = () => undefined;
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    onSignal = resolve;
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
  try {
    await stop(signal);
  } finally {
    process.removeListener('SIGTERM', onSignal);
    process.removeListener('SIGINT', onSignal);
  }
}
