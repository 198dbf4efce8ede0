/**
 * `cody serve`'s HTTP layer on node:http (see DECISIONS.md for the measurement against fastify and hono):
 * bearer-token check, optional CORS, routing, JSON answers with stable error codes, SSE streams, and an
 * orderly stop.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, errorBody } from './api-error.js';
import { conversationRoutes } from './conversation-routes.js';
import { GlobalEvents } from './global-events.js';
import { globalRoutes } from './global-routes.js';
import type { Engine } from './engine-port.js';
import { toApiError } from './error-map.js';
import { LiveConversations } from './live-conversations.js';

export { IDLE_CLOSE_MS } from './live-conversations.js';
import { openApiDocument } from './openapi.js';
import { DEFAULT_MAX_BODY_BYTES, MAX_IMAGE_BODY_BYTES, readJsonBody } from './request-body.js';
import { compileRoutes, matchRoute, type CompiledRoute, type Route } from './router.js';
import { environmentSecrets } from '../core/index.js';
import type { ServerContext } from './server-context.js';
import { HEARTBEAT_MS, type SseStream } from './sse.js';
import { exportRoutes } from './export-routes.js';
import { turnRoutes } from './turn-routes.js';
import { defaultWebRoot } from './web-assets.js';
import { sendPage, WebLayer } from './web-layer.js';
import { SECURITY_HEADERS } from './web-security.js';
import { SecretFilter, type SecretSource } from './secret-filter.js';

export interface CodyServerOptions {
  engine: Engine;
  token: string;
  host: string;
  port: number;
  /** Allowed browser origin; no CORS headers at all when unset. */
  corsOrigin?: string;
  maxBodyBytes?: number;
  heartbeatMs?: number;
  /** Where the provider keys redacted from JSON answers and SSE frames come from. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Every other secret Cody knows (stored keys, sign-in tokens: core's `knownSecrets`), read again before
   * each request; redacted from every JSON answer and SSE frame (see secret-filter.ts).
   */
  secrets?: SecretSource;
  /** One line per unexpected error (never a secret, never a body). */
  log?: (line: string) => void;
  /** `--allow-remote`: answer to any `Host` (else only to this server's loopback address and port). */
  allowRemote?: boolean;
  /** The built web page (dist/web); found beside the code when unset. */
  webRoot?: string;
  /** The directory the server runs in: the web page lists its conversations first. */
  workspace?: string;
}

export interface CodyServer {
  url: string;
  /**
   * `url` with a new one-time sign-in code in its fragment, for a browser (see web-session.ts); on this
   * machine's loopback when the server listens on every interface (0.0.0.0, ::).
   */
  signInUrl(): string;
  /**
   * Whether an API client is attached to this conversation's events to answer an approval request: true
   * at once when one is, else as soon as one attaches within `ATTACH_GRACE_MS`, else false (the call is
   * then declined with a reason the model sees — never a turn waiting for nobody).
   */
  clientAttached(conversationId: string): Promise<boolean>;
  /** Stops accepting, interrupts running turns (waiting up to `graceMs` for them to be recorded), ends streams. */
  close(graceMs?: number): Promise<void>;
}

/** How long an approval request waits for a client to attach to the conversation's events. */
export const ATTACH_GRACE_MS = 5_000;

/** How long SIGTERM waits for interrupted turns to record where they stopped. */
export const SHUTDOWN_GRACE_MS = 10_000;

export function buildRoutes(context: ServerContext): Route[] {
  return [
    { method: 'GET', path: '/openapi.json', handler: async () => ({ status: 200, body: openApiDocument }) },
    ...globalRoutes(context),
    ...conversationRoutes(context),
    ...turnRoutes(context),
    ...exportRoutes(context),
  ];
}

export async function startCodyServer(options: CodyServerOptions): Promise<CodyServer> {
  // JSON answers (transcripts of rollouts written before a secret was known, states) and SSE frames (an
  // event replayed from then) get every secret Cody knows replaced: the token, the keys, the sign-ins.
  const secrets = new SecretFilter(
    [options.token, ...environmentSecrets(options.env ?? {})],
    options.secrets,
  );
  const context = serverContext(options, secrets);
  // `web` is made once the port is known (`--port 0`): before that no request arrives.
  const state: RequestState = {
    options,
    context,
    secrets,
    routes: compileRoutes(buildRoutes(context)),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    log: options.log ?? (() => undefined),
    stopping: false,
  };

  const server: Server = createServer((request, response) => {
    handleRequest(state, request, response).catch((error: unknown) => {
      state.log(`cody serve: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) sendJson(state, response, 500, errorBody('internal', 'Internal error.'));
      else response.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;

  await listen(server, options.port, options.host);
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  // Listening on every interface (0.0.0.0, ::): a link to that address opens nothing; this machine's
  // loopback reaches the same server (and --allow-remote answers any Host).
  const linkBase = `http://${wildcardLoopback(address.address) ?? host}:${address.port}`;
  const layer = new WebLayer({
    token: options.token,
    port: address.port,
    anyHost: options.allowRemote === true,
    corsOrigin: options.corsOrigin,
    webRoot: options.webRoot ?? defaultWebRoot(),
    workspace: options.workspace ?? process.cwd(),
  });
  state.web = layer;

  return {
    url,
    signInUrl: () => layer.signInUrl(linkBase),
    clientAttached: (conversationId) => context.live.waitForListener(conversationId, ATTACH_GRACE_MS),
    close: async (graceMs = SHUTDOWN_GRACE_MS) => {
      state.stopping = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await context.live.shutdown(graceMs);
      for (const stream of context.streams) stream.end();
      server.closeAllConnections();
      await closed;
    },
  };
}

/** What answering a request needs: the server's options, routes, secrets, and whether it stops. */
interface RequestState {
  options: CodyServerOptions;
  context: ServerContext;
  secrets: SecretFilter;
  routes: CompiledRoute[];
  maxBodyBytes: number;
  log: (line: string) => void;
  stopping: boolean;
  /** Set once the server listens. */
  web?: WebLayer;
}

/** The routes' shared state: the engine, live conversations, streams, global events, headers. */
function serverContext(options: CodyServerOptions, secrets: SecretFilter): ServerContext {
  const signals = new GlobalEvents();
  return {
    engine: options.engine,
    live: new LiveConversations({ engine: options.engine, onSignal: (signal) => signals.publish(signal) }),
    streams: new Set<SseStream>(),
    conversationStreams: new Map(),
    signals,
    heartbeatMs: options.heartbeatMs ?? HEARTBEAT_MS,
    redactFrame: (data) => secrets.frame(data),
    extraHeaders: {
      ...SECURITY_HEADERS,
      ...(options.corsOrigin ? { 'access-control-allow-origin': options.corsOrigin, vary: 'Origin' } : {}),
    },
  };
}

async function handleRequest(
  state: RequestState,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const { options, context } = state;
  const method = request.method ?? 'GET';
  if (method === 'OPTIONS' && options.corsOrigin) {
    response.writeHead(204, {
      ...context.extraHeaders,
      'access-control-allow-methods': 'GET, POST, PUT, DELETE',
      'access-control-allow-headers': 'authorization, content-type, last-event-id, x-cody-request',
      'access-control-max-age': '600',
    });
    response.end();
    return;
  }
  try {
    await routeRequest(state, method, request, response);
  } catch (error) {
    const apiError = toApiError(error);
    if (apiError.code === 'internal')
      state.log(`cody serve: ${method} ${request.url ?? ''}: ${errorText(error)}`);
    if (response.headersSent) {
      response.destroy();
      return;
    }
    // An unread oversized body: answer, then drop the connection instead of reading the rest.
    if (apiError.status === 413) response.setHeader('connection', 'close');
    sendJson(state, response, apiError.status, errorBody(apiError.code, apiError.message), apiError.headers);
  }
}

/** The web layer's checks (host, sign-in, page), then the matching route. */
async function routeRequest(
  state: RequestState,
  method: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const { options, context, maxBodyBytes } = state;
  // A key stored or a sign-in made since the last request counts for this one.
  await state.secrets.refresh();
  const web = state.web;
  if (state.stopping || !web) throw new ApiError(503, 'shutting-down', 'The server is shutting down.');
  const url = new URL(request.url ?? '/', 'http://localhost');
  const outcome = await web.check(request, url.pathname, () => readJsonBody(request, maxBodyBytes));
  if (outcome.kind === 'page') {
    sendPage(response, outcome.file, method, context.extraHeaders);
    return;
  }
  if (outcome.kind === 'reply') {
    sendJson(state, response, outcome.reply.status, outcome.reply.body, outcome.reply.headers);
    return;
  }
  const { route, params } = matchRoute(state.routes, method, url.pathname);
  const reply = await route.handler({
    params,
    query: url.searchParams,
    body: () =>
      readJsonBody(request, route.imageBody ? (options.maxBodyBytes ?? MAX_IMAGE_BODY_BYTES) : maxBodyBytes),
    request,
    response,
  });
  if (reply) sendJson(state, response, reply.status, reply.body);
}

/** A JSON answer, with every secret the server knows replaced. */
function sendJson(
  state: RequestState,
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = JSON.stringify(state.secrets.json(body));
  response.writeHead(status, {
    ...state.context.extraHeaders,
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}),
  });
  response.end(text);
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The loopback address standing for an "every interface" address, else undefined. */
export function wildcardLoopback(address: string): string | undefined {
  if (address === '0.0.0.0') return '127.0.0.1';
  if (address === '::' || address === '::0') return '[::1]';
  return undefined;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
