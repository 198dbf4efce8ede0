/**
 * An approval nobody answers does not block a conversation forever (issue 19 §6), over the real
 * `bin/cody serve` and HTTP: a client that comes back is asked again, `GET …/state` says what waits,
 * `approvalTimeoutMs` declines it "no answer" (the model is told), and DELETE ends a waiting turn at once.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventsOf, type ApiClient, type EventStream } from '../server/sse-client.js';
import { createHarness, type Harness } from './harness.js';
import { startServe, type ServeProcess } from './serve-harness.js';

let harness: Harness;
const servers: ServeProcess[] = [];

beforeEach(async () => {
  harness = await createHarness();
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop('SIGKILL');
  await harness.close();
});

async function serve(config: Record<string, unknown> = {}): Promise<ServeProcess> {
  await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-4o-mini', ...config });
  const server = await startServe(harness);
  servers.push(server);
  return server;
}

/**
 * A conversation whose turn is waiting for the approval of `rm -rf build`; the stream that saw it asked.
 * The model's reply after the call is queued unless the turn is to be ended before it asks again.
 */
async function waitingTurn(
  api: ApiClient,
  replyAfter = true,
): Promise<{ id: string; stream: EventStream; request: Record<string, unknown>; lastId: string }> {
  const id = String((await api.request('POST', '/conversations', {})).json.id);
  const stream = await api.events(`/conversations/${id}/events`);
  harness.server.enqueue(
    { type: 'reply', toolCalls: [{ id: 'call_rm', name: 'shell', arguments: { command: 'rm -rf build' } }] },
    ...(replyAfter ? [{ type: 'reply' as const, text: 'Left build alone.' }] : []),
  );
  expect((await api.request('POST', `/conversations/${id}/messages`, { text: 'clean up' })).status).toBe(202);
  const seen = await stream.until((event) => event.type === 'approval-requested');
  return { id, stream, request: eventsOf(seen).at(-1) ?? {}, lastId: seen.at(-1)?.id ?? '' };
}

describe('cody serve: approvals nobody answers', () => {
  it('re-sends the waiting question to a client that attaches again, and lists it in GET …/state', async () => {
    const { api } = await serve();
    const { id, stream, request, lastId } = await waitingTurn(api);
    stream.close();

    // Every client leaves; one comes back, with nothing to replay: it is asked the question again.
    const fresh = await api.events(`/conversations/${id}/events`);
    const [again] = await fresh.until((event) => event.type === 'approval-requested', 5_000);
    expect(JSON.parse(again?.data ?? '{}')).toEqual(request);
    // Without an id: a reconnecting client's Last-Event-ID does not go back.
    expect(again?.id).toBeUndefined();
    // One that comes back with the id of the question itself is sent it too (nothing replayed).
    const resumed = await api.events(`/conversations/${id}/events`, { lastEventId: lastId });
    const [resent] = await resumed.until((event) => event.type === 'approval-requested', 5_000);
    expect(JSON.parse(resent?.data ?? '{}')).toMatchObject({ id: request.id, conversationId: id });

    const state = await api.request('GET', `/conversations/${id}/state`);
    expect(state.json).toMatchObject({
      conversationId: id,
      state: 'AwaitingToolApproval',
      pendingApprovals: [
        {
          id: request.id,
          callId: 'call_rm',
          tool: 'shell',
          arguments: JSON.stringify({ command: 'rm -rf build' }),
          reason: expect.any(String) as string,
          requestedAt: expect.any(String) as string,
          expiresAt: expect.any(String) as string,
        },
      ],
    });
    const [pending] = state.json.pendingApprovals as Array<{ requestedAt: string; expiresAt: string }>;
    // The default: 10 minutes.
    expect(Date.parse(pending?.expiresAt ?? '') - Date.parse(pending?.requestedAt ?? '')).toBe(600_000);

    // Answered by the client that came back: the turn goes on and completes.
    expect((await api.request('POST', `/approvals/${String(request.id)}`, { decision: 'deny' })).status).toBe(
      200,
    );
    const rest = eventsOf(await fresh.until((event) => event.type === 'turn-complete'));
    expect(rest.at(-1)).toMatchObject({ status: 'completed' });
    expect((await api.request('GET', `/conversations/${id}/state`)).json).toMatchObject({
      state: 'Idle',
      pendingApprovals: [],
    });
    fresh.close();
    resumed.close();
  });

  it('declines a question unanswered for approvalTimeoutMs with "no answer"; the turn completes and the model is told', async () => {
    const { api } = await serve({ approvalTimeoutMs: 1_500 });
    const { id, stream, request } = await waitingTurn(api);
    stream.close();
    // Nobody is attached any more, and nobody answers.
    const started = Date.now();
    let state = await api.request('GET', `/conversations/${id}/state`);
    while (state.json.state !== 'Idle' && Date.now() - started < 15_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      state = await api.request('GET', `/conversations/${id}/state`);
    }
    expect(state.json).toMatchObject({ state: 'Idle', turnId: null, pendingApprovals: [] });
    expect(Date.now() - started).toBeLessThan(15_000);
    // On the wire: the model's next request carries the reason, in that call's output.
    const requests = harness.server.modelRequests('openai-chat');
    expect(requests).toHaveLength(2);
    const messages = (requests[1]?.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    expect(String(messages.find((message) => message.role === 'tool')?.content)).toMatch(
      /^Declined: no answer\. Nobody answered the approval request within 2 seconds/,
    );
    // The events say so, and the conversation takes the next message at once (no 409).
    const replayed = await api.events(`/conversations/${id}/events`, { lastEventId: 'old-0' });
    const events = eventsOf(await replayed.until((event) => event.type === 'turn-complete'));
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'approval-resolved',
        id: request.id,
        decision: 'deny',
        reason: 'no answer',
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'tool-call',
        approved: false,
        declinedBy: 'no-answer',
        reason: 'no answer',
      }),
    );
    expect(events.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
    replayed.close();
    harness.server.enqueue({ type: 'reply', text: 'ok' });
    expect((await api.request('POST', `/conversations/${id}/messages`, { text: 'next' })).status).toBe(202);
  });

  it('DELETE of the turn, or of the conversation, ends a turn waiting for an approval at once', async () => {
    const { api } = await serve();
    const first = await waitingTurn(api, false);
    let started = Date.now();
    expect((await api.request('DELETE', `/conversations/${first.id}/turn`)).json).toEqual({
      conversationId: first.id,
      aborted: true,
    });
    const ended = eventsOf(await first.stream.until((event) => event.type === 'turn-complete', 5_000));
    expect(ended.at(-1)).toMatchObject({ status: 'interrupted' });
    expect(Date.now() - started).toBeLessThan(3_000);
    const rollout = await readFile(
      join(harness.env.CODY_HOME ?? '', 'conversations', `${first.id}.jsonl`),
      'utf8',
    );
    expect(rollout.trim().split('\n').at(-1)).toContain('"cody_turn_aborted"');
    first.stream.close();

    const second = await waitingTurn(api, false);
    started = Date.now();
    expect((await api.request('DELETE', `/conversations/${second.id}`)).json).toEqual({
      id: second.id,
      deleted: true,
    });
    expect(Date.now() - started).toBeLessThan(3_000);
    const events = eventsOf(await second.stream.until((event) => event.type === 'turn-complete', 5_000));
    expect(events.at(-1)).toMatchObject({ status: 'interrupted' });
    expect((await api.request('GET', `/conversations/${second.id}`)).status).toBe(404);
    expect((await api.request('GET', `/conversations/${second.id}/state`)).status).toBe(404);
    second.stream.close();
  });
});
