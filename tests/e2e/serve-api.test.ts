/**
 * The HTTP API made exact (issue 23), end to end against the built `cody serve` and the fake provider:
 * selections without a provider, turn ids from `turn-started` to the end, a turn that cannot start,
 * DELETE ending event streams, one fork meaning, `event:` lines, `GET /events`, `GET /providers` and
 * 405 with `Allow`. Every answer and event here is also checked against openapi.json by the harness.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventsOf, type ApiClient, type EventStream } from '../server/sse-client.js';
import { createHarness, type Harness } from './harness.js';
import { startServe, type ServeProcess } from './serve-harness.js';

let harness: Harness;
const servers: ServeProcess[] = [];

beforeEach(async () => {
  harness = await createHarness();
  await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-4o-mini' });
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop('SIGKILL');
  await harness.close();
});

async function serve(env: Record<string, string> = harness.env): Promise<ApiClient> {
  const server = await startServe({ ...harness, env });
  servers.push(server);
  return server.api;
}

async function create(api: ApiClient, body: unknown = { provider: 'openai' }): Promise<string> {
  const created = await api.request('POST', '/conversations', body);
  expect(created.status, created.text).toBe(201);
  return String(created.json.id);
}

async function turn(api: ApiClient, stream: EventStream, id: string, text: string) {
  harness.server.enqueue({ type: 'reply', text: `echo: ${text}` });
  const accepted = await api.request('POST', `/conversations/${id}/messages`, { text });
  expect(accepted.status, accepted.text).toBe(202);
  const events = eventsOf(await stream.until((event) => event.type === 'turn-complete'));
  return { turnId: String(accepted.json.turnId), events };
}

describe('cody serve: the HTTP API made exact', () => {
  it('derives the provider from the api or model, refuses what names none or a bad model id, and lists providers', async () => {
    const api = await serve();
    const fromApi = await api.request('POST', '/conversations', { api: 'messages', model: 'claude-x' });
    expect([fromApi.status, fromApi.json]).toMatchObject([
      201,
      { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-x' },
    ]);
    const fromModel = await api.request('POST', '/conversations', { model: 'gemini-2.5-pro' });
    expect([fromModel.status, fromModel.json]).toMatchObject([201, { provider: 'google', api: 'gemini' }]);
    expect(fromModel.text).not.toContain('filePath');
    for (const body of [
      { model: 'mystery-model' },
      { model: 'gpt\n4' },
      { provider: 'openai', model: 'gpt 4' },
      { api: 'messages', model: 'gpt-4o' },
      { api: 'nosuch' },
    ]) {
      const refused = await api.request('POST', '/conversations', body);
      expect([refused.status, refused.json], JSON.stringify(body)).toMatchObject([
        400,
        { error: { code: 'invalid-request' } },
      ]);
    }
    const id = String(fromApi.json.id);
    const badSwitch = await api.request('PUT', `/conversations/${id}/selection`, {
      provider: 'openai',
      model: 'gpt\u00074',
    });
    expect(badSwitch.status).toBe(400);
    // Only the two conversations made above exist: nothing refused was created.
    expect(((await api.request('GET', '/conversations')).json.conversations as unknown[]).length).toBe(2);

    const providers = (await api.request('GET', '/providers')).json.providers as Array<
      Record<string, unknown>
    >;
    expect(providers.find((provider) => provider.name === 'openai')).toEqual({
      name: 'openai',
      apis: ['openai-chat', 'openai-responses'],
      defaultModel: 'gpt-5.4',
      models: expect.arrayContaining(['gpt-5.4', 'gpt-4.1-mini', 'gpt-4o']),
    });
    expect(providers.find((provider) => provider.name === 'anthropic')).toMatchObject({
      apis: ['anthropic-messages'],
    });

    const wrongMethod = await api.request('PATCH', '/conversations');
    expect([wrongMethod.status, wrongMethod.headers.get('allow')]).toEqual([405, 'GET, POST']);
    const wrongOnOne = await api.request('POST', `/conversations/${id}`);
    expect([wrongOnOne.status, wrongOnOne.headers.get('allow')]).toEqual([405, 'GET, DELETE']);
  });

  it('carries the accepted turnId from turn-started to the end, for turns and compactions, in event: frames', async () => {
    const api = await serve();
    const id = await create(api);
    const stream = await api.events(`/conversations/${id}/events`);
    const first = await turn(api, stream, id, 'first question');
    expect(first.events[0]).toMatchObject({ type: 'turn-started', turnId: first.turnId });
    expect(first.events.at(-1)).toMatchObject({ type: 'turn-complete', turnId: first.turnId });
    // Each frame names its type, so EventSource.addEventListener('text-delta', …) receives it.
    expect(stream.raw()).toMatch(/event: text-delta\nid: [a-z0-9]+-\d+\ndata: \{"type":"text-delta"/);

    harness.server.enqueue({ type: 'reply', text: 'A summary.' });
    const compact = await api.request('POST', `/conversations/${id}/compact`, {});
    expect(compact.status).toBe(202);
    const compaction = eventsOf(await stream.until((event) => event.type === 'turn-complete'));
    expect(compaction[0]).toEqual(
      expect.objectContaining({ type: 'turn-started', turnId: compact.json.turnId }),
    );
    expect(compaction.at(-1)).toMatchObject({ type: 'turn-complete', turnId: compact.json.turnId });
    expect(compaction.map((event) => event.type)).toContain('compaction-finished');
    stream.close();
  });

  it('answers a turn or compaction that cannot start (no key) with 502 provider-auth and sends no event', async () => {
    const { ANTHROPIC_API_KEY: _key, ...withoutAnthropic } = harness.env;
    const api = await serve(withoutAnthropic);
    const id = await create(api, { provider: 'anthropic' });
    const stream = await api.events(`/conversations/${id}/events`);
    const refused = await api.request('POST', `/conversations/${id}/messages`, { text: 'hello' });
    expect([refused.status, refused.json]).toMatchObject([502, { error: { code: 'provider-auth' } }]);
    expect(refused.text).toMatch(/ANTHROPIC_API_KEY/);
    // A compaction that cannot start is refused the same way, not accepted and then failed.
    const compaction = await api.request('POST', `/conversations/${id}/compact`, {});
    expect([compaction.status, compaction.json]).toMatchObject([502, { error: { code: 'provider-auth' } }]);
    await expect(stream.next(500)).rejects.toThrow(/no event within/);
    expect(harness.server.modelRequests()).toHaveLength(0);
    stream.close();
  });

  it('forks keeping user turns 1..N and shows the parent in GET and the list; DELETE ends the streams', async () => {
    const api = await serve();
    const id = await create(api);
    const stream = await api.events(`/conversations/${id}/events`);
    await turn(api, stream, id, 'first question');
    await turn(api, stream, id, 'second question');
    const fork = await api.request('POST', `/conversations/${id}/fork`, { atUserTurn: 2 });
    expect([fork.status, fork.json]).toMatchObject([201, { parentId: id, atUserTurn: 2 }]);
    const forkId = String(fork.json.id);
    expect((await api.request('GET', `/conversations/${forkId}`)).json).toMatchObject({ parentId: id });
    const listed = (await api.request('GET', '/conversations')).json.conversations as Array<
      Record<string, unknown>
    >;
    expect(listed.find((summary) => summary.id === forkId)).toMatchObject({ parentId: id });
    expect(listed.find((summary) => summary.id === id)?.parentId).toBeUndefined();
    const forkStream = await api.events(`/conversations/${forkId}/events`);
    await turn(api, forkStream, forkId, 'on the branch');
    const sent = JSON.stringify(harness.server.modelRequests().at(-1)?.body);
    // Turn 2 is kept: atUserTurn means "through user turn N", as `cody fork --at N`.
    expect(sent).toContain('first question');
    expect(sent).toContain('second question');

    const second = await api.events(`/conversations/${forkId}/events`);
    expect((await api.request('DELETE', `/conversations/${forkId}`)).status).toBe(200);
    for (const client of [forkStream, second]) {
      expect(JSON.parse((await client.next()).data)).toEqual({
        type: 'conversation-deleted',
        conversationId: forkId,
      });
      await expect(client.next(2_000)).rejects.toThrow(/event stream ended/);
    }
    expect(second.raw()).toContain('event: conversation-deleted\n');
    stream.close();
  });

  it('forks at a transcript entry (atEntry) and refuses a cursor that is no typed user message', async () => {
    const api = await serve();
    const id = await create(api);
    const stream = await api.events(`/conversations/${id}/events`);
    await turn(api, stream, id, 'first question');
    await turn(api, stream, id, 'second question');
    const page = (await api.request('GET', `/conversations/${id}/messages`)).json as {
      entries: Array<{ cursor: string; kind: string; item?: { role?: string; content?: unknown } }>;
    };
    const typed = (text: string) =>
      page.entries.find(
        (entry) => entry.item?.role === 'user' && JSON.stringify(entry.item.content).includes(text),
      );
    const first = typed('first question');
    const reply = page.entries.find((entry) => entry.item?.role === 'assistant');
    expect(first && reply).toBeTruthy();
    const fork = await api.request('POST', `/conversations/${id}/fork`, { atEntry: first!.cursor });
    expect([fork.status, fork.json]).toMatchObject([201, { parentId: id, atEntry: first!.cursor }]);
    const forkId = String(fork.json.id);
    const forkStream = await api.events(`/conversations/${forkId}/events`);
    await turn(api, forkStream, forkId, 'on the branch');
    const sent = JSON.stringify(harness.server.modelRequests().at(-1)?.body);
    expect(sent).toContain('first question');
    expect(sent).toContain('echo: first question');
    expect(sent).not.toContain('second question');
    for (const body of [
      { atEntry: reply!.cursor },
      { atEntry: '9999' },
      { atEntry: 'abc' },
      { atEntry: 3 },
      { atEntry: first!.cursor, atUserTurn: 1 },
    ]) {
      const refused = await api.request('POST', `/conversations/${id}/fork`, body);
      expect([refused.status, refused.json], JSON.stringify(body)).toMatchObject([
        400,
        { error: { code: 'invalid-request' } },
      ]);
    }
    const refused = await api.request('POST', `/conversations/${id}/fork`, { atEntry: reply!.cursor });
    expect(refused.text).toMatch(/not a message the person typed/);
    forkStream.close();
    stream.close();
  });

  it('GET /events signals created, renamed, busy/idle, an approval waiting and deleted, and replays after Last-Event-ID', async () => {
    const api = await serve();
    const signals = await api.events('/events');
    const id = await create(api);
    const created = JSON.parse((await signals.next()).data) as Record<string, unknown>;
    expect(created).toMatchObject({ type: 'conversation-created', conversationId: id, conversation: { id } });

    const renamed = await api.request('PUT', `/conversations/${id}/title`, { title: 'My  title' });
    expect([renamed.status, renamed.json]).toMatchObject([200, { id, title: 'My title' }]);
    expect((await api.request('GET', '/conversations')).text).toContain('"title":"My title"');

    const stream = await api.events(`/conversations/${id}/events`);
    harness.server.enqueue(
      { type: 'reply', toolCalls: [{ id: 'call_1', name: 'shell', arguments: { command: 'touch made' } }] },
      { type: 'reply', text: 'done' },
    );
    const accepted = await api.request('POST', `/conversations/${id}/messages`, { text: 'touch it' });
    const asked = eventsOf(await stream.until((event) => event.type === 'approval-requested')).at(-1);
    await api.request('POST', `/approvals/${String(asked?.id)}`, { decision: 'deny' });
    await stream.until((event) => event.type === 'turn-complete');
    expect((await api.request('DELETE', `/conversations/${id}`)).status).toBe(200);

    const seen = eventsOf(await signals.until((event) => event.type === 'conversation-deleted'));
    expect(seen.map(({ type, conversationId }) => ({ type, conversationId }))).toEqual(
      [
        'conversation-renamed',
        'conversation-state',
        'approval-pending',
        'conversation-state',
        'conversation-deleted',
      ].map((type) => ({ type, conversationId: id })),
    );
    expect(seen).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'conversation-renamed', title: 'My title' }),
        expect.objectContaining({ type: 'conversation-state', state: 'busy', turnId: accepted.json.turnId }),
        expect.objectContaining({ type: 'approval-pending', approvalId: asked?.id, tool: 'shell' }),
        expect.objectContaining({ type: 'conversation-state', state: 'idle' }),
      ]),
    );
    expect(signals.raw()).toContain('event: conversation-created\nid: ');

    // A list view that reconnects with the id of the first signal is sent the rest, in order.
    const firstId = /id: (\S+)\n/.exec(signals.raw())?.[1];
    const resumed = await api.events('/events', { lastEventId: firstId ?? '' });
    const replayed = eventsOf(await resumed.until((event) => event.type === 'conversation-deleted'));
    expect(replayed.map((event) => event.type)).toEqual(seen.map((event) => event.type));
    signals.close();
    resumed.close();
    stream.close();
  });
});
