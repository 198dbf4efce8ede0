/**
 * The session cookie alone authorises nothing. Cookies are not kept apart by port, so another service on
 * this machine's loopback is sent `cody_session_<port>` by the browser; replaying it (with
 * `X-Cody-Request: 1`, with or without Cody's own Origin: a program sends what it likes) must get 403 on
 * every route openapi.json declares. Only the session's own secret (`X-Cody-Session`, from the sign-in
 * answer's body) opens it; another session's is refused; signing out kills cookie and secret together.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCodyServer, type CodyServer } from '../../src/server/http-server.js';
import { FakeEngine } from './fake-engine.js';
import { validateAnswer } from './openapi-validator.js';

const TOKEN = 'test-token-secret-0123456789abcdef';
const spec = JSON.parse(readFileSync(join(import.meta.dirname, '../../src/server/openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, unknown>>;
};

let webRoot = '';
let server: CodyServer;

beforeAll(async () => {
  webRoot = `${await mkdtemp(join(tmpdir(), 'cody-web-secret-'))}/`;
  await writeFile(join(webRoot, 'index.html'), '<!doctype html><title>Cody</title>');
  server = await startCodyServer({
    engine: new FakeEngine(),
    token: TOKEN,
    host: '127.0.0.1',
    port: 0,
    webRoot,
    workspace: '/work/space',
  });
});
afterAll(async () => {
  await server.close(1_000);
  await rm(webRoot, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** node:http, so any header can be sent; a stream's answer is read up to its first bytes. */
function call(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${path}`, { method, headers }, (res) => {
      const answer = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        for (const one of Array.isArray(value) ? value : [value ?? '']) answer.append(name, one);
      }
      let text = '';
      const done = () => resolve({ status: res.statusCode ?? 0, headers: answer, text });
      res.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
        if (answer.get('content-type')?.startsWith('text/event-stream')) {
          req.destroy();
          done();
        }
      });
      res.on('end', done);
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function signIn(): Promise<{ cookie: string; secret: string; answer: Answer }> {
  const code = /#code=([\w-]+)$/.exec(server.signInUrl())?.[1] ?? '';
  const answer = await call('POST', '/auth/session', { 'content-type': 'application/json' }, { code });
  const cookie = (answer.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const { secret } = JSON.parse(answer.text) as { secret: string };
  return { cookie, secret, answer };
}

const bearer = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

/** Every operation openapi.json declares, with `{id}` filled in by a real conversation's id. */
function operations(id: string): Array<{ method: string; path: string }> {
  return Object.entries(spec.paths).flatMap(([template, item]) =>
    Object.keys(item)
      .filter((key) => ['get', 'post', 'put', 'delete', 'patch'].includes(key))
      .map((method) => ({ method: method.toUpperCase(), path: template.replace('{id}', id) })),
  );
}

/** What a replay of `headers` got on every operation but the sign-in (which takes no session). */
async function replayEverywhere(id: string, headers: Record<string, string>): Promise<string[]> {
  const outcomes: string[] = [];
  for (const { method, path } of operations(id)) {
    const body = method === 'POST' || method === 'PUT' ? {} : undefined;
    const answer = await call(method, path, { 'content-type': 'application/json', ...headers }, body);
    validateAnswer(method, path, answer.status, answer.headers, answer.text);
    const code =
      answer.status === 403 ? (JSON.parse(answer.text) as { error: { code: string } }).error.code : '';
    outcomes.push(`${method} ${path} ${answer.status} ${code}`);
  }
  return outcomes;
}

describe('a session no other local service can borrow', () => {
  it('answers the sign-in with the session secret in its body, never in a cookie', async () => {
    const { answer, cookie, secret } = await signIn();
    expect(answer.status).toBe(200);
    validateAnswer('POST', '/auth/session', answer.status, answer.headers, answer.text);
    expect(secret).toMatch(/^[\w-]{40,}$/);
    expect(cookie).toMatch(/^cody_session_\d+=[\w-]{40,}$/);
    expect(answer.headers.get('set-cookie')).not.toContain(secret);
    expect(cookie).not.toContain(secret);
  });

  it('refuses the replayed cookie on every route with 403, with no secret or another session’s', async () => {
    const made = await call('POST', '/conversations', bearer, {});
    const { id } = JSON.parse(made.text) as { id: string };
    const victim = await signIn();
    const other = await signIn();
    const replays: Array<Record<string, string>> = [
      { cookie: victim.cookie, 'x-cody-request': '1' },
      { cookie: victim.cookie, 'x-cody-request': '1', origin: server.url },
      { cookie: victim.cookie, 'x-cody-request': '1', 'x-cody-session': '' },
      { cookie: victim.cookie, 'x-cody-request': '1', 'x-cody-session': other.secret },
      { cookie: victim.cookie, 'x-cody-request': '1', 'x-cody-session': `${victim.secret}x` },
    ];
    for (const headers of replays) {
      const outcomes = await replayEverywhere(id, headers);
      const expected = operations(id).map(({ method, path }) =>
        method === 'POST' && path === '/auth/session'
          ? `${method} ${path} 401 `
          : `${method} ${path} 403 session-secret`,
      );
      expect(outcomes, JSON.stringify(headers)).toEqual(expected);
    }
    // Nothing was made, changed or deleted, and no new session was handed out.
    const listed = JSON.parse((await call('GET', '/conversations', bearer)).text) as {
      conversations: Array<{ id: string }>;
    };
    expect(listed.conversations.map((conversation) => conversation.id)).toEqual([id]);
    // The session itself still works with its own secret, its stream too.
    const own = { cookie: victim.cookie, 'x-cody-session': victim.secret };
    expect((await call('GET', '/conversations', own)).status).toBe(200);
    const created = await call('POST', '/conversations', { ...own, 'x-cody-request': '1' }, {});
    expect(created.status).toBe(201);
    const stream = await call('GET', '/events', own);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    // The other session's cookie with its own secret works too: each pair is its own session.
    expect(
      (await call('GET', '/auth/session', { cookie: other.cookie, 'x-cody-session': other.secret })).status,
    ).toBe(200);
  });

  it('signs out for good: the cookie and the secret are both refused afterwards', async () => {
    const { cookie, secret } = await signIn();
    const own = { cookie, 'x-cody-session': secret };
    // Signing out needs the secret too: a replayed cookie cannot sign the person out either.
    expect((await call('DELETE', '/auth/session', { cookie, 'x-cody-request': '1' })).status).toBe(403);
    const out = await call('DELETE', '/auth/session', { ...own, 'x-cody-request': '1' });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    for (const [method, path] of [
      ['GET', '/auth/session'],
      ['GET', '/conversations'],
      ['POST', '/conversations'],
    ] as const) {
      const answer = await call(
        method,
        path,
        { ...own, 'x-cody-request': '1' },
        method === 'POST' ? {} : undefined,
      );
      expect(answer.status, `${method} ${path}`).toBe(401);
    }
  });

  it('keeps the bearer token working without any cookie or secret', async () => {
    expect((await call('GET', '/conversations', bearer)).status).toBe(200);
    expect((await call('POST', '/conversations', bearer, {})).status).toBe(201);
  });
});
