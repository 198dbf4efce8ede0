/**
 * What `cody serve` does before routing an API request, for browsers: refuses a `Host` that is not this
 * server (DNS rebinding) and an `Origin` that is not its own, serves the web page's files, signs a
 * browser in (`/auth/session`), and decides whether a request is authenticated — by the bearer token
 * (programs) or by the session cookie together with that session's secret (`X-Cody-Session`, on every
 * request) plus `X-Cody-Request: 1` on anything that changes state (the page).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './api-error.js';
import { isPagePath, pageFiles, type PageFile } from './web-assets.js';
import { hostCheck, originCheck } from './web-security.js';
import { sameSecret, SESSION_SECRET_HEADER, WebSessions, type OpenedSession } from './web-session.js';
import { tokenCheck } from './token.js';

export interface WebLayerOptions {
  token: string;
  port: number;
  /** `--allow-remote`: any `Host` is accepted (the server was asked to be reachable by other names). */
  anyHost: boolean;
  corsOrigin: string | undefined;
  webRoot: string | undefined;
  /** The directory the server runs in (the page lists its conversations first). */
  workspace: string;
}

/** A JSON answer the layer gives itself, with the headers it needs. */
export interface LayerReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type LayerOutcome =
  | { kind: 'page'; file: PageFile }
  | { kind: 'reply'; reply: LayerReply }
  /** Authenticated: route it. */
  | { kind: 'api' };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The API operations this layer answers itself (openapi.json declares them beside the router's). */
export const WEB_LAYER_OPERATIONS = ['POST /auth/session', 'GET /auth/session', 'DELETE /auth/session'];

export class WebLayer {
  readonly sessions: WebSessions;
  private readonly options: WebLayerOptions;
  private readonly isHost: (host: string | undefined) => boolean;
  private readonly isOrigin: (origin: string | undefined, host: string | undefined) => boolean;
  private readonly isBearer: (header: string | undefined) => boolean;
  private readonly page: (pathname: string) => Promise<PageFile | undefined>;

  constructor(options: WebLayerOptions) {
    this.options = options;
    this.sessions = new WebSessions(options.port);
    this.isHost = hostCheck(options.port);
    this.isOrigin = originCheck(options.corsOrigin);
    this.isBearer = tokenCheck(options.token);
    this.page = pageFiles(options.webRoot);
  }

  /** Decides what happens to a request; throws an ApiError for a refused one. */
  async check(
    request: IncomingMessage,
    pathname: string,
    body: () => Promise<unknown>,
  ): Promise<LayerOutcome> {
    const method = request.method ?? 'GET';
    const host = request.headers.host;
    if (!this.options.anyHost && !this.isHost(host)) {
      throw new ApiError(421, 'misdirected-request', 'This server answers only to its own loopback address.');
    }
    if (!this.isOrigin(header(request, 'origin'), host)) {
      throw new ApiError(403, 'forbidden', 'Requests from other origins are refused.');
    }
    if ((method === 'GET' || method === 'HEAD') && isPagePath(pathname)) {
      const file = await this.page(pathname);
      if (!file) throw new ApiError(404, 'not-found', 'The web page is not built (npm run build).');
      return { kind: 'page', file };
    }
    if (pathname === '/auth/session' && method === 'POST') {
      return { kind: 'reply', reply: await this.signIn(body) };
    }
    const viaCookie = this.authenticate(request);
    if (viaCookie && !SAFE_METHODS.has(method) && header(request, 'x-cody-request') !== '1') {
      throw new ApiError(403, 'forbidden', 'The page must send X-Cody-Request: 1.');
    }
    if (pathname === '/auth/session') return { kind: 'reply', reply: this.sessionRoute(request, method) };
    return { kind: 'api' };
  }

  /** A sign-in URL with a new one-time code. */
  signInUrl(base: string): string {
    return `${base}/#code=${this.sessions.newCode()}`;
  }

  /**
   * True for a cookie session with its secret, false for the bearer token; 403 for a session's cookie
   * without its secret (another service on this host is sent the cookie too), 401 for neither.
   */
  private authenticate(request: IncomingMessage): boolean {
    if (this.isBearer(request.headers.authorization)) return false;
    const session = this.sessions.check(request.headers.cookie, header(request, SESSION_SECRET_HEADER));
    if (session === 'ok') return true;
    if (session === 'no-secret') {
      throw new ApiError(
        403,
        'session-secret',
        'The session cookie alone authorises nothing: send the session secret from the sign-in answer in X-Cody-Session.',
      );
    }
    if (session === 'wrong-secret') {
      throw new ApiError(403, 'session-secret', "X-Cody-Session is not this session's secret.");
    }
    throw new ApiError(
      401,
      'unauthorized',
      'Missing or wrong bearer token (see $CODY_HOME/serve-token), and no session.',
    );
  }

  /** `POST /auth/session` `{"code"}` (from the sign-in URL) or `{"token"}` (the API token, pasted). */
  private async signIn(body: () => Promise<unknown>): Promise<LayerReply> {
    const input = (await body()) as { code?: unknown; token?: unknown } | undefined;
    let session: OpenedSession | undefined;
    if (typeof input?.code === 'string' && input.code !== '') session = this.sessions.redeem(input.code);
    else if (typeof input?.token === 'string' && sameSecret(input.token, this.options.token)) {
      session = this.sessions.open();
    }
    if (session === undefined) {
      throw new ApiError(
        401,
        'unauthorized',
        'That sign-in link was already used or has expired: start `cody web` again, or paste the API token.',
      );
    }
    // The secret goes in the body, never in a cookie: only the page's own origin can read it.
    return {
      status: 200,
      body: { ...this.sessionInfo(), secret: session.secret },
      headers: { 'set-cookie': this.sessions.cookie(session.id) },
    };
  }

  private sessionRoute(request: IncomingMessage, method: string): LayerReply {
    if (method === 'GET') return { status: 200, body: this.sessionInfo() };
    if (method === 'DELETE') {
      this.sessions.close(request.headers.cookie);
      return {
        status: 200,
        body: { signedIn: false },
        headers: { 'set-cookie': this.sessions.clearedCookie() },
      };
    }
    throw new ApiError(405, 'method-not-allowed', `${method} is not allowed on /auth/session.`, {
      allow: 'POST, GET, DELETE',
    });
  }

  private sessionInfo(): { signedIn: true; workspace: string } {
    return { signedIn: true, workspace: this.options.workspace };
  }
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Writes a page file with the security headers. */
export function sendPage(
  response: ServerResponse,
  file: PageFile,
  method: string,
  headers: Record<string, string>,
): void {
  response.writeHead(200, {
    ...headers,
    'content-type': file.type,
    'content-length': file.body.length,
    'cache-control': 'no-cache',
  });
  response.end(method === 'HEAD' ? undefined : file.body);
}
