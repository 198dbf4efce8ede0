/** The HTTP layer against a scripted engine: auth, routing, errors, SSE with replay, approvals, shutdown. */
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startCodyServer, type CodyServer } from '../../src/server/http-server.js';
import { FakeEngine } from './fake-engine.js';
import { apiClient, eventsOf, type ApiClient } from './sse-client.js';

const TOKEN = 'test-token-0123456789abcdef';
const SECRET = 'sk-test-openai-SECRET-0001';

let server: CodyServer | undefined;
afterEach(async () => {
  await server?.close(1_000);
  server = undefined;
});

async function start(
  options: {
    corsOrigin?: string;
    heartbeatMs?: number;
    maxBodyBytes?: number;
    env?: Record<string, string>;
  } = {},
): Promise<{ engine: FakeEngine; api: ApiClient; url: string }> {
  const engine = new FakeEngine();
  server = await startCodyServer({
    engine,
    token: TOKEN,
    host: '127.0.0.1',
    port: 0,
    env: { OPENAI_API_KEY: SECRET },
    ...options,
  });
  return { engine, api: apiClient(server.url, TOKEN), url: server.url };
}

describe('cody serve HTTP layer', () => {
  it('refuses requests without the right bearer token, with a stable code', async () => {
    const { url } = await start();
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: `Basic ${TOKEN}` },
    ];
    for (const headers of attempts) {
      const response = await fetch(`${url}/conversations`, { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    }
    expect((await fetch(`${url}/openapi.json`)).status).toBe(401);
  });

  it('answers unknown routes, methods and conversations with JSON errors', async () => {
    const { api } = await start();
    expect((await api.request('GET', '/nope')).json).toMatchObject({ error: { code: 'not-found' } });
    expect((await api.request('PATCH', '/conversations')).status).toBe(405);
    const unknown = await api.request('GET', '/conversations/0190c000-0000-7000-8000-999999999999');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ error: { code: 'conversation-not-found' } });
    const traversal = await api.request('GET', '/conversations/..%2F..%2Fetc');
    expect(traversal.status).toBe(404);
  });

  it('refuses bad bodies with 400/413 and writes nothing', async () => {
    const { api, engine } = await start({ maxBodyBytes: 1024 });
    const created = await api.request('POST', '/conversations', {});
    expect(created.status).toBe(201);
    const id = String(created.json.id);
    const conversation = engine.conversations.get(id);
    const cases: Array<[unknown, number, string]> = [
      ['{"text": ', 400, 'invalid-json'],
      [{}, 400, 'invalid-request'],
      [{ text: '' }, 400, 'invalid-request'],
      [{ text: 42 }, 400, 'invalid-request'],
      [{ text: 'hi', extra: 1 }, 400, 'invalid-request'],
      [{ text: 'x'.repeat(2048) }, 413, 'payload-too-large'],
    ];
    for (const [body, status, code] of cases) {
      const answer = await api.request('POST', `/conversations/${id}/messages`, body);
      expect([answer.status, answer.json]).toMatchObject([status, { error: { code } }]);
    }
    expect((await api.request('POST', '/conversations', { provider: 'openai', modle: 'x' })).status).toBe(
      400,
    );
    expect((await api.request('POST', `/approvals/nope`, { decision: 'maybe' })).status).toBe(400);
    expect((await api.request('GET', `/conversations/${id}/messages?limit=0`)).status).toBe(400);
    expect(conversation?.submitted).toEqual([]);
    expect(engine.conversations.size).toBe(1);
  });

  it('refuses a chunked body past the limit while it streams in', async () => {
    const { url } = await start({ maxBodyBytes: 1024 });
    const status = await new Promise<number>((resolve, reject) => {
      const target = new URL('/conversations', url);
      const request = httpRequest(
        { host: target.hostname, port: target.port, method: 'POST', path: target.pathname },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.setHeader('authorization', `Bearer ${TOKEN}`);
      request.setHeader('content-type', 'application/json');
      request.on('error', reject);
      for (let index = 0; index < 8; index++) request.write('x'.repeat(512));
      request.end();
    });
    expect(status).toBe(413);
  });

  it('runs a turn: 202 with the turn id, events on SSE with ids, 409 for a second turn, approval over the API', async () => {
    const { api, engine } = await start();
    const id = String((await api.request('POST', '/conversations', {})).json.id);
    const first = await api.events(`/conversations/${id}/events`);
    const second = await api.events(`/conversations/${id}/events`);
    const accepted = await api.request('POST', `/conversations/${id}/messages`, { text: 'use a tool' });
    expect(accepted.status).toBe(202);
    expect(accepted.json).toEqual({ turnId: 'turn-1' });
    const until = await first.until((event) => event.type === 'approval-requested');
    const approvalId = String(eventsOf(until).at(-1)?.id);
    const busy = await api.request('POST', `/conversations/${id}/messages`, { text: 'again' });
    expect([busy.status, busy.json]).toMatchObject([409, { error: { code: 'turn-running' } }]);
    const state = await api.request('GET', `/conversations/${id}/state`);
    expect(state.json).toMatchObject({
      state: 'AwaitingToolApproval',
      turnId: 'turn-1',
      pendingApprovals: [
        {
          id: approvalId,
          callId: 'c1',
          tool: 'shell',
          arguments: '{"command":"ls"}',
          reason: 'shell',
          requestedAt: expect.any(String) as string,
        },
      ],
    });
    const answer = await api.request('POST', `/approvals/${approvalId}`, { decision: 'approve' });
    expect(answer.json).toEqual({ approvalId, conversationId: id, decision: 'approve' });
    const rest = await first.until((event) => event.type === 'turn-complete');
    const seenByFirst = [...until, ...rest];
    const seenBySecond = await second.until((event) => event.type === 'turn-complete');
    expect(seenBySecond).toEqual(seenByFirst);
    const events = eventsOf(seenByFirst);
    expect(events.every((event) => event.conversationId === id)).toBe(true);
    expect(events.map((event) => event.type)).toContain('approval-resolved');
    expect(new Set(seenByFirst.map((message) => message.id)).size).toBe(seenByFirst.length);
    expect(engine.conversations.get(id)?.responses).toEqual([{ id: approvalId, decision: 'approve' }]);
    expect((await api.request('POST', `/approvals/${approvalId}`, { decision: 'approve' })).status).toBe(404);
    first.close();
    second.close();
  });

  it('accepts the next message as soon as the client has seen turn-complete', async () => {
    const { api, engine } = await start();
    const id = String((await api.request('POST', '/conversations', {})).json.id);
    const conversation = engine.conversations.get(id);
    if (conversation) conversation.releaseDelayMs = 200;
    const stream = await api.events(`/conversations/${id}/events`);
    for (const text of ['one', 'two', 'three']) {
      const answer = await api.request('POST', `/conversations/${id}/messages`, { text });
      expect([text, answer.status]).toEqual([text, 202]);
      await stream.until((event) => event.type === 'turn-complete');
    }
    expect(conversation?.submitted).toEqual(['one', 'two', 'three']);
    stream.close();
  });

  it('replays exactly the missed events after Last-Event-ID', async () => {
    const { api } = await start();
    const id = String((await api.request('POST', '/conversations', {})).json.id);
    const stream = await api.events(`/conversations/${id}/events`);
    await api.request('POST', `/conversations/${id}/messages`, { text: 'one two three' });
    const all = await stream.until((event) => event.type === 'turn-complete');
    stream.close();
    const cut = all[2];
    const resumed = await api.events(`/conversations/${id}/events`, { lastEventId: cut?.id ?? '' });
    const replayed = await resumed.until((event) => event.type === 'turn-complete');
    expect(replayed).toEqual(all.slice(3));
    resumed.close();
    const stale = await api.events(`/conversations/${id}/events`, { lastEventId: 'zzz-5' });
    expect(eventsOf([await stale.next()])[0]).toMatchObject({ type: 'replay-gap', conversationId: id });
    expect(await stale.next()).toEqual(all[0]);
    stale.close();
  });

  it('sends a heartbeat comment on an idle stream', async () => {
    const { api } = await start({ heartbeatMs: 30 });
    const id = String((await api.request('POST', '/conversations', {})).json.id);
    const stream = await api.events(`/conversations/${id}/events`);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(stream.comments.filter((comment) => comment === 'heartbeat').length).toBeGreaterThanOrEqual(2);
    stream.close();
  });

  it('reports a turn refused at its start as an HTTP error and a later failure as a turn-failed event', async () => {
    const { api } = await start();
    const id = String((await api.request('POST', '/conversations', {})).json.id);
    const early = await api.request('POST', `/conversations/${id}/messages`, { text: 'fail-early' });
    expect([early.status, early.json]).toMatchObject([502, { error: { code: 'provider-auth' } }]);
    const stream = await api.events(`/conversations/${id}/events`);
    expect((await api.request('POST', `/conversations/${id}/messages`, { text: 'fail-late' })).status).toBe(
      202,
    );
    const events = eventsOf(await stream.until((event) => event.type === 'turn-failed'));
    expect(events.at(-1)).toMatchObject({ error: { kind: 'provider', message: 'provider said no' } });
    stream.close();
    expect((await api.request('POST', `/conversations/${id}/messages`, { text: 'fine' })).status).toBe(202);
  });

  it('redacts the keys Cody reads and its token from JSON answers by value, never a JSON key', async () => {
    const { api } = await start({ env: { OPENAI_API_KEY: SECRET, SORT_KEY: 'messages' } });
    const id = String((await api.request('POST', '/conversations', {})).json.id);
    const stream = await api.events(`/conversations/${id}/events`);
    await api.request('POST', `/conversations/${id}/messages`, { text: `my key is ${SECRET} and ${TOKEN}` });
    await stream.until((event) => event.type === 'turn-complete');
    stream.close();
    const transcript = await api.request('GET', `/conversations/${id}/messages`);
    expect(transcript.status).toBe(200);
    // `SORT_KEY` is no key Cody reads: its value ("messages", a field name) stays, as a value and a key.
    expect(transcript.json).toEqual({
      messages: [{ role: 'user', text: 'my key is [REDACTED] and [REDACTED]' }],
      next: null,
    });
  });

  it('has no CORS headers unless an origin is configured', async () => {
    const plain = await start();
    expect(
      (await plain.api.request('GET', '/conversations')).headers.get('access-control-allow-origin'),
    ).toBeNull();
    await server?.close();
    const withCors = await start({ corsOrigin: 'http://localhost:3000' });
    const answer = await withCors.api.request('GET', '/conversations');
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    const preflight = await fetch(`${withCors.url}/conversations`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
  });

  it('pages the transcript, forks, compacts, deletes and switches the model', async () => {
    const { api, engine } = await start();
    const id = String((await api.request('POST', '/conversations', { provider: 'anthropic' })).json.id);
    const stream = await api.events(`/conversations/${id}/events`);
    for (const text of ['a', 'b', 'c']) {
      await api.request('POST', `/conversations/${id}/messages`, { text });
      await stream.until((event) => event.type === 'turn-complete');
    }
    const page = await api.request('GET', `/conversations/${id}/messages?limit=2`);
    expect(page.json).toEqual({
      messages: [
        { role: 'user', text: 'a' },
        { role: 'user', text: 'b' },
      ],
      next: '2',
    });
    const rest = await api.request('GET', `/conversations/${id}/messages?after=2`);
    expect(rest.json).toEqual({ messages: [{ role: 'user', text: 'c' }], next: null });
    const selection = await api.request('PUT', `/conversations/${id}/selection`, {
      provider: 'google',
      model: 'g',
    });
    expect(selection.json).toMatchObject({ status: { provider: 'google', model: 'g' } });
    expect((await api.request('POST', `/conversations/${id}/compact`, { focus: 'the plan' })).status).toBe(
      202,
    );
    await stream.until((event) => event.type === 'compaction-finished');
    expect(engine.conversations.get(id)?.compactions).toEqual(['the plan']);
    const fork = await api.request('POST', `/conversations/${id}/fork`, { atUserTurn: 1 });
    expect(fork.status).toBe(201);
    expect((await api.request('DELETE', `/conversations/${id}`)).json).toEqual({ id, deleted: true });
    expect((await api.request('GET', `/conversations/${id}`)).status).toBe(404);
    // The server had it open; once deleted, its events are no longer there either.
    expect((await api.request('GET', `/conversations/${id}/events`)).status).toBe(404);
    expect((await api.request('GET', '/conversations')).json).toEqual({
      conversations: [{ id: fork.json.id }],
    });
    stream.close();
  });

  it('on close interrupts running turns, waits for them, and refuses new requests', async () => {
    const { api, engine } = await start();
    const id = String((await api.request('POST', '/conversations', {})).json.id);
    const conversation = engine.conversations.get(id);
    if (conversation) conversation.gate = new Promise(() => undefined);
    const stream = await api.events(`/conversations/${id}/events`);
    await api.request('POST', `/conversations/${id}/messages`, { text: 'long' });
    await stream.until((event) => event.type === 'text-delta');
    await server?.close(5_000);
    server = undefined;
    const events = eventsOf(await stream.until((event) => event.type === 'turn-complete'));
    expect(events.at(-1)).toMatchObject({ type: 'turn-complete', status: 'interrupted' });
    // The engine's conversations are the engine's to close (`cody serve` closes the engine after this).
    expect(conversation?.busy).toBe(false);
  });
});
