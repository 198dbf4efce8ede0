/**
 * The browser-facing guards of `cody serve`, over HTTP against a scripted engine: the page's files and
 * their content types, the security headers on every answer, the Host check (DNS rebinding), the Origin
 * check, the one-time sign-in code traded for an HttpOnly SameSite=Strict cookie (and the session's
 * secret, which every cookie request carries: web-session-secret.test.ts), and X-Cody-Request on
 * cookie-authenticated changes, while the bearer token keeps working for programs.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCodyServer, type CodyServer } from '../../src/server/http-server.js';
import { CODE_TTL_MS, WebSessions } from '../../src/server/web-session.js';
import { FakeEngine } from './fake-engine.js';
import { validateAnswer } from './openapi-validator.js';

const TOKEN = 'test-token-web-0123456789abcdef';
let webRoot = '';
let server: CodyServer | undefined;

beforeAll(async () => {
  webRoot = `${await mkdtemp(join(tmpdir(), 'cody-web-root-'))}/`;
  await writeFile(join(webRoot, 'index.html'), '<!doctype html><title>Cody</title>');
  await writeFile(join(webRoot, 'app.js'), 'console.log(1);');
  await writeFile(join(webRoot, 'app.css'), 'body{}');
});
afterAll(async () => rm(webRoot, { recursive: true, force: true }));
afterEach(async () => {
  await server?.close(1_000);
  server = undefined;
});

async function start(options: { allowRemote?: boolean; root?: string } = {}): Promise<CodyServer> {
  server = await startCodyServer({
    engine: new FakeEngine(),
    token: TOKEN,
    host: '127.0.0.1',
    port: 0,
    webRoot: options.root ?? webRoot,
    workspace: '/work/space',
    ...(options.allowRemote ? { allowRemote: true } : {}),
  });
  return server;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** node:http, so the test can set any Host and Origin header. */
function call(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(`${url}${path}`, { method, headers }, (res) => {
      let data = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (data += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: data }));
    });
    req.on('error', reject);
    req.end(text);
  });
}

function codeOf(signInUrl: string): string {
  return /#code=([\w-]+)$/.exec(signInUrl)?.[1] ?? '';
}

/** `session`: the headers of the page's requests, the cookie and the session's secret. */
async function signIn(
  url: string,
  code: string,
): Promise<{ answer: Answer; session: Record<string, string> }> {
  const answer = await call(url, 'POST', '/auth/session', { 'content-type': 'application/json' }, { code });
  const setCookie = answer.headers['set-cookie']?.[0] ?? '';
  const secret = answer.status === 200 ? (JSON.parse(answer.text) as { secret: string }).secret : '';
  return { answer, session: { cookie: setCookie.split(';')[0] ?? '', 'x-cody-session': secret } };
}

describe('cody serve for browsers', () => {
  it('serves the page at / with its content types, without a token, and strict headers on every answer', async () => {
    const { url } = await start();
    const expected: Array<[string, string]> = [
      ['/', 'text/html; charset=utf-8'],
      ['/index.html', 'text/html; charset=utf-8'],
      ['/assets/app.js', 'text/javascript; charset=utf-8'],
      ['/assets/app.css', 'text/css; charset=utf-8'],
    ];
    for (const [path, type] of expected) {
      const answer = await call(url, 'GET', path);
      expect(answer.status, path).toBe(200);
      expect(answer.headers['content-type'], path).toBe(type);
    }
    // Nothing but those files: no path reaches the file system.
    expect((await call(url, 'GET', '/assets/../index.html')).status).not.toBe(500);
    expect((await call(url, 'GET', '/assets/other.js')).status).toBe(401);
    for (const path of ['/', '/conversations', '/openapi.json', '/nope']) {
      const { headers } = await call(url, 'GET', path);
      const csp = String(headers['content-security-policy']);
      expect(csp, path).toContain("default-src 'self'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).not.toContain('unsafe-inline');
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(headers['x-content-type-options'], path).toBe('nosniff');
      expect(headers['referrer-policy'], path).toBe('no-referrer');
    }
  });

  it('answers 404 for the page when it is not built', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'cody-web-empty-'));
    try {
      const { url } = await start({ root: `${empty}/` });
      expect((await call(url, 'GET', '/')).status).toBe(404);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('refuses a Host that is not its own loopback address and port (421), unless --allow-remote', async () => {
    const { url } = await start();
    const port = new URL(url).port;
    const auth = { authorization: `Bearer ${TOKEN}` };
    for (const host of ['evil.example', `evil.example:${port}`, '127.0.0.1:1', `10.0.0.1:${port}`]) {
      const answer = await call(url, 'GET', '/conversations', { ...auth, host });
      expect(answer.status, host).toBe(421);
      expect(JSON.parse(answer.text), host).toMatchObject({ error: { code: 'misdirected-request' } });
      expect((await call(url, 'GET', '/', { host })).status, host).toBe(421);
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      expect((await call(url, 'GET', '/conversations', { ...auth, host })).status, host).toBe(200);
    }
    await server?.close(1_000);
    const remote = await start({ allowRemote: true });
    const answer = await call(remote.url, 'GET', '/conversations', { ...auth, host: 'cody.lan:9000' });
    expect(answer.status).toBe(200);
  });

  it('trades a one-time code for an HttpOnly SameSite=Strict cookie, once', async () => {
    const started = await start();
    const signInUrl = started.signInUrl();
    expect(signInUrl).toMatch(new RegExp(`^${started.url}/#code=[\\w-]{40,}$`));
    const { answer, session } = await signIn(started.url, codeOf(signInUrl));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({
      signedIn: true,
      workspace: '/work/space',
      secret: session['x-cody-session'],
    });
    const setCookie = String(answer.headers['set-cookie']?.[0]);
    expect(setCookie).toMatch(/^cody_session_\d+=[\w-]{40,}; /);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/');
    // The session works for reads, and is not the token.
    expect(setCookie).not.toContain(TOKEN);
    const listed = await call(started.url, 'GET', '/conversations', session);
    expect(listed.status).toBe(200);
    expect((await call(started.url, 'GET', '/auth/session', session)).status).toBe(200);
    // The same code again, a made-up one, and none: refused, no cookie.
    for (const code of [codeOf(signInUrl), 'made-up-code']) {
      const again = await signIn(started.url, code);
      expect(again.answer.status).toBe(401);
      expect(again.answer.headers['set-cookie']).toBeUndefined();
    }
    const unknown = { ...session, cookie: 'cody_session_1=x' };
    expect((await call(started.url, 'GET', '/conversations', unknown)).status).toBe(401);
    // Signing out ends the session.
    const out = await call(started.url, 'DELETE', '/auth/session', { ...session, 'x-cody-request': '1' });
    expect(out.status).toBe(200);
    expect((await call(started.url, 'GET', '/conversations', session)).status).toBe(401);
  });

  it('a code expires', () => {
    let now = 1_000_000;
    const sessions = new WebSessions(8080, () => now);
    const code = sessions.newCode();
    now += CODE_TTL_MS + 1;
    expect(sessions.redeem(code)).toBeUndefined();
    const fresh = sessions.newCode();
    expect(sessions.redeem(fresh)).toMatchObject({ id: expect.stringMatching(/^[\w-]{40,}$/) });
  });

  it('signs in with the API token pasted into the page, not with a wrong one', async () => {
    const { url } = await start();
    const post = (body: unknown) =>
      call(url, 'POST', '/auth/session', { 'content-type': 'application/json' }, body);
    expect((await post({ token: 'wrong' })).status).toBe(401);
    expect((await post({})).status).toBe(401);
    const answer = await post({ token: TOKEN });
    expect(answer.status).toBe(200);
    expect(String(answer.headers['set-cookie']?.[0])).toContain('HttpOnly');
  });

  it('needs X-Cody-Request on cookie-authenticated changes; the bearer token needs none', async () => {
    const started = await start();
    const { session } = await signIn(started.url, codeOf(started.signInUrl()));
    const json = { 'content-type': 'application/json' };
    const refused = await call(started.url, 'POST', '/conversations', { ...json, ...session }, {});
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text)).toMatchObject({ error: { code: 'forbidden' } });
    expect((await call(started.url, 'GET', '/conversations', session)).text).toBe('{"conversations":[]}');
    const made = await call(
      started.url,
      'POST',
      '/conversations',
      { ...json, ...session, 'x-cody-request': '1' },
      {},
    );
    expect(made.status).toBe(201);
    const bearer = await call(
      started.url,
      'POST',
      '/conversations',
      { ...json, authorization: `Bearer ${TOKEN}` },
      {},
    );
    expect(bearer.status).toBe(201);
  });

  it('refuses requests from another origin, even with a session and the header', async () => {
    const started = await start();
    const { session } = await signIn(started.url, codeOf(started.signInUrl()));
    const other = 'http://127.0.0.1:9';
    const headers = { ...session, 'x-cody-request': '1', 'content-type': 'application/json', origin: other };
    const answer = await call(started.url, 'POST', '/conversations', headers, {});
    expect(answer.status).toBe(403);
    expect((await call(started.url, 'GET', '/conversations', { ...session, origin: other })).status).toBe(
      403,
    );
    // Its own origin is fine.
    const own = await call(started.url, 'POST', '/conversations', { ...headers, origin: started.url }, {});
    expect(own.status).toBe(201);
  });

  it('answers the sign-in routes as openapi.json declares them', async () => {
    const server = await start();
    const check = (method: string, answer: Answer): void => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) {
        if (typeof value === 'string') headers.set(name, value);
      }
      validateAnswer(method, '/auth/session', answer.status, headers, answer.text);
    };
    const { answer, session } = await signIn(server.url, codeOf(server.signInUrl()));
    expect(answer.status).toBe(200);
    check('POST', answer);
    const refused = await signIn(server.url, 'not-a-code');
    expect(refused.answer.status).toBe(401);
    check('POST', refused.answer);
    const info = await call(server.url, 'GET', '/auth/session', session);
    expect(JSON.parse(info.text)).toEqual({ signedIn: true, workspace: '/work/space' });
    check('GET', info);
    const out = await call(server.url, 'DELETE', '/auth/session', { ...session, 'x-cody-request': '1' });
    expect(out.status).toBe(200);
    check('DELETE', out);
    const after = await call(server.url, 'GET', '/auth/session', session);
    expect(after.status).toBe(401);
    check('GET', after);
  });
});
