/**
 * The live channel between two engines on one CODY_HOME (as `cody chat` and `cody serve` are two
 * processes): a turn engine A runs is seen by engine B's `watchLive`, from its start, event for event.
 */
import { link, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCody, type Cody } from '../../../../src/core/engine/cody.js';
import type { LiveRun } from '../../../../src/core/live-channel/subscriber.js';
import type { SessionEvent } from '../../../../src/core/conversation/session-events.js';
import type { ModelClient, ModelRequest, StreamEvent } from '../../../../src/protocol/index.js';

/** Streams "Hello " then waits for `open()` before the rest: a test can look at a turn mid-way. */
class GatedClient implements ModelClient {
  readonly api = 'openai-chat' as const;
  readonly model = 'gpt-4.1-mini';
  private gate: Promise<void> = Promise.resolve();
  private release: () => void = () => undefined;
  constructor(private readonly words: readonly string[] = ['Hello ', 'from ', 'the ', 'terminal']) {}

  hold(): void {
    this.gate = new Promise((resolve) => (this.release = resolve));
  }

  open(): void {
    this.release();
  }

  async *stream(_request: ModelRequest): AsyncGenerator<StreamEvent> {
    const [first = '', ...rest] = this.words;
    yield { type: 'text-delta', text: first };
    await this.gate;
    for (const word of rest) yield { type: 'text-delta', text: word };
    const text = this.words.join('');
    yield {
      type: 'item',
      item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] },
    };
    yield { type: 'finish', reason: 'stop' };
  }
}

/** Collects every run told to a watch, and each run's events once it ends. */
function collector(): {
  runs: LiveRun[];
  ended: Array<Promise<SessionEvent[]>>;
  onRun: (run: LiveRun) => void;
} {
  const runs: LiveRun[] = [];
  const ended: Array<Promise<SessionEvent[]>> = [];
  return {
    runs,
    ended,
    onRun: (run) => {
      runs.push(run);
      ended.push(
        (async () => {
          const events: SessionEvent[] = [];
          for await (const event of run.events) events.push(event);
          return events;
        })(),
      );
    },
  };
}

async function until(check: () => boolean, what: string, withinMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > withinMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('the live channel between two engines on one home', () => {
  let home: string;
  let client: GatedClient;
  let a: Cody;
  let b: Cody;
  const make = (secrets: string[] = []): Cody =>
    createCody({
      home,
      env: {},
      cwd: home,
      tools: false,
      secrets,
      clientFactory: () => Promise.resolve(client),
    });

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'cody-live-'));
    client = new GatedClient();
    a = make();
    b = make();
  });
  afterEach(async () => {
    await a.close();
    await b.close();
    await rm(home, { recursive: true, force: true });
  });

  it("tells B of A's turn from its start, event for event, with its id; nothing is left behind", async () => {
    const conversation = await a.create();
    const seen = collector();
    const watch = b.watchLive(conversation.id, seen.onRun);
    await watch.ready;
    expect(seen.runs).toHaveLength(0);
    const events: SessionEvent[] = [];
    for await (const event of conversation.submit('hi')) events.push(event);
    await until(() => seen.ended.length === 1, 'the run');
    const watched = await seen.ended[0];
    expect(watched).toEqual(events);
    expect(events[0]?.type).toBe('turn-started');
    expect(seen.runs[0]).toMatchObject({ conversationId: conversation.id, kind: 'turn', skipped: 0 });
    expect(seen.runs[0]?.turnId).toBe((events[0] as { turnId: string }).turnId);
    // The socket goes with the turn; the directory stays, private.
    await expect(stat(join(home, 'live', `${conversation.id}.sock`))).rejects.toThrow(/ENOENT/);
    expect((await stat(join(home, 'live'))).mode & 0o777).toBe(0o700);
    watch.stop();
  });

  it('a watch that begins mid-turn gets the turn from its start, then the rest as it comes', async () => {
    const conversation = await a.create();
    client.hold();
    const events: SessionEvent[] = [];
    const turn = conversation.submit('hi');
    for (;;) {
      const step = await turn.next();
      if (step.done === true) throw new Error('the turn ended before the gate');
      events.push(step.value);
      if (step.value.type === 'text-delta') break;
    }
    // Mid-turn: the socket is there, and the run is told before `ready` resolves.
    expect((await stat(join(home, 'live', `${conversation.id}.sock`))).isSocket()).toBe(true);
    const seen = collector();
    const watch = b.watchLive(conversation.id, seen.onRun);
    await watch.ready;
    expect(seen.runs).toHaveLength(1);
    client.open();
    for (let step = await turn.next(); step.done !== true; step = await turn.next()) events.push(step.value);
    expect(await seen.ended[0]).toEqual(events);
    expect(events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('')).toBe(
      'Hello from the terminal',
    );
    watch.stop();
  });

  it("tells each later turn too, and never an engine's own turn", async () => {
    const conversation = await a.create();
    const onB = collector();
    const onA = collector();
    const watchB = b.watchLive(conversation.id, onB.onRun);
    const watchA = a.watchLive(conversation.id, onA.onRun);
    await Promise.all([watchB.ready, watchA.ready]);
    for (const text of ['one', 'two']) for await (const _event of conversation.submit(text)) void _event;
    await until(() => onB.ended.length === 2, 'two runs');
    const [first, second] = await Promise.all(onB.ended);
    expect(first?.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
    expect(second?.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
    expect(onA.runs).toHaveLength(0);
    watchA.stop();
    watchB.stop();
  });

  it("tells B of A's compaction as a run of its own kind, ending like a turn", async () => {
    const conversation = await a.create();
    // A reply long enough that a summary would shrink the history: a shorter one is compacted as a
    // no-op, without a summary request, so the run could end before B connects.
    client = new GatedClient(['a long reply. '.repeat(400), 'The end.']);
    for await (const event of conversation.submit('hi')) void event;
    client = new GatedClient(['The summary ', 'of it.']);
    const seen = collector();
    const watch = b.watchLive(conversation.id, seen.onRun);
    await watch.ready;
    // The summary request waits until B follows the run (a run over before its socket listens — a
    // millisecond — is offered to nobody: see DECISIONS).
    client.hold();
    const events: SessionEvent[] = [];
    const compacting = (async () => {
      for await (const event of conversation.compact()) events.push(event);
    })();
    await until(() => seen.runs.length === 1, 'the compaction to be told');
    client.open();
    await compacting;
    await until(() => seen.ended.length === 1, 'the compaction');
    expect(seen.runs[0]?.kind).toBe('compaction');
    expect(seen.runs[0]?.turnId).toMatch(/^compaction-/);
    expect(await seen.ended[0]).toEqual(events);
    const finished = events.find((event) => event.type === 'compaction-finished');
    expect(finished).toMatchObject({ status: 'compacted' });
    watch.stop();
  });

  it("redacts with the watching engine's own secrets too (a server's token the terminal never read)", async () => {
    await b.close();
    b = make(['server-token-0123456789']);
    client = new GatedClient(['the token is server-', 'token-0123456789 ', 'ok']);
    const conversation = await a.create();
    const seen = collector();
    const watch = b.watchLive(conversation.id, seen.onRun);
    await watch.ready;
    const events: SessionEvent[] = [];
    for await (const event of conversation.submit('hi')) events.push(event);
    await until(() => seen.ended.length === 1, 'the run');
    const text = (list: SessionEvent[]): string =>
      list.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
    expect(text(events)).toContain('server-token-0123456789');
    const watched = await seen.ended[0];
    expect(text(watched ?? [])).toBe('the token is [REDACTED] ok');
    expect(JSON.stringify(watched)).not.toContain('0123456789');
    watch.stop();
  });

  it("ignores a killed publisher's socket, and the next turn's publisher replaces it", async () => {
    const conversation = await a.create();
    const path = join(home, 'live', `${conversation.id}.sock`);
    // A socket file nobody listens on, as `kill -9` leaves it.
    const watchFirst = b.watchLive(conversation.id, () => undefined);
    await watchFirst.ready;
    watchFirst.stop();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path, resolve));
    await link(path, `${path}.kept`);
    await new Promise((resolve) => server.close(resolve));
    await rename(`${path}.kept`, path);
    expect((await stat(path)).isSocket()).toBe(true);

    const seen = collector();
    const watch = b.watchLive(conversation.id, seen.onRun);
    await watch.ready;
    expect(seen.runs).toHaveLength(0);
    const events: SessionEvent[] = [];
    for await (const event of conversation.submit('hi')) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
    await until(() => seen.ended.length === 1, 'the run');
    expect(await seen.ended[0]).toEqual(events);
    await expect(stat(path)).rejects.toThrow(/ENOENT/);
    watch.stop();
  });

  it('runs a turn with nobody listening without an error, and publishes nothing for an ephemeral engine', async () => {
    const conversation = await a.create();
    const events: SessionEvent[] = [];
    for await (const event of conversation.submit('hi')) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
    const ephemeral = createCody({
      home,
      env: {},
      cwd: home,
      tools: false,
      ephemeral: true,
      clientFactory: () => Promise.resolve(client),
    });
    try {
      const scratch = await ephemeral.create();
      const seen = collector();
      const watch = b.watchLive(scratch.id, seen.onRun);
      await watch.ready;
      client.hold();
      const turn = scratch.submit('hi');
      await turn.next();
      await turn.next();
      await expect(stat(join(home, 'live', `${scratch.id}.sock`))).rejects.toThrow(/ENOENT/);
      client.open();
      for (let step = await turn.next(); step.done !== true; step = await turn.next()) void step;
      expect(seen.runs).toHaveLength(0);
      watch.stop();
    } finally {
      await ephemeral.close();
    }
  });
});
