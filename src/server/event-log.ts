/**
 * Per-conversation event log of this server process: every event a turn produced gets an id
 * `<boot>-<sequence>` and is kept in a bounded buffer, so a client that reconnects with `Last-Event-ID`
 * is sent exactly what it missed, and live subscribers see events in the same order.
 */

/** Events kept per conversation for replay; a long turn with streamed tool output fits comfortably. */
export const REPLAY_BUFFER_EVENTS = 20_000;

export interface LoggedEvent {
  /** `<boot>-<sequence>`: unique across restarts, ordered within one process. */
  id: string;
  sequence: number;
  /** The event's `type`, sent as the frame's `event:` line. */
  event: string;
  /** The JSON sent as `data:`. */
  data: string;
  /** Sent to subscribers at once rather than gathered with the next events (see sse.ts). */
  urgent?: boolean;
}

export type Subscriber = (event: LoggedEvent) => void;

export interface ReplayResult {
  events: LoggedEvent[];
  /** Events the client asked to resume after are no longer buffered (or came from an earlier process). */
  gap: boolean;
}

export class EventLog {
  private readonly boot: string;
  private readonly capacity: number;
  private readonly events: LoggedEvent[] = [];
  private readonly subscribers = new Set<Subscriber>();
  /** Waits for a first subscriber (`waitForSubscriber`), each told true or false once. */
  private readonly waiters = new Set<(attached: boolean) => void>();
  private sequence: number;
  /** When an event was last appended or a subscriber came or went (ms since the epoch). */
  private touchedAt = Date.now();

  /** `lastSequence`: where an earlier log of the same conversation in this process stopped. */
  constructor(boot: string, capacity = REPLAY_BUFFER_EVENTS, lastSequence = 0) {
    this.boot = boot;
    this.capacity = capacity;
    this.sequence = lastSequence;
  }

  /** The sequence number of the last event appended (or the one this log continues from). */
  get lastSequence(): number {
    return this.sequence;
  }

  /** The id of the last event appended (or the one before the first): replaying after it sends what comes next. */
  get lastId(): string {
    return `${this.boot}-${this.sequence}`;
  }

  get hasSubscribers(): boolean {
    return this.subscribers.size > 0;
  }

  get lastTouched(): number {
    return this.touchedAt;
  }

  append(type: string, data: string, urgent = false): LoggedEvent {
    this.touchedAt = Date.now();
    this.sequence += 1;
    const event: LoggedEvent = {
      id: `${this.boot}-${this.sequence}`,
      sequence: this.sequence,
      event: type,
      data,
    };
    if (urgent) event.urgent = true;
    this.events.push(event);
    if (this.events.length > this.capacity) this.events.splice(0, this.events.length - this.capacity);
    for (const subscriber of this.subscribers) subscriber(event);
    return event;
  }

  /** What a client that last saw `lastEventId` missed (everything buffered when it saw nothing yet). */
  replayAfter(lastEventId: string | undefined): ReplayResult {
    if (lastEventId === undefined || lastEventId === '') return { events: [], gap: false };
    const match = /^([a-z0-9]+)-(\d+)$/.exec(lastEventId);
    if (!match || match[1] !== this.boot) {
      // An id from an earlier server process: every event of this process is new to the client.
      return { events: [...this.events], gap: true };
    }
    const seen = Number(match[2]);
    const oldest = this.events[0]?.sequence ?? this.sequence + 1;
    return { events: this.events.filter((event) => event.sequence > seen), gap: seen + 1 < oldest };
  }

  subscribe(subscriber: Subscriber): () => void {
    this.touchedAt = Date.now();
    this.subscribers.add(subscriber);
    for (const waiter of [...this.waiters]) waiter(true);
    return () => {
      this.touchedAt = Date.now();
      this.subscribers.delete(subscriber);
    };
  }

  /** True at once if someone listens, else as soon as someone subscribes; false after `withinMs`. */
  waitForSubscriber(withinMs: number): Promise<boolean> {
    if (this.subscribers.size > 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const settle = (attached: boolean): void => {
        clearTimeout(timer);
        this.waiters.delete(settle);
        resolve(attached);
      };
      const timer = setTimeout(() => settle(false), withinMs);
      this.waiters.add(settle);
    });
  }

  /** Ends every wait for a subscriber with false (the server is stopping). */
  releaseWaiters(): void {
    for (const waiter of [...this.waiters]) waiter(false);
  }
}
