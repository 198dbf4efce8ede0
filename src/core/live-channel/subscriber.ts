/**
 * The subscribing side of the live channel: `LiveWatcher.watch(id, onRun)` tells its caller of every run
 * another process publishes on that conversation (publisher.ts) — one that runs when the watch begins,
 * and each that begins later (the channel's directory is watched for a publisher's socket appearing).
 * A run's events come from its start; they end with its terminal event, or with an interrupted
 * `turn-complete` made here when the publishing process went away without one (it was killed).
 * A socket nobody answers on (a killed process's) is ignored: the next publisher replaces it.
 */
import { watch as watchDirectory, type FSWatcher } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { basename } from 'node:path';
import { AsyncQueue } from '../turn/index.js';
import type { SessionEvent } from '../conversation/index.js';
import { ensurePrivateDirectory, liveSocket, SOCKET_SUFFIX, type LiveSocket } from './socket-path.js';
import { parseEvent, parseHeader, type LiveRunKind } from './wire.js';

/** A line longer than this is no event of ours: the connection is dropped. */
const MAX_LINE_CHARS = 64 * 1024 * 1024;

/** A run another process publishes on a conversation. */
export interface LiveRun {
  conversationId: string;
  kind: LiveRunKind;
  /** The run's id, from its `turn-started` ('' when its start is no longer kept). */
  turnId: string;
  /** Events from the run's start the publisher no longer kept (a very long run); usually 0. */
  skipped: number;
  /** The run's events from its start, then as they come; ends after its terminal event. */
  events: AsyncIterable<SessionEvent>;
}

export interface LiveWatch {
  /** Resolves once the watch has looked for a run going on now (and told `onRun` of it, if any). */
  ready: Promise<void>;
  stop(): void;
}

export interface LiveWatcherOptions {
  home: string;
  /** Whether this engine itself runs that conversation's turn now (its own events need no channel). */
  isOwn?: (conversationId: string) => boolean;
  /** What each run's events pass through before `onRun`'s caller sees them (the engine redacts). */
  filter?: (events: AsyncGenerator<SessionEvent>) => AsyncGenerator<SessionEvent>;
}

const TERMINAL = new Set(['turn-complete', 'turn-failed']);
/** Tries at a socket that just appeared and still refuses (20, 40, 80, 160, 320 ms apart). */
const RETRIES = 5;

/** One engine's watches: one directory watcher per channel directory, shared by every conversation. */
export class LiveWatcher {
  private readonly options: LiveWatcherOptions;
  private readonly directories = new Map<string, { watcher: FSWatcher | undefined; watches: Set<Watch> }>();

  constructor(options: LiveWatcherOptions) {
    this.options = options;
  }

  watch(conversationId: string, onRun: (run: LiveRun) => void): LiveWatch {
    const socket = liveSocket(this.options.home, conversationId);
    if (!socket || !ensurePrivateDirectory(socket.dir))
      return { ready: Promise.resolve(), stop: () => undefined };
    const watch = new Watch(conversationId, socket, onRun, this.options);
    const directory = this.directory(socket.dir);
    directory.watches.add(watch);
    return {
      ready: watch.check(),
      stop: () => {
        watch.stop();
        directory.watches.delete(watch);
        if (directory.watches.size > 0) return;
        directory.watcher?.close();
        this.directories.delete(socket.dir);
      },
    };
  }

  /** Stops every watch. */
  close(): void {
    for (const { watcher, watches } of this.directories.values()) {
      watcher?.close();
      for (const watch of watches) watch.stop();
    }
    this.directories.clear();
  }

  private directory(dir: string): { watcher: FSWatcher | undefined; watches: Set<Watch> } {
    const known = this.directories.get(dir);
    if (known) return known;
    const entry: { watcher: FSWatcher | undefined; watches: Set<Watch> } = {
      watcher: undefined,
      watches: new Set(),
    };
    try {
      entry.watcher = watchDirectory(dir, (_event, filename) => {
        const name = filename === null ? undefined : basename(filename.toString());
        for (const watch of entry.watches)
          if (name === undefined || name === watch.fileName) void watch.check(RETRIES);
      });
      entry.watcher.on('error', () => undefined);
      entry.watcher.unref();
    } catch {
      // No watching (the directory went away): runs going on at `watch` time are still found.
    }
    this.directories.set(dir, entry);
    return entry;
  }
}

/** One conversation watched: at most one connection at a time, to the run going on. */
class Watch {
  readonly fileName: string;
  private connection: Socket | undefined;
  private checking: Promise<void> | undefined;
  private retries = 0;
  private stopped = false;

  constructor(
    private readonly conversationId: string,
    private readonly socket: LiveSocket,
    private readonly onRun: (run: LiveRun) => void,
    private readonly options: LiveWatcherOptions,
  ) {
    this.fileName = `${conversationId}${SOCKET_SUFFIX}`;
  }

  /**
   * Connects to a publisher if one is there and none is followed yet; resolves once its run is told.
   * `retries`: a socket that appeared a moment ago may not listen yet (bound, not yet listening, it
   * refuses), so a check the directory watcher asked for tries again a few times, 20 ms apart and more.
   */
  check(retries = 0): Promise<void> {
    if (this.stopped || this.connection || this.options.isOwn?.(this.conversationId) === true) {
      return Promise.resolve();
    }
    // A check going on already takes the retries of this one too.
    this.retries = Math.max(this.retries, retries);
    this.checking ??= this.follow().then(
      (refused) => {
        this.checking = undefined;
        const left = this.retries;
        this.retries = 0;
        if (refused && left > 0 && !this.stopped) {
          setTimeout(() => void this.check(left - 1), 20 * 2 ** (RETRIES - left)).unref();
        }
      },
      () => (this.checking = undefined),
    );
    return this.checking;
  }

  stop(): void {
    this.stopped = true;
    this.connection?.destroy();
  }

  /** Follows the run published there, if any; true when the connection was refused. */
  private follow(): Promise<boolean> {
    return new Promise((resolve) => {
      let refused = false;
      const client = connect(this.socket.path);
      this.connection = client;
      client.setEncoding('utf8');
      let buffered = '';
      let header: ReturnType<typeof parseHeader>;
      let queue: AsyncQueue<SessionEvent> | undefined;
      let turnId = '';
      let ended = false;
      const onLine = (line: string): void => {
        if (header === undefined) {
          header = parseHeader(line);
          if (header?.conversationId !== this.conversationId) client.destroy();
          return;
        }
        const event = parseEvent(line);
        if (!event || ended) return;
        if (!queue) {
          queue = new AsyncQueue<SessionEvent>();
          turnId = event.type === 'turn-started' ? event.turnId : '';
          this.tell(header, turnId, queue);
          resolve(false);
        }
        if (TERMINAL.has(event.type)) ended = true;
        queue.push(event);
      };
      client.on('data', (chunk: string) => {
        buffered += chunk;
        for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
          onLine(buffered.slice(0, end));
          buffered = buffered.slice(end + 1);
        }
        if (buffered.length > MAX_LINE_CHARS) client.destroy();
      });
      client.on('error', (error: NodeJS.ErrnoException) => (refused = error.code === 'ECONNREFUSED'));
      client.on('close', () => {
        if (this.connection === client) this.connection = undefined;
        if (queue) {
          // The publisher went away mid-run (killed): the run is over, as far as anyone can tell.
          if (!ended)
            queue.push({ type: 'turn-complete', turnId, finishReason: 'other', status: 'interrupted' });
          queue.end();
        }
        resolve(refused);
        // A run that ended may be followed at once by the next one (another turn of the terminal).
        if (queue && !this.stopped) void this.check();
      });
    });
  }

  private tell(
    header: NonNullable<ReturnType<typeof parseHeader>>,
    turnId: string,
    queue: AsyncQueue<SessionEvent>,
  ): void {
    const events = async function* (): AsyncGenerator<SessionEvent> {
      yield* queue;
    };
    this.onRun({
      conversationId: this.conversationId,
      kind: header.kind,
      turnId,
      skipped: header.skipped,
      events: this.options.filter ? this.options.filter(events()) : events(),
    });
  }
}
