/**
 * update_plan and web_fetch (issue 22, parts 3 and 4) over a spawned `bin/cody serve` and real HTTP + SSE,
 * against the fake provider: the plan is on the event stream and on `GET …/state`; a fetched page reaches
 * the model's next request and the rollout as Markdown; a host not in `webFetch.allowedHosts` is asked
 * about first, naming the URL and host, and nothing is fetched before the answer.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventsOf } from '../server/sse-client.js';
import { createHarness, type Harness } from './harness.js';
import { startPageServer, type PageServer } from './page-server.js';
import { startServe, type ServeProcess } from './serve-harness.js';

type Json = Record<string, unknown>;

const FIRST = {
  explanation: 'Two steps',
  plan: [
    { step: 'Read the code', status: 'in_progress' },
    { step: 'Fix the bug', status: 'pending' },
  ],
};
const SECOND = {
  plan: [
    { step: 'Read the code', status: 'completed' },
    { step: 'Fix the bug', status: 'in_progress' },
  ],
};
let harness: Harness;
let server: ServeProcess | undefined;
let page: PageServer;

beforeEach(async () => {
  harness = await createHarness();
  page = await startPageServer();
});
afterEach(async () => {
  await server?.stop('SIGKILL');
  server = undefined;
  await page.close();
  await harness.close();
});

async function serve(config: Json): Promise<ServeProcess> {
  await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-4.1-mini', ...config });
  server = await startServe(harness);
  return server;
}

/** Creates a conversation, attaches an SSE client, and posts `text`; returns the id and the stream. */
async function startTurn(
  api: ServeProcess['api'],
  text: string,
): Promise<{ id: string; stream: Awaited<ReturnType<ServeProcess['api']['events']>> }> {
  const id = String((await api.request('POST', '/conversations', {})).json.id);
  const stream = await api.events(`/conversations/${id}/events`);
  const accepted = await api.request('POST', `/conversations/${id}/messages`, { text });
  expect(accepted.status, accepted.text).toBe(202);
  return { id, stream };
}

/** The output of one function call as the rollout recorded it. */
async function recordedOutput(id: string, callId: string): Promise<string> {
  const outputs = (await harness.rollout(id))
    .map((line) => (JSON.parse(line) as { payload: Json }).payload)
    .filter((payload) => payload.type === 'function_call_output' && payload.call_id === callId);
  expect(outputs).toHaveLength(1);
  return String(outputs[0]?.output);
}

describe('cody serve: update_plan and web_fetch', () => {
  it('streams plan-updated events and GET …/state returns the plan, which the rollout records', async () => {
    const { api } = await serve({ approval: 'ask' });
    harness.server.enqueue(
      { type: 'reply', toolCalls: [{ id: 'plan_1', name: 'update_plan', arguments: FIRST }] },
      { type: 'reply', toolCalls: [{ id: 'plan_2', name: 'update_plan', arguments: SECOND }] },
      { type: 'reply', text: 'Working on it.' },
    );
    const { id, stream } = await startTurn(api, 'fix the bug');
    const events = eventsOf(await stream.until((event) => event.type === 'turn-complete', 30_000));
    stream.close();
    expect(events.filter((event) => event.type === 'plan-updated')).toEqual([
      { type: 'plan-updated', conversationId: id, callId: 'plan_1', ...FIRST },
      { type: 'plan-updated', conversationId: id, callId: 'plan_2', ...SECOND },
    ]);
    // The plan never asks, even under ask.
    expect(events.filter((event) => event.type === 'approval-requested')).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });

    const state = await api.request('GET', `/conversations/${id}/state`);
    expect(state.status).toBe(200);
    expect(state.json.plan).toEqual(SECOND);

    const calls = (await harness.rollout(id))
      .map((line) => (JSON.parse(line) as { payload: Json }).payload)
      .filter((payload) => payload.type === 'function_call' && payload.name === 'update_plan');
    expect(calls.map((call) => JSON.parse(String(call.arguments)) as Json)).toEqual([FIRST, SECOND]);
  }, 60_000);

  it('fetches a page of an allowed host unasked; its Markdown reaches the model and the rollout', async () => {
    const { api } = await serve({
      approval: 'ask',
      webFetch: { allowPrivate: true, allowedHosts: ['127.0.0.1'] },
    });
    harness.server.enqueue(
      { type: 'reply', toolCalls: [{ id: 'fetch_1', name: 'web_fetch', arguments: { url: page.url } }] },
      { type: 'reply', text: 'It says forty-two.' },
    );
    const { id, stream } = await startTurn(api, 'what does the page say?');
    const events = eventsOf(await stream.until((event) => event.type === 'turn-complete', 30_000));
    stream.close();
    expect(events.filter((event) => event.type === 'approval-requested')).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
    expect(page.hits()).toBe(1);

    const requests = harness.server.modelRequests('openai-chat');
    expect(requests).toHaveLength(2);
    const messages = (requests[1]?.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    const sent = String(messages.find((message) => message.role === 'tool')?.content);
    expect(sent).toContain('# Cody page');
    expect(sent).toContain('The answer is _forty-two_');
    expect(sent).not.toContain('<article>');

    const recorded = await recordedOutput(id, 'fetch_1');
    expect(recorded).toContain('# Cody page');
    expect(recorded).toContain('The answer is _forty-two_');
  }, 60_000);

  it('asks an attached client before fetching from a host not allowed, naming the URL and host', async () => {
    const { api } = await serve({
      approval: 'ask',
      webFetch: { allowPrivate: true, allowedHosts: ['docs.example.com'] },
    });
    harness.server.enqueue(
      { type: 'reply', toolCalls: [{ id: 'fetch_2', name: 'web_fetch', arguments: { url: page.url } }] },
      { type: 'reply', text: 'I did not read it.' },
    );
    const { id, stream } = await startTurn(api, 'what does the page say?');
    const asked = eventsOf(await stream.until((event) => event.type === 'approval-requested', 30_000)).at(-1);
    expect(asked).toMatchObject({
      type: 'approval-requested',
      conversationId: id,
      call: { name: 'web_fetch', call_id: 'fetch_2', arguments: JSON.stringify({ url: page.url }) },
      reason: `fetch ${page.url} (network access)`,
      alwaysScope: { kind: 'call', label: 'fetches from 127.0.0.1' },
    });
    // Nothing is fetched while the question waits.
    expect(page.hits()).toBe(0);
    const state = await api.request('GET', `/conversations/${id}/state`);
    expect(state.json).toMatchObject({
      state: 'AwaitingToolApproval',
      pendingApprovals: [{ id: asked?.id, callId: 'fetch_2', tool: 'web_fetch' }],
    });

    const answered = await api.request('POST', `/approvals/${String(asked?.id)}`, { decision: 'deny' });
    expect(answered.status, answered.text).toBe(200);
    const rest = eventsOf(await stream.until((event) => event.type === 'turn-complete', 30_000));
    stream.close();
    expect(rest.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
    expect(page.hits()).toBe(0);
    const second = harness.server.modelRequests('openai-chat')[1];
    expect(JSON.stringify(second?.body)).not.toContain('forty-two');
    expect(await recordedOutput(id, 'fetch_2')).toMatch(/^The user declined to run this tool call/);
  }, 60_000);
});
