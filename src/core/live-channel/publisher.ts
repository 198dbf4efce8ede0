/**
 * The publishing side of a conversation's live channel: while a turn (or a compaction) runs, its events
 * are offered on a Unix socket (socket-path.ts) to any other process that connects — `cody serve` showing
 * the conversation in a tab while the terminal runs the turn. A subscriber gets the run's events from its
 * start, then each as it comes, one JSON line each.
 *
 * It costs the turn nothing while nobody listens: `publish` keeps a reference to the event (no JSON, no
 * I/O, no await); the socket is set up beside the turn, never awaited by it. A subscriber that falls more
 * than `MAX_QUEUED_BYTES` behind is dropped, so a slow or stuck reader never holds the turn or its memory.
 * Nothing here throws into the turn: a channel that cannot be set up is simply not there.
 */
import { statSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { SessionEvent } from '../conversation/index.js';
import { ensurePrivateDirectory, liveSocket } from './socket-path.js';
import { headerLine, type LiveRunKind } from './wire.js';

/** Events of one run kept for subscribers that come later; older ones are dropped beyond it. */
export const MAX_KEPT_EVENTS = 20_000;
/** Bytes written to one subscriber and not yet taken by it, beyond which it is dropped. */
export const MAX_QUEUED_BYTES = 8 * 1024 * 1024;
/** Tries at a socket path the previous run still holds (25 ms apart: 2 s in all). */
const TAKEOVER_TRIES = 80;
/** How long a finished run's subscribers get to take their last lines before they are cut. */
const DRAIN_MS = 5_000;

/** Socket paths this process listens on (with their inode), removed when it exits short of a kill. */
const listening = new Map<string, number>();
let exitHookInstalled = false;

function removeOnExit(path: string, inode: number): void {
  listening.set(path, inode);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const [socket, ours] of listening) unlinkIfOurs(socket, ours);
  });
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

/**
 * Removes the socket file only while it is still ours (the same inode): once this run's socket is closed
 * (libuv removes it then), the next run's publisher may already have made its own at the same path.
 */
function unlinkIfOurs(path: string, inode: number | undefined): void {
  try {
    if (inode !== undefined && statSync(path).ino === inode) unlinkSync(path);
  } catch {
    // Already gone.
  }
}

export interface LivePublisherOptions {
  home: string;
  conversationId: string;
  kind: LiveRunKind;
}

export class LivePublisher {
  private readonly options: LivePublisherOptions;
  private readonly kept: SessionEvent[] = [];
  private skipped = 0;
  private readonly subscribers = new Set<Socket>();
  private server: Server | undefined;
  private path: string | undefined;
  private inode: number | undefined;
  private ended = false;
  private takeoverTries = 0;

  constructor(options: LivePublisherOptions) {
    this.options = options;
  }

  /** Subscribers connected now. */
  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** Offers one event: kept for later subscribers, written to the connected ones. Never throws. */
  publish(event: SessionEvent): void {
    if (this.ended) return;
    if (this.server === undefined) {
      // A run is published from its `turn-started` on: one that fails before it never began (and has
      // not taken the conversation's lock, so another process may be publishing on it).
      if (event.type !== 'turn-started') return;
      this.listen();
    }
    this.kept.push(event);
    if (this.kept.length > MAX_KEPT_EVENTS) {
      // Dropped in a batch so the array is not shifted on every event.
      const drop = Math.ceil(MAX_KEPT_EVENTS / 10);
      this.kept.splice(0, drop);
      this.skipped += drop;
    }
    if (this.subscribers.size === 0) return;
    const line = `${JSON.stringify(event)}\n`;
    for (const socket of this.subscribers) this.write(socket, line);
  }

  /** The run ended: subscribers get what is left and the end of the stream; the socket goes. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.closeServer();
    for (const socket of this.subscribers) {
      socket.end();
      setTimeout(() => socket.destroy(), DRAIN_MS).unref();
    }
    this.subscribers.clear();
    this.kept.length = 0;
  }

  private listen(): void {
    const socket = liveSocket(this.options.home, this.options.conversationId);
    if (!socket || !ensurePrivateDirectory(socket.dir)) {
      // No channel for this run (no usable directory): the turn goes on as ever.
      this.server = createServer();
      return;
    }
    const server = createServer((client) => this.accept(client));
    this.server = server;
    server.unref();
    server.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') void this.replaceStale(server, socket.path);
    });
    this.bind(server, socket.path);
  }

  private bind(server: Server, path: string): void {
    server.listen(path, () => {
      const inode = inodeOf(path);
      if (this.ended || this.server !== server) {
        server.close();
        unlinkIfOurs(path, inode);
        return;
      }
      this.path = path;
      this.inode = inode;
      if (inode !== undefined) removeOnExit(path, inode);
    });
  }

  /**
   * A socket file is there already. A killed process's (nobody answers) is removed and ours takes it.
   * One that answers is the run before ours, whose process released the conversation's lock a moment
   * before closing its socket: we try again, 25 ms apart, for up to `TAKEOVER_TRIES` times.
   */
  private async replaceStale(server: Server, path: string): Promise<void> {
    const alive = await new Promise<boolean>((resolve) => {
      const probe = connect(path);
      probe.once('connect', () => {
        probe.destroy();
        resolve(true);
      });
      probe.once('error', () => resolve(false));
    });
    if (this.ended || this.server !== server) return;
    if (!alive) {
      unlinkQuietly(path);
      this.bind(server, path);
    } else if (this.takeoverTries < TAKEOVER_TRIES) {
      this.takeoverTries += 1;
      setTimeout(() => {
        if (!this.ended && this.server === server) this.bind(server, path);
      }, 25).unref();
    }
  }

  private accept(client: Socket): void {
    if (this.ended) {
      client.destroy();
      return;
    }
    client.on('error', () => this.drop(client));
    client.on('close', () => this.subscribers.delete(client));
    // A subscriber only reads; anything it sends is discarded.
    client.resume();
    this.subscribers.add(client);
    this.write(
      client,
      headerLine({
        conversationId: this.options.conversationId,
        kind: this.options.kind,
        skipped: this.skipped,
      }),
    );
    let lines = '';
    for (const event of this.kept) lines += `${JSON.stringify(event)}\n`;
    if (lines !== '') this.write(client, lines);
  }

  private write(socket: Socket, text: string): void {
    if (socket.destroyed) return;
    if (socket.writableLength > MAX_QUEUED_BYTES) {
      this.drop(socket);
      return;
    }
    socket.write(text);
  }

  private drop(socket: Socket): void {
    this.subscribers.delete(socket);
    socket.destroy();
  }

  private closeServer(): void {
    const { server, path } = this;
    if (server?.listening === true) server.close();
    if (path !== undefined) {
      listening.delete(path);
      unlinkIfOurs(path, this.inode);
    }
  }
}

function inodeOf(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch {
    return undefined;
  }
}
