/**
 * A loopback OAuth token endpoint for the sign-in tests: answers `grant_type=refresh_token` like the real
 * ones (auth.openai.com, Anthropic's console): rotates the refresh token on every use and refuses a
 * refresh token that was already used (`refresh_token_reused` / `invalid_grant`), recording each request.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TokenRequestRecord {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/** An unsigned JWT with the given claims (the sign-in code reads, never verifies, them). */
export function fakeJwt(claims: Record<string, unknown>): string {
  const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.c2lnbmF0dXJl`;
}

export class FakeTokenEndpoint {
  readonly requests: TokenRequestRecord[] = [];
  /** The one refresh token the endpoint accepts next. */
  validRefreshToken: string;
  /** Access tokens issued so far, newest last. */
  readonly issued: string[] = [];
  private server: Server | undefined;
  private counter = 0;

  constructor(
    private readonly options: {
      flavour: 'openai' | 'claude';
      initialRefreshToken: string;
      /** Delay before answering, to widen races in the concurrency test. */
      delayMs?: number;
      /** Seconds the issued access tokens live. */
      lifetimeSeconds?: number;
    },
  ) {
    this.validRefreshToken = options.initialRefreshToken;
  }

  async start(): Promise<string> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        } catch {
          body = {};
        }
        this.requests.push({ path: request.url ?? '/', headers: request.headers, body });
        setTimeout(() => {
          const { status, answer } = this.answer(body);
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(JSON.stringify(answer));
        }, this.options.delayMs ?? 0);
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/token`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private answer(body: Record<string, unknown>): { status: number; answer: unknown } {
    const openai = this.options.flavour === 'openai';
    if (body.grant_type !== 'refresh_token' || body.refresh_token !== this.validRefreshToken) {
      return openai
        ? { status: 401, answer: { error: { code: 'refresh_token_reused', message: 'already used' } } }
        : { status: 400, answer: { error: 'invalid_grant', error_description: 'Invalid refresh token' } };
    }
    this.counter += 1;
    const lifetime = this.options.lifetimeSeconds ?? 3600;
    const access = openai
      ? fakeJwt({ exp: Math.floor(Date.now() / 1000) + lifetime, n: this.counter, kind: 'access' })
      : `sk-ant-oat01-refreshed-${this.counter}-SECRET`;
    this.issued.push(access);
    this.validRefreshToken = `${openai ? 'rt' : 'sk-ant-ort01'}-rotated-${this.counter}-SECRET`;
    return {
      status: 200,
      answer: openai
        ? {
            access_token: access,
            refresh_token: this.validRefreshToken,
            id_token: fakeJwt({ n: this.counter, kind: 'id' }),
          }
        : {
            access_token: access,
            refresh_token: this.validRefreshToken,
            expires_in: lifetime,
            scope: 'user:inference user:profile',
          },
    };
  }
}
