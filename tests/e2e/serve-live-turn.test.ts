/**
 * A turn `cody chat` runs in a terminal on a conversation `cody serve` shows (issue 23): the server
 * relays it from the live channel into its own event log, so an attached SSE client sees its events
 * (with the turn's id) as they stream, `GET …/state` says a turn runs elsewhere, a client that opens the
 * conversation mid-turn replays it from its start, and the list's `GET /events` sees busy then idle. A
 * `cody chat` killed mid-reply ends its relayed turn as interrupted; the next one is relayed again.
 */
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventsOf } from '../server/sse-client.js';
import { CODY_BIN, createHarness, type Harness } from './harness.js';
import { startServe, type ServeProcess } from './serve-harness.js';

let harness: Harness;
let server: ServeProcess | undefined;

beforeEach(async () => {
  // Every chunk of the fake provider's stream 150 ms apart: the turn takes a few seconds.
  harness = await createHarness({ chunkDelayMs: 150 });
  await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-4o-mini' });
});
afterEach(async () => {
  await server?.stop('SIGKILL');
  server = undefined;
  await harness.close();
});

describe("cody serve relays a terminal's turn", () => {
  it('streams a cody chat turn to an attached client, live, with its id; state and a late client agree', async () => {
    server = await startServe(harness);
    const { api } = server;
    const id = String((await api.request('POST', '/conversations', {})).json.id);
    const stream = await api.events(`/conversations/${id}/events`);
    const signals = await api.events('/events');
    const words = ['Relayed ', 'from ', 'the ', 'terminal ', 'turn.'];
    harness.server.enqueue({ type: 'reply', textDeltas: words });
    let chatEnded = false;
    const chat = harness.cody(['chat', '--conversation', id, 'say it']).then((result) => {
      chatEnded = true;
      return result;
    });

    const [started] = eventsOf(await stream.until((event) => event.type === 'turn-started', 20_000)).slice(
      -1,
    );
    expect(started).toMatchObject({ type: 'turn-started', elsewhere: true, conversationId: id });
    const turnId = String(started?.turnId);
    expect(turnId).toMatch(/^[0-9a-f-]{36}$/);
    const firstDelta = await stream.until((event) => event.type === 'text-delta', 20_000);
    expect(chatEnded).toBe(false);

    // Mid-turn: the state names the terminal's turn, and a client opening the conversation now gets it
    // from its start by replaying after `replayAfter`, as for the server's own turns.
    const state = await api.request('GET', `/conversations/${id}/state`);
    expect(state.json).toMatchObject({ turnId, elsewhere: true });
    expect(typeof state.json.replayAfter).toBe('string');
    const late = await api.events(`/conversations/${id}/events`, {
      lastEventId: String(state.json.replayAfter),
    });
    const [lateFirst] = eventsOf([await late.next(10_000)]);
    expect(lateFirst).toMatchObject({ type: 'turn-started', turnId });

    const rest = await stream.until((event) => event.type === 'turn-complete', 20_000);
    const events = eventsOf([...firstDelta, ...rest]);
    const text = events.map((event) => (event.type === 'text-delta' ? String(event.text) : '')).join('');
    expect(text).toBe(words.join(''));
    expect(events.at(-1)).toMatchObject({ type: 'turn-complete', turnId, status: 'completed' });
    const lateEvents = eventsOf(await late.until((event) => event.type === 'turn-complete', 20_000));
    expect(lateEvents.at(-1)).toMatchObject({ type: 'turn-complete', turnId });

    const result = await chat;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(words.join(''));
    const listed = eventsOf(
      await signals.until(
        (signal) => signal.type === 'conversation-state' && signal.state === 'idle',
        10_000,
      ),
    );
    expect(listed).toContainEqual({ type: 'conversation-state', conversationId: id, state: 'busy', turnId });
    const after = await api.request('GET', `/conversations/${id}/state`);
    expect(after.json).toMatchObject({ turnId: null, replayAfter: null, state: 'Idle' });
    expect(after.json.elsewhere).toBeUndefined();
    // The conversation is free again: the page's next message runs on it.
    harness.server.enqueue({ type: 'reply', text: 'And from the page.' });
    expect((await api.request('POST', `/conversations/${id}/messages`, { text: 'again' })).status).toBe(202);
    await stream.until((event) => event.type === 'turn-complete', 20_000);
    for (const open of [stream, late, signals]) open.close();
  });

  it('ends the relayed turn as interrupted when cody chat is killed mid-reply, and relays the next one', async () => {
    server = await startServe(harness);
    const { api } = server;
    const id = String((await api.request('POST', '/conversations', {})).json.id);
    const stream = await api.events(`/conversations/${id}/events`);
    harness.server.enqueue({ type: 'reply', textDeltas: Array.from({ length: 80 }, (_, n) => `x${n} `) });
    const chat = spawn(process.execPath, [CODY_BIN, 'chat', '--conversation', id, 'long one'], {
      cwd: harness.home,
      env: harness.env,
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => chat.once('exit', resolve));
    await stream.until((event) => event.type === 'text-delta', 20_000);
    chat.kill('SIGKILL');
    await exited;
    const ended = eventsOf(await stream.until((event) => event.type === 'turn-complete', 10_000)).at(-1);
    expect(ended).toMatchObject({ type: 'turn-complete', status: 'interrupted', conversationId: id });
    expect((await api.request('GET', `/conversations/${id}/state`)).json).toMatchObject({ turnId: null });
    // The killed process left its socket behind; the next turn's publisher replaces it.
    expect((await stat(join(harness.env.CODY_HOME ?? '', 'live', `${id}.sock`))).isSocket()).toBe(true);
    harness.server.enqueue({ type: 'reply', textDeltas: ['after ', 'the ', 'kill'] });
    const next = await harness.cody(['chat', '--conversation', id, 'again']);
    expect(next.code, next.stderr).toBe(0);
    const relayed = eventsOf(await stream.until((event) => event.type === 'turn-complete', 20_000));
    expect(relayed[0]).toMatchObject({ type: 'turn-started', elsewhere: true });
    const text = relayed.map((event) => (event.type === 'text-delta' ? String(event.text) : '')).join('');
    expect(text).toBe('after the kill');
    stream.close();
  });
});
