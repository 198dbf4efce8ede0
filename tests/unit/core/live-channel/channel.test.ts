/**
 * The live channel's two ends on their own: where the socket goes (a long home falls back to a short,
 * private path), a subscriber that stops reading is dropped without holding the publisher, and a
 * publisher that dies mid-run ends the watcher's run as interrupted.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lazyLive } from '../../../../src/core/live-channel/lazy-live.js';
import { LivePublisher, MAX_QUEUED_BYTES } from '../../../../src/core/live-channel/publisher.js';
import { liveSocket, MAX_SOCKET_PATH_BYTES } from '../../../../src/core/live-channel/socket-path.js';
import { LiveWatcher, type LiveRun } from '../../../../src/core/live-channel/subscriber.js';
import { headerLine } from '../../../../src/core/live-channel/wire.js';
import type { SessionEvent } from '../../../../src/core/conversation/session-events.js';

const ID = '019ab3c1-2d4e-7f00-8a1b-0123456789ab';
const STARTED: SessionEvent = {
  type: 'turn-started',
  turnId: 'turn-1',
  provider: 'openai',
  api: 'openai-chat',
  model: 'gpt-4.1-mini',
};

async function until(check: () => boolean, what: string, withinMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > withinMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('the live channel', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'cody-channel-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('lives in <home>/live, and under a short private directory when that path is too long for a socket', async () => {
    expect(liveSocket(home, ID)).toEqual({ dir: join(home, 'live'), path: join(home, 'live', `${ID}.sock`) });
    const deep = join(home, 'x'.repeat(80));
    const short = liveSocket(deep, ID);
    expect(short?.dir.startsWith(join(tmpdir(), 'cody-live-'))).toBe(true);
    expect(Buffer.byteLength(short?.path ?? '')).toBeLessThanOrEqual(MAX_SOCKET_PATH_BYTES);
    // Every process of one home agrees on it; another home gets another.
    expect(liveSocket(deep, ID)).toEqual(short);
    expect(liveSocket(join(home, 'y'.repeat(80)), ID)?.dir).not.toBe(short?.dir);

    const publisher = new LivePublisher({ home: deep, conversationId: ID, kind: 'turn' });
    publisher.publish(STARTED);
    await waitForFile(short?.path ?? '');
    expect((await stat(short?.dir ?? '')).mode & 0o777).toBe(0o700);
    publisher.end();
    await expect(stat(short?.path ?? '')).rejects.toThrow(/ENOENT/);
    await rm(short?.dir ?? '', { recursive: true, force: true });
  });

  it('drops a subscriber that stops reading, and the publisher goes on without waiting for it', async () => {
    const publisher = new LivePublisher({ home, conversationId: ID, kind: 'turn' });
    publisher.publish(STARTED);
    const path = join(home, 'live', `${ID}.sock`);
    await waitForFile(path);
    const stuck = connect(path);
    stuck.pause();
    stuck.on('error', () => undefined);
    await until(() => publisher.subscriberCount === 1, 'the subscriber');
    const closed = (): boolean => publisher.subscriberCount === 0;
    const chunk = 'x'.repeat(256 * 1024);
    const started = Date.now();
    // Four times the limit: whatever the kernel's buffers take, the rest is past the limit.
    for (let sent = 0; sent < 4 * MAX_QUEUED_BYTES && !closed(); sent += chunk.length) {
      publisher.publish({ type: 'text-delta', text: chunk });
      await new Promise((resolve) => setImmediate(resolve));
    }
    await until(closed, 'the stuck subscriber to be dropped');
    expect(Date.now() - started).toBeLessThan(5_000);
    publisher.publish({ type: 'turn-complete', turnId: 'turn-1', finishReason: 'stop', status: 'completed' });
    publisher.end();
    stuck.destroy();
  });

  it("takes the socket over from the run before, once that one's process closes it, and keeps it", async () => {
    const path = join(home, 'live', `${ID}.sock`);
    const watcher = new LiveWatcher({ home });
    const runs: LiveRun[] = [];
    const watch = watcher.watch(ID, (run) => runs.push(run));
    await watch.ready;
    const first = new LivePublisher({ home, conversationId: ID, kind: 'turn' });
    first.publish(STARTED);
    await until(() => runs.length === 1, 'the first run');
    // The next run starts while the first's socket still answers (its lock was just released).
    const second = new LivePublisher({ home, conversationId: ID, kind: 'compaction' });
    second.publish({ ...STARTED, turnId: 'turn-2' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    first.publish({ type: 'turn-complete', turnId: 'turn-1', finishReason: 'stop', status: 'completed' });
    first.end();
    await until(() => runs.length === 2, 'the second run');
    expect(runs.map((run) => [run.kind, run.turnId])).toEqual([
      ['turn', 'turn-1'],
      ['compaction', 'turn-2'],
    ]);
    // The first run's end did not take the second's socket with it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await stat(path)).isSocket()).toBe(true);
    second.end();
    await expect(stat(path)).rejects.toThrow(/ENOENT/);
    watch.stop();
    watcher.close();
  });

  it('holds the events of a run that begins before the channel is loaded, and publishes them from its start', async () => {
    const live = lazyLive({ home, env: {}, secrets: [], patterns: () => Promise.resolve([]) });
    // No preload: the first run's tap is made before the channel's modules are there.
    const tap = live.tap(ID, 'turn');
    tap?.event(STARTED);
    tap?.event({ type: 'text-delta', text: 'early' });
    const watcher = new LiveWatcher({ home });
    const runs: LiveRun[] = [];
    const watch = watcher.watch(ID, (run) => runs.push(run));
    await watch.ready;
    await until(() => runs.length === 1, 'the run');
    const events: SessionEvent[] = [];
    const reading = (async () => {
      for await (const event of runs[0]?.events ?? []) events.push(event);
    })();
    const end: SessionEvent = {
      type: 'turn-complete',
      turnId: 'turn-1',
      finishReason: 'stop',
      status: 'completed',
    };
    tap?.event(end);
    tap?.end();
    await reading;
    expect(events).toEqual([STARTED, { type: 'text-delta', text: 'early' }, end]);
    watch.stop();
    watcher.close();
    live.close();
  });

  it('ends a run as interrupted when its publisher dies without its last event', async () => {
    const path = join(home, 'live', `${ID}.sock`);
    const watcher = new LiveWatcher({ home });
    const runs: LiveRun[] = [];
    const watch = watcher.watch(ID, (run) => runs.push(run));
    await watch.ready;
    // A publisher speaking the wire by hand, then gone mid-run.
    const sockets: Socket[] = [];
    const server = createServer((socket) => {
      sockets.push(socket);
      socket.write(headerLine({ conversationId: ID, kind: 'turn', skipped: 0 }));
      socket.write(`${JSON.stringify(STARTED)}\n${JSON.stringify({ type: 'text-delta', text: 'par' })}\n`);
    });
    await new Promise<void>((resolve) => server.listen(path, resolve));
    await until(() => runs.length === 1, 'the run');
    const events: SessionEvent[] = [];
    const reading = (async () => {
      for await (const event of runs[0]?.events ?? []) events.push(event);
    })();
    await until(() => events.length === 2, 'its first events');
    for (const socket of sockets) socket.destroy();
    server.close();
    await reading;
    expect(runs[0]).toMatchObject({ conversationId: ID, kind: 'turn', turnId: 'turn-1' });
    expect(events).toEqual([
      STARTED,
      { type: 'text-delta', text: 'par' },
      { type: 'turn-complete', turnId: 'turn-1', finishReason: 'other', status: 'interrupted' },
    ]);
    watch.stop();
    watcher.close();
  });
});

async function waitForFile(path: string): Promise<void> {
  const start = Date.now();
  for (;;) {
    if (
      await stat(path).then(
        () => true,
        () => false,
      )
    )
      return;
    if (Date.now() - start > 5_000) throw new Error(`no ${path}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
