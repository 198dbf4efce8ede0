/**
 * `cody serve` relaying a run another process goes on with (the engine's live channel, scripted here by
 * the fake engine): its events reach an attached client marked `elsewhere` where it matters, the state
 * route says so, and nothing here pretends to stop it or answer its questions. Every event is checked
 * against openapi.json.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AsyncQueue } from '../../src/core/turn/async-queue.js';
import type { EngineEvent } from '../../src/server/engine-port.js';
import { startCodyServer, type CodyServer } from '../../src/server/http-server.js';
import { FakeEngine } from './fake-engine.js';
import { validateEvent } from './openapi-validator.js';
import { apiClient, eventsOf } from './sse-client.js';

const TOKEN = 'test-token-0123456789abcdef';
let server: CodyServer | undefined;
afterEach(async () => {
  await server?.close(1_000);
  server = undefined;
});

describe('a run relayed from another process', () => {
  it('streams marked elsewhere; state, abort, approvals and new turns answer as for a run this server cannot touch', async () => {
    const engine = new FakeEngine();
    server = await startCodyServer({ engine, token: TOKEN, host: '127.0.0.1', port: 0 });
    // The fake engine's status is not a whole one: its answers are checked by the e2e suite instead.
    const api = apiClient(server.url, TOKEN, { answer: () => undefined, event: validateEvent });
    const { id } = await engine.create();
    // Nobody is interested yet: nothing watches the conversation.
    expect(engine.startRemoteRun(id, { kind: 'turn', turnId: 'x', events: new AsyncQueue() })).toBe(0);
    const stream = await api.events(`/conversations/${id}/events`);

    const events = new AsyncQueue<EngineEvent>();
    expect(engine.startRemoteRun(id, { kind: 'turn', turnId: 'turn-t', events })).toBe(1);
    events.push({
      type: 'turn-started',
      turnId: 'turn-t',
      provider: 'openai',
      api: 'openai-chat',
      model: 'm',
    });
    events.push({ type: 'state', state: 'AwaitingToolApproval' });
    const call = { type: 'function_call', name: 'shell', arguments: '{"command":"ls"}', call_id: 'c1' };
    events.push({ type: 'approval-requested', id: 'ap-1', call, reason: 'runs a command' });
    const asked = eventsOf(await stream.until((event) => event.type === 'approval-requested'));
    expect(asked).toEqual([
      expect.objectContaining({
        type: 'turn-started',
        turnId: 'turn-t',
        elsewhere: true,
        conversationId: id,
      }),
      { type: 'state', state: 'AwaitingToolApproval', conversationId: id },
      expect.objectContaining({ type: 'approval-requested', id: 'ap-1', elsewhere: true }),
    ]);

    const state = await api.request('GET', `/conversations/${id}/state`);
    expect(state.json).toMatchObject({ turnId: 'turn-t', state: 'AwaitingToolApproval', elsewhere: true });
    expect(typeof state.json.replayAfter).toBe('string');
    expect((await api.request('POST', '/approvals/ap-1', { decision: 'approve' })).status).toBe(404);
    expect((await api.request('POST', `/conversations/${id}/abort`)).json).toMatchObject({ aborted: false });
    const refused = await api.request('POST', `/conversations/${id}/messages`, { text: 'me too' });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ error: { code: 'turn-running' } });

    events.push({ type: 'approval-resolved', id: 'ap-1', decision: 'approve' });
    events.push({ type: 'text-delta', text: 'done' });
    events.push({ type: 'turn-complete', turnId: 'turn-t', finishReason: 'stop', status: 'completed' });
    events.end();
    const rest = eventsOf(await stream.until((event) => event.type === 'turn-complete'));
    expect(rest.map((event) => event.type)).toEqual(['approval-resolved', 'text-delta', 'turn-complete']);
    expect(rest.every((event) => !('elsewhere' in event))).toBe(true);
    const after = await api.request('GET', `/conversations/${id}/state`);
    expect(after.json).toMatchObject({ turnId: null, replayAfter: null });
    expect(after.json.elsewhere).toBeUndefined();
    stream.close();
  });
});
