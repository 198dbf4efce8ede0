/**
 * The conversations this server is driving: one open engine handle each, at most one running turn each
 * (a second one is refused with 409 `turn-running`), the per-conversation event log every SSE client
 * reads, the approvals waiting for an answer, and an orderly stop for SIGTERM.
 */
import { randomUUID } from 'node:crypto';
import { isRecord } from '../protocol/json.js';
import { ApiError } from './api-error.js';
import type { ApprovalDecision, Engine, EngineConversation, EngineEvent } from './engine-port.js';
import { describeError } from './error-map.js';
import { EventLog, REPLAY_BUFFER_EVENTS } from './event-log.js';

interface RunningTurn {
  turnId: string;
  kind: 'turn' | 'compaction';
  abort: AbortController;
  done: Promise<void>;
}

interface Live {
  id: string;
  /** `,"conversationId":"…"}`: the end of every event this conversation publishes. */
  idField: string;
  handle: Promise<EngineConversation> | undefined;
  /** The engine opened (or made) this conversation in this process: it exists. */
  opened: boolean;
  log: EventLog;
  turn: RunningTurn | undefined;
  state: string;
  /** When a request last asked for this conversation (ms since the epoch). */
  usedAt: number;
}

export interface LiveConversationsOptions {
  engine: Engine;
  /** Applied to every event's JSON before anyone sees it (secret scrubbing). */
  scrub?: (text: string) => string;
  /** How long a conversation stays open with no turn, no client and no request; default 10 minutes. */
  idleMs?: number;
}

/**
 * A server runs for days and may touch thousands of conversations: each open one holds its history in
 * memory and its events for replay. One left alone this long is closed and its events dropped; a client
 * that comes back later with an older `Last-Event-ID` is told of the gap and reads the transcript.
 */
export const IDLE_CLOSE_MS = 10 * 60_000;

const TERMINAL_EVENTS = new Set(['turn-complete', 'turn-failed']);
/** The event that ends each kind of run. */
const ENDING_EVENTS: Record<RunningTurn['kind'], ReadonlySet<string>> = {
  turn: TERMINAL_EVENTS,
  compaction: new Set([...TERMINAL_EVENTS, 'compaction-finished']),
};
/** Events a client acts on (a run's end, a question): streamed at once, the rest gathered for ≤ 4 ms. */
const URGENT_EVENTS: ReadonlySet<string> = new Set([...ENDING_EVENTS.compaction, 'approval-requested']);

export class LiveConversations {
  private readonly engine: Engine;
  private readonly scrub: (text: string) => string;
  private readonly live = new Map<string, Live>();
  /** Approval id → conversation id, for `POST /approvals/:id`. */
  private readonly approvals = new Map<string, string>();
  /** Distinguishes this process's event ids from an earlier one's. */
  private readonly boot = Date.now().toString(36);
  /** Where the event log of each conversation closed for idleness stopped, so ids never repeat. */
  private readonly lastSequences = new Map<string, number>();
  /** Conversations being closed for idleness: opening one again waits for that to finish. */
  private readonly closing = new Map<string, Promise<void>>();
  private readonly idleMs: number;
  private readonly sweep: NodeJS.Timeout;
  private stopping = false;

  constructor(options: LiveConversationsOptions) {
    this.engine = options.engine;
    this.scrub = options.scrub ?? ((text) => text);
    this.idleMs = options.idleMs ?? IDLE_CLOSE_MS;
    this.sweep = setInterval(() => this.closeIdle(), Math.min(this.idleMs, 60_000));
    this.sweep.unref();
  }

  log(id: string): EventLog {
    return this.entry(id).log;
  }

  /**
   * True once a client listens to the conversation's events (at once when one does, the moment one
   * attaches otherwise); false if none does within `withinMs`, or the server stops first.
   */
  async waitForListener(id: string, withinMs: number): Promise<boolean> {
    if (this.stopping) return false;
    return this.entry(id).log.waitForSubscriber(withinMs);
  }

  /** The turn state as the last `state` event told it, and the running turn if any. */
  state(id: string): { state: string; turnId: string | null; pendingApprovals: string[] } {
    const live = this.live.get(id);
    const pendingApprovals = [...this.approvals]
      .filter(([, owner]) => owner === id)
      .map(([approval]) => approval);
    return { state: live?.state ?? 'Idle', turnId: live?.turn?.turnId ?? null, pendingApprovals };
  }

  isRunning(id: string): boolean {
    return this.live.get(id)?.turn !== undefined;
  }

  async handle(id: string): Promise<EngineConversation> {
    const live = this.entry(id);
    live.handle ??= (this.closing.get(id) ?? Promise.resolve()).then(() => this.engine.open(id));
    try {
      const conversation = await live.handle;
      live.opened = true;
      return conversation;
    } catch (error) {
      live.handle = undefined;
      throw error;
    }
  }

  /** Keeps a handle the engine just made (create, fork) instead of opening it again. */
  adopt(conversation: EngineConversation): void {
    const live = this.entry(conversation.id);
    live.handle = Promise.resolve(conversation);
    live.opened = true;
  }

  /** Whether this server has the conversation open (so it exists, without asking the store). */
  isOpen(id: string): boolean {
    return this.live.get(id)?.opened === true;
  }

  /** Starts a turn; resolves with its id once the engine has begun it (or rejects when it could not). */
  async startTurn(id: string, text: string): Promise<string> {
    const conversation = await this.handle(id);
    return this.run(id, 'turn', (signal) => conversation.submit(text, { signal }));
  }

  async startCompaction(id: string, focus: string | undefined): Promise<string> {
    const conversation = await this.handle(id);
    return this.run(id, 'compaction', (signal) => conversation.compact(focus, { signal }));
  }

  async respond(approvalId: string, decision: ApprovalDecision, reason?: string): Promise<string> {
    const id = this.approvals.get(approvalId);
    if (id === undefined) {
      throw new ApiError(404, 'approval-not-found', `No approval '${approvalId}' is waiting for an answer.`);
    }
    (await this.handle(id)).respond(approvalId, decision, reason);
    this.approvals.delete(approvalId);
    return id;
  }

  /** Interrupts the running turn, if any; the engine records where it stopped. */
  abort(id: string): boolean {
    const turn = this.live.get(id)?.turn;
    turn?.abort.abort(new Error('aborted over the API'));
    return turn !== undefined;
  }

  /** Closes and forgets a conversation (before it is deleted); refused while a turn runs. */
  async forget(id: string): Promise<void> {
    this.assertIdle(id);
    const live = this.live.get(id);
    this.live.delete(id);
    if (live?.handle) await (await live.handle.catch(() => undefined))?.close();
  }

  assertIdle(id: string): void {
    const turn = this.live.get(id)?.turn;
    if (turn) {
      throw new ApiError(
        409,
        'turn-running',
        `A ${turn.kind} (${turn.turnId}) is running on conversation ${id}; wait for it to finish.`,
      );
    }
    if (this.stopping) throw new ApiError(503, 'shutting-down', 'The server is shutting down.');
  }

  /** SIGTERM: no new turns; running ones are interrupted (the engine records the boundary) and awaited. */
  async shutdown(graceMs: number): Promise<void> {
    this.stopping = true;
    clearInterval(this.sweep);
    for (const live of this.live.values()) live.log.releaseWaiters();
    const running = [...this.live.values()].flatMap((live) => (live.turn ? [live.turn] : []));
    for (const turn of running) turn.abort.abort(new Error('server shutting down'));
    const all = Promise.allSettled(running.map((turn) => turn.done));
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
    for (const live of this.live.values()) {
      const handle = await live.handle?.catch(() => undefined);
      await handle?.close().catch(() => undefined);
    }
    await Promise.allSettled(this.closing.values());
  }

  private run(
    id: string,
    kind: RunningTurn['kind'],
    start: (signal: AbortSignal) => AsyncIterable<EngineEvent>,
  ): Promise<string> {
    this.assertIdle(id);
    const live = this.entry(id);
    const abort = new AbortController();
    const turn: RunningTurn = { turnId: randomUUID(), kind, abort, done: Promise.resolve() };
    live.turn = turn;
    return new Promise<string>((resolveStarted, rejectStarted) => {
      let started = false;
      const markStarted = (): void => {
        if (started) return;
        started = true;
        resolveStarted(turn.turnId);
      };
      if (kind === 'compaction') markStarted();
      turn.done = (async () => {
        // The last event is published only once the turn no longer counts as running, so a client that
        // sees it and sends the next message at once is never refused with 409.
        let last: EngineEvent | undefined;
        let failure: EngineEvent | undefined;
        let gone = false;
        try {
          for await (const event of start(abort.signal)) {
            if (last) this.publish(live, last);
            if (event.type === 'turn-started' && typeof event.turnId === 'string') turn.turnId = event.turnId;
            this.track(id, live, event);
            gone ||=
              event.type === 'turn-failed' && isRecord(event.error) && event.error.kind === 'not-found';
            last = ENDING_EVENTS[kind].has(event.type) ? event : undefined;
            if (!last) this.publish(live, event);
            markStarted();
          }
        } catch (error) {
          gone = describeError(error).kind === 'not-found';
          if (!started) {
            // Refused before anything happened (busy, missing key, unknown conversation): the POST fails.
            started = true;
            rejectStarted(error);
          } else if (!last || !TERMINAL_EVENTS.has(last.type)) {
            const { kind: errorKind, message } = describeError(error);
            failure = { type: 'turn-failed', error: { kind: errorKind, message } };
          }
        } finally {
          if (live.turn === turn) live.turn = undefined;
          for (const [approval, owner] of this.approvals) if (owner === id) this.approvals.delete(approval);
          if (last) this.publish(live, last);
          if (failure) this.publish(live, failure);
          // Deleted from under this server (by `cody delete` in another process): forget the open handle,
          // so the next request answers 404 instead of starting another turn that fails.
          if (gone && this.live.get(id) === live) this.close(id, live);
          markStarted();
        }
      })();
    });
  }

  private track(id: string, live: Live, event: EngineEvent): void {
    if (event.type === 'state' && typeof event.state === 'string') live.state = event.state;
    if (event.type === 'approval-requested' && typeof event.id === 'string') this.approvals.set(event.id, id);
    if (event.type === 'approval-resolved' && typeof event.id === 'string') this.approvals.delete(event.id);
  }

  private publish(live: Live, event: EngineEvent): void {
    // The event's JSON with `conversationId` as its last field, as `{ ...event, conversationId }` would
    // give, without copying the event first: a turn publishes a dozen. Every event has a `type`, so its
    // JSON is never `{}` and the id always follows a field.
    const data = `${JSON.stringify(event).slice(0, -1)}${live.idField}`;
    live.log.append(this.scrub(data), URGENT_EVENTS.has(event.type));
  }

  /** Closes the conversations nobody has used for `idleMs`: no turn, no client attached, no request. */
  private closeIdle(): void {
    const now = Date.now();
    for (const [id, live] of this.live) {
      const usedAt = Math.max(live.usedAt, live.log.lastTouched);
      if (live.turn || live.log.hasSubscribers || now - usedAt < this.idleMs) continue;
      this.close(id, live);
    }
  }

  /** Forgets a conversation's entry and closes its handle; its next events' ids go on from its last. */
  private close(id: string, live: Live): void {
    this.live.delete(id);
    this.lastSequences.set(id, live.log.lastSequence);
    if (!live.handle) return;
    const closed: Promise<void> = live.handle
      .then((conversation) => conversation.close())
      .catch(() => undefined)
      .finally(() => {
        if (this.closing.get(id) === closed) this.closing.delete(id);
      });
    this.closing.set(id, closed);
  }

  private entry(id: string): Live {
    let live = this.live.get(id);
    if (live) {
      live.usedAt = Date.now();
    } else {
      live = {
        id,
        idField: `,"conversationId":${JSON.stringify(id)}}`,
        handle: undefined,
        opened: false,
        log: new EventLog(this.boot, REPLAY_BUFFER_EVENTS, this.lastSequences.get(id)),
        turn: undefined,
        state: 'Idle',
        usedAt: Date.now(),
      };
      this.live.set(id, live);
    }
    return live;
  }
}
