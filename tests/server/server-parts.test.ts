/** The small parts of `cody serve`: the token file, the options check, the replay log. */
import { mkdtemp, rm, stat, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { EventLog } from '../../src/server/event-log.js';
import { readJsonBody } from '../../src/server/request-body.js';
import { messageBody, parseInput, parseMessage } from '../../src/server/request-schemas.js';
import { LiveConversations } from '../../src/server/live-conversations.js';
import { isLoopbackHost, parseServeOptions } from '../../src/server/serve-options.js';
import { loadOrCreateToken, tokenCheck } from '../../src/server/token.js';
import { FakeConversation, FakeEngine } from './fake-engine.js';

const homes: string[] = [];
afterEach(async () => {
  for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true });
});

describe('serve token', () => {
  it('is generated once, stored 0600, and read back on the next start', async () => {
    const home = await mkdtemp(join(tmpdir(), 'cody-token-'));
    homes.push(home);
    const first = await loadOrCreateToken(home);
    expect(first.created).toBe(true);
    expect(first.token).toMatch(/^[\w-]{43}$/);
    expect((await stat(first.path)).mode & 0o777).toBe(0o600);
    await chmod(first.path, 0o644);
    const second = await loadOrCreateToken(home);
    expect(second).toEqual({ ...first, created: false });
    expect((await stat(first.path)).mode & 0o777).toBe(0o600);
  });

  it('keeps a token the person wrote themselves', async () => {
    const home = await mkdtemp(join(tmpdir(), 'cody-token-'));
    homes.push(home);
    await writeFile(join(home, 'serve-token'), 'my-own-token-value\n', { mode: 0o600 });
    expect((await loadOrCreateToken(home)).token).toBe('my-own-token-value');
  });

  it('accepts only the exact bearer token', () => {
    const isAuthorized = tokenCheck('abc123');
    expect(isAuthorized('Bearer abc123')).toBe(true);
    expect(isAuthorized('bearer abc123')).toBe(true);
    for (const header of [
      undefined,
      '',
      'Bearer',
      'Bearer abc12',
      'Bearer abc1234',
      'Basic abc123',
      'abc123',
    ]) {
      expect(isAuthorized(header)).toBe(false);
    }
  });
});

describe('message bodies', () => {
  it('the hand check and the schema agree on every body, the schema wording the errors', () => {
    const outcome = (parse: () => unknown): unknown => {
      try {
        return { ok: parse() };
      } catch (error) {
        return { error: (error as Error).message, status: (error as { status?: number }).status };
      }
    };
    const bodies: unknown[] = [
      { text: 'hello' },
      { text: '  spaced  ' },
      { text: '' },
      { text: '   ' },
      { text: 42 },
      { text: 'hi', extra: true },
      {},
      [],
      ['hello'],
      'hello',
      null,
      undefined,
      Object.assign(Object.create(null) as object, { text: 'no prototype' }),
    ];
    for (const body of bodies) {
      expect(outcome(() => parseMessage(body))).toEqual(
        outcome(() => parseInput(messageBody, body, 'message')),
      );
    }
    expect(parseMessage({ text: 'hello' })).toEqual({ text: 'hello' });
    expect(outcome(() => parseMessage({ text: 'hi', extra: true }))).toMatchObject({ status: 400 });
  });
});

describe('serve options', () => {
  it('defaults to 127.0.0.1:8080 and accepts loopback hosts', () => {
    expect(parseServeOptions({})).toEqual({ host: '127.0.0.1', port: 8080, allowRemote: false });
    for (const host of ['localhost', '127.0.0.2', '::1', '[::1]']) expect(isLoopbackHost(host)).toBe(true);
    expect(parseServeOptions({ port: '0' }).port).toBe(0);
  });

  it('refuses a non-loopback host unless --allow-remote', () => {
    for (const host of ['0.0.0.0', '192.168.1.5', '::', 'example.com']) {
      expect(() => parseServeOptions({ host })).toThrow(/--allow-remote/);
      expect(parseServeOptions({ host, allowRemote: true })).toMatchObject({ host, allowRemote: true });
    }
  });

  it('refuses bad ports and origins with a usage error', () => {
    for (const port of ['-1', '65536', 'http', '1.5', '']) {
      expect(() => parseServeOptions({ port })).toThrow(UsageError);
    }
    expect(parseServeOptions({ corsOrigin: 'http://localhost:3000' }).corsOrigin).toBe(
      'http://localhost:3000',
    );
    for (const corsOrigin of ['*', 'localhost:3000', 'http://localhost:3000/path', 'file:///x']) {
      expect(() => parseServeOptions({ corsOrigin })).toThrow(UsageError);
    }
  });
});

describe('live conversations', () => {
  it("publishes each event's JSON with the conversation id as its last field, the end urgent", async () => {
    const engine = new FakeEngine();
    const conversation = await engine.create();
    const live = new LiveConversations({ engine });
    live.adopt(conversation);
    const published: Array<{ data: string; urgent: boolean }> = [];
    const ended = new Promise<void>((resolve) =>
      live.log(conversation.id).subscribe(({ data, urgent }) => {
        published.push({ data, urgent: urgent === true });
        if (data.includes('"turn-complete"')) resolve();
      }),
    );
    await live.startTurn(conversation.id, 'hush now');
    await ended;
    const id = conversation.id;
    expect(published.map(({ data }) => data)).toEqual(
      [
        { type: 'turn-started', turnId: 'turn-1', provider: 'openai', api: 'chat', model: 'gpt-4o-mini' },
        { type: 'state', state: 'AwaitingLLMResponse' },
        { type: 'text-delta', text: 'echo: ' },
        { type: 'text-delta', text: 'hush ' },
        { type: 'text-delta', text: 'now ' },
        { type: 'state', state: 'Idle' },
        { type: 'turn-complete', turnId: 'turn-1', status: 'completed', finishReason: 'stop' },
      ].map((event) => JSON.stringify({ ...event, conversationId: id })),
    );
    expect(published.map(({ urgent }) => urgent)).toEqual([false, false, false, false, false, false, true]);
  });
});

describe('idle conversations', () => {
  const turn = async (live: LiveConversations, id: string, text: string): Promise<void> => {
    const log = live.log(id);
    const ended = new Promise<void>((resolve) => {
      const unsubscribe = log.subscribe(({ data }) => {
        if (data.includes('"turn-complete"')) {
          unsubscribe();
          resolve();
        }
      });
    });
    await live.startTurn(id, text);
    await ended;
  };

  it('are dropped when the engine closes them (idle), and their event ids go on where they stopped', async () => {
    const engine = new FakeEngine();
    const conversation = await engine.create();
    const { id } = conversation;
    const live = new LiveConversations({ engine });
    live.adopt(conversation);
    await turn(live, id, 'one');
    const lastId = live.log(id).replayAfter('none-0').events.at(-1)?.id ?? '';
    const before = live.log(id).replayAfter('none-0').events.at(-3)?.id ?? '';
    // What the engine's registry does to a conversation nobody used for its idle time.
    await conversation.close();
    expect(live.isOpen(id)).toBe(false);
    // Back after the close: a client that saw everything has no gap; one that missed some is told so.
    expect(live.log(id).replayAfter(lastId)).toEqual({ events: [], gap: false });
    expect(live.log(id).replayAfter(before).gap).toBe(true);
    engine.conversations.set(id, new FakeConversation(id));
    await turn(live, id, 'two');
    const sequences = live
      .log(id)
      .replayAfter(lastId)
      .events.map((event) => event.sequence);
    expect(sequences[0]).toBe(Number(lastId.split('-')[1]) + 1);
    expect(engine.conversations.get(id)?.submitted).toEqual(['two']);
    await live.shutdown(100);
  });

  it('are forgotten when the engine finds them deleted under an open handle', async () => {
    const engine = new FakeEngine();
    const conversation = await engine.create();
    const { id } = conversation;
    const live = new LiveConversations({ engine });
    live.adopt(conversation);
    const events: string[] = [];
    const failed = new Promise<void>((resolve) =>
      live.log(id).subscribe(({ data }) => {
        events.push((JSON.parse(data) as { type: string }).type);
        if (data.includes('"turn-failed"')) resolve();
      }),
    );
    await live.startTurn(id, 'gone');
    await failed;
    expect(events.at(-1)).toBe('turn-failed');
    expect(live.isOpen(id)).toBe(false);
    await vi.waitFor(() => expect(conversation.closed).toBe(true));
    await live.shutdown(100);
  });

  it('are held open in the engine while a client listens, and sent the approvals still waiting', async () => {
    const engine = new FakeEngine();
    const conversation = await engine.create();
    const { id } = conversation;
    const live = new LiveConversations({ engine });
    live.adopt(conversation);
    const asked = new Promise<void>((resolve) =>
      live.log(id).subscribe(({ data }) => {
        if (data.includes('"approval-requested"')) resolve();
      }),
    );
    await live.startTurn(id, 'tool please');
    await asked;
    const sent: Array<{ id?: string; data: string }> = [];
    const detach = await live.attach(id, undefined, (event) => sent.push(event));
    expect(engine.holds.get(id)).toBe(1);
    // A client that attaches with no Last-Event-ID replays nothing, but is asked the waiting question,
    // without an id (its Last-Event-ID must not go back).
    expect(sent).toEqual([
      {
        event: 'approval-requested',
        data: JSON.stringify({
          type: 'approval-requested',
          id: 'approval-1',
          call: { type: 'function_call', name: 'shell', arguments: '{"command":"ls"}', call_id: 'c1' },
          reason: 'shell',
          conversationId: id,
        }),
        urgent: true,
      },
    ]);
    // One that replays the question from its log is not sent it twice.
    const replayed: Array<{ id?: string; data: string }> = [];
    const detachReplayed = await live.attach(id, 'other-0', (event) => replayed.push(event));
    expect(replayed.filter((event) => event.data.includes('"approval-requested"'))).toHaveLength(1);
    expect(replayed.find((event) => event.data.includes('"approval-requested"'))?.id).toBeDefined();
    detachReplayed();
    detach();
    expect(engine.holds.get(id)).toBe(0);
    expect(engine.respond('approval-1', 'deny')).toBe(id);
    await live.shutdown(100);
  });
});

describe('request body', () => {
  const requestOf = (stream: Readable, headers: Record<string, string> = {}): IncomingMessage =>
    Object.assign(stream, { headers }) as unknown as IncomingMessage;

  it('joins a body that arrives in pieces, even inside a character', async () => {
    const bytes = Buffer.from(JSON.stringify({ text: 'café ☕' }));
    const pieces = [bytes.subarray(0, 13), bytes.subarray(13, 15), bytes.subarray(15)];
    expect(await readJsonBody(requestOf(Readable.from(pieces)), 1024)).toEqual({ text: 'café ☕' });
    expect(await readJsonBody(requestOf(Readable.from([])), 1024)).toBeUndefined();
  });

  it('refuses a body past the limit, declared or not, and one cut off before its end', async () => {
    const big = Readable.from([Buffer.alloc(600, 0x20), Buffer.alloc(600, 0x20)]);
    await expect(readJsonBody(requestOf(big), 1024)).rejects.toMatchObject({ status: 413 });
    const declared = requestOf(Readable.from([]), { 'content-length': '2048' });
    await expect(readJsonBody(declared, 1024)).rejects.toMatchObject({ status: 413 });
    const cut = new Readable({ read() {} });
    cut.push(Buffer.from('{"text": "hal'));
    const reading = readJsonBody(requestOf(cut), 1024);
    setImmediate(() => cut.destroy());
    await expect(reading).rejects.toMatchObject({ status: 400 });
    await expect(
      readJsonBody(requestOf(Readable.from([Buffer.from('{"text": 1')])), 1024),
    ).rejects.toMatchObject({
      status: 400,
      code: 'invalid-json',
    });
  });
});

describe('event log', () => {
  it('numbers events, replays after an id, and reports a gap past its capacity or from another process', () => {
    const log = new EventLog('abc', 3);
    const seen: string[] = [];
    const unsubscribe = log.subscribe((event) => seen.push(event.id));
    for (const data of ['a', 'b', 'c', 'd']) log.append('message', data);
    unsubscribe();
    log.append('message', 'e');
    expect(seen).toEqual(['abc-1', 'abc-2', 'abc-3', 'abc-4']);
    expect(log.replayAfter('abc-3')).toEqual({
      events: [
        { id: 'abc-4', sequence: 4, event: 'message', data: 'd' },
        { id: 'abc-5', sequence: 5, event: 'message', data: 'e' },
      ],
      gap: false,
    });
    expect(log.replayAfter('abc-1').gap).toBe(true);
    expect(log.replayAfter('abc-2')).toMatchObject({ gap: false });
    expect(log.replayAfter('old-2')).toMatchObject({
      gap: true,
      events: [{ data: 'c' }, { data: 'd' }, { data: 'e' }],
    });
    expect(log.replayAfter(undefined)).toEqual({ events: [], gap: false });
    expect(log.replayAfter('abc-5').events).toEqual([]);
  });

  describe('waiting for a subscriber', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('answers true the moment one subscribes, false when none does in time or on release', async () => {
      const log = new EventLog('abc');
      const settled: boolean[] = [];
      const first = log.waitForSubscriber(5_000).then((attached) => settled.push(attached));
      await vi.advanceTimersByTimeAsync(10);
      expect(settled).toEqual([]);
      const unsubscribe = log.subscribe(() => undefined);
      await first;
      expect(settled).toEqual([true]); // at the subscribe, not at the next poll or the deadline
      expect(await log.waitForSubscriber(5_000)).toBe(true); // someone already listens
      unsubscribe();
      const late = log.waitForSubscriber(5_000);
      await vi.advanceTimersByTimeAsync(4_999);
      const never = log.waitForSubscriber(5_000);
      await vi.advanceTimersByTimeAsync(1);
      expect(await late).toBe(false);
      log.releaseWaiters();
      expect(await never).toBe(false);
      // Nothing settled twice, and no timer is left behind.
      log.subscribe(() => undefined);
      expect(settled).toEqual([true]);
      expect(vi.getTimerCount()).toBe(0);
    });
  });
});
