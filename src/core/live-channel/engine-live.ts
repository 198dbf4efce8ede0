/**
 * One engine's side of the live channel: it publishes the runs of its own conversations (a tap on each
 * run, see Conversation's `onRun` hook) and watches other processes' runs for `cody.watchLive`, whose
 * events pass through this engine's own redaction (its secrets and patterns, besides the publisher's).
 */
import type { RunTap } from '../conversation/index.js';
import { knownSecrets } from '../redact/index.js';
import { redactEvents } from '../redact/index.js';
import { compileMatchers } from '../redact/index.js';
import type { SessionEvent } from '../conversation/index.js';
import { LivePublisher } from './publisher.js';
import { LiveWatcher, type LiveRun, type LiveWatch } from './subscriber.js';
import type { LiveRunKind } from './wire.js';

export interface EngineLiveOptions {
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The engine's own exact secrets (`createCody`'s `secrets`: a server's token). */
  secrets: readonly string[];
  /** config.json's `redact` patterns. */
  patterns: () => Promise<readonly string[]>;
}

export class EngineLive {
  /** Conversations whose run this engine publishes now: its watches skip them. */
  private readonly publishing = new Map<string, number>();
  private watcher: LiveWatcher | undefined;

  constructor(private readonly options: EngineLiveOptions) {}

  tap(conversationId: string, kind: LiveRunKind): RunTap {
    const publisher = new LivePublisher({ home: this.options.home, conversationId, kind });
    this.publishing.set(conversationId, (this.publishing.get(conversationId) ?? 0) + 1);
    let ended = false;
    return {
      event: (event) => publisher.publish(event),
      end: () => {
        if (ended) return;
        ended = true;
        publisher.end();
        const left = (this.publishing.get(conversationId) ?? 1) - 1;
        if (left > 0) this.publishing.set(conversationId, left);
        else this.publishing.delete(conversationId);
      },
    };
  }

  watch(conversationId: string, onRun: (run: LiveRun) => void): LiveWatch {
    this.watcher ??= new LiveWatcher({
      home: this.options.home,
      isOwn: (id) => this.publishing.has(id),
      filter: (events) => this.redacted(events),
    });
    return this.watcher.watch(conversationId, onRun);
  }

  close(): void {
    this.watcher?.close();
  }

  private async *redacted(events: AsyncGenerator<SessionEvent>): AsyncGenerator<SessionEvent> {
    // Read for each run, as a turn does: secrets learnt since (a key stored) count from here.
    const [patterns, known] = await Promise.all([
      this.options.patterns(),
      knownSecrets(this.options.env, this.options.home),
    ]);
    yield* redactEvents(events, compileMatchers({ patterns, secrets: [...known, ...this.options.secrets] }));
  }
}
