/**
 * What `cody serve` keeps of the conversations it drives — only what is HTTP: the per-conversation event
 * log every SSE client reads (and replays from), the turn each POST started (its id, to answer 202 and
 * `GET …/state`), and an orderly stop for SIGTERM. The engine state — one turn at a time, approvals
 * waiting for an answer, abort, closing idle conversations — is the engine's (core/engine/live-conversations.ts);
 * an attached SSE client holds its conversation open there.
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from './api-error.js';
import type {
  ApprovalDecision,
  Engine,
  EngineConversation,
  EngineEvent,
  PendingApprovalView,
  RemoteRun,
} from './engine-port.js';
import { describeError, failedRun } from './error-map.js';
import { EventLog, REPLAY_BUFFER_EVENTS, type LoggedEvent } from './event-log.js';
import type { GlobalSignal } from './global-events.js';

interface RunningTurn {
  turnId: string;
  kind: 'turn' | 'compaction';
  done: Promise<void>;
  /** The event id just before the run's first event: a client replaying after it sees the whole run. */
  replayAfter?: string;
  /** Another process runs it (the terminal): this server relays it and cannot stop it or answer it. */
  elsewhere?: boolean;
  /** Such a run's turn state, from its last `state` event (this server's engine is idle meanwhile). */
  state?: string;
}

interface Live {
  id: string;
  /** `,"conversationId":"…"}`: the end of every event this conversation publishes. */
  idField: string;
  /** The engine opened (or made) this conversation for this server: it exists. */
  opened: boolean;
  log: EventLog;
  turn: RunningTurn | undefined;
  /** Watching for runs other processes go on with on this conversation (started by a client's interest). */
  watch: { ready: Promise<void>; stop(): void } | undefined;
}

export interface LiveConversationsOptions {
  engine: Engine;
  /** Told when a run starts and ends and when one asks for an approval (for `GET /events`). */
  onSignal?: (signal: GlobalSignal) => void;
}

/**
 * A server runs for days and may touch thousands of conversations: each open one holds its history in
 * memory and its events for replay. The engine closes one left alone this long (no turn, no client, no
 * request) and this server drops its events; a client that comes back later with an older
 * `Last-Event-ID` is told of the gap and reads the transcript.
 */
export const IDLE_CLOSE_MS = 10 * 60_000;

const TERMINAL_EVENTS = new Set(['turn-complete', 'turn-failed']);
/** The event that ends each kind of run. */
const ENDING_EVENTS: Record<RunningTurn['kind'], ReadonlySet<string>> = {
  turn: TERMINAL_EVENTS,
  compaction: new Set([...TERMINAL_EVENTS, 'compaction-finished']),
};
/** A relayed run's events that say it runs elsewhere: its start, and each question it asks there. */
const ELSEWHERE_MARKED: ReadonlySet<string> = new Set(['turn-started', 'approval-requested']);
/** Events a client acts on (a run's end, a question): streamed at once, the rest gathered for ≤ 4 ms. */
const URGENT_EVENTS: ReadonlySet<string> = new Set([...ENDING_EVENTS.compaction, 'approval-requested']);

export class LiveConversations {
  private readonly engine: Engine;
  private readonly signal: (signal: GlobalSignal) => void;
  private readonly live = new Map<string, Live>();
  /** Distinguishes this process's event ids from an earlier one's. */
  private readonly boot = Date.now().toString(36);
  /** Where the event log of each conversation the engine closed stopped, so ids never repeat. */
  private readonly lastSequences = new Map<string, number>();
  private readonly stopListening: () => void;
  private stopping = false;

  constructor(options: LiveConversationsOptions) {
    this.engine = options.engine;
    this.signal = options.onSignal ?? (() => undefined);
    this.stopListening = this.engine.onClose((id) => this.drop(id));
  }

  log(id: string): EventLog {
    return this.entry(id).log;
  }

  /**
   * Attaches an SSE client: the events it missed (after `lastEventId`), then every approval still
   * waiting for an answer, then the live events. The conversation stays open in the engine while it
   * listens. Returns the function that detaches it.
   */
  async attach(
    id: string,
    lastEventId: string | undefined,
    send: (event: Pick<LoggedEvent, 'data'> & Partial<LoggedEvent>) => void,
  ): Promise<() => void> {
    // The engine has it open when this server opened or made it: `open` answers from its registry.
    const pending = this.isOpen(id) ? (await this.engine.open(id)).pendingApprovals() : [];
    // A run the terminal goes on with now is in the log (from its start) before the replay is read.
    await this.follow(this.entry(id));
    const log = this.entry(id).log;
    const replay = log.replayAfter(lastEventId);
    if (replay.gap) {
      // No id: the client's Last-Event-ID stays where it was. The transcript has what was missed.
      send({ event: 'replay-gap', data: JSON.stringify({ type: 'replay-gap', conversationId: id }) });
    }
    for (const event of replay.events) send(event);
    const release = this.engine.hold(id);
    const unsubscribe = log.subscribe(send);
    // A question asked while nobody listened, or before this client came, still waits for its answer:
    // sent again (without an id, so the client's Last-Event-ID does not go back) unless just replayed.
    for (const approval of pending) {
      const asked = `{"type":"approval-requested","id":${JSON.stringify(approval.id)}`;
      if (replay.events.some((event) => event.data.startsWith(asked))) continue;
      send({ event: approval.request.type, data: this.json(id, approval.request), urgent: true });
    }
    return () => {
      unsubscribe();
      release();
      this.dropIfUnused(id);
    };
  }

  /**
   * True once a client listens to the conversation's events (at once when one does, the moment one
   * attaches otherwise); false if none does within `withinMs`, or the server stops first.
   */
  async waitForListener(id: string, withinMs: number): Promise<boolean> {
    if (this.stopping) return false;
    return this.entry(id).log.waitForSubscriber(withinMs);
  }

  /** The conversation's turn state, the running turn if any, and the approvals waiting for an answer. */
  async state(id: string): Promise<{
    status: unknown;
    state: string;
    turnId: string | null;
    replayAfter: string | null;
    pendingApprovals: Array<Omit<PendingApprovalView, 'request'>>;
    plan: unknown;
    elsewhere?: true;
  }> {
    const conversation = await this.handle(id);
    await this.follow(this.entry(id));
    const status: unknown = await conversation.status();
    const engineState = (status as { state?: unknown } | undefined)?.state;
    const turn = this.live.get(id)?.turn;
    return {
      state: turn?.elsewhere === true ? (turn.state ?? 'ProcessingUserMessage') : stateOf(engineState),
      plan: (status as { plan?: unknown } | undefined)?.plan ?? null,
      turnId: turn?.turnId ?? null,
      replayAfter: turn?.replayAfter ?? null,
      pendingApprovals: conversation.pendingApprovals().map(({ request: _request, ...pending }) => pending),
      status,
      ...(turn?.elsewhere === true ? { elsewhere: true as const } : {}),
    };
  }

  async handle(id: string): Promise<EngineConversation> {
    const live = this.entry(id);
    try {
      const conversation = await this.engine.open(id);
      live.opened = true;
      return conversation;
    } catch (error) {
      // Not there (or not openable): no entry is kept for it.
      this.dropIfUnused(id);
      throw error;
    }
  }

  /** Notes a conversation the engine just made (create, fork): it exists. */
  adopt(conversation: EngineConversation): void {
    this.entry(conversation.id).opened = true;
  }

  /** Resolves once the run going on in the conversation, if any, has published its last event. */
  running(id: string): Promise<void> {
    return this.live.get(id)?.turn?.done ?? Promise.resolve();
  }

  /** Whether this server has the conversation open (so it exists, without asking the store). */
  isOpen(id: string): boolean {
    return this.live.get(id)?.opened === true;
  }

  /** Starts a turn; resolves with its id once the engine has begun it (or rejects when it could not). */
  async startTurn(
    id: string,
    text: string,
    images: ReadonlyArray<{ data: Uint8Array; name: string }> = [],
  ): Promise<string> {
    const conversation = await this.handle(id);
    return this.run(id, 'turn', () => conversation.submit(text, images.length > 0 ? { images } : {}));
  }

  async startCompaction(id: string, focus: string | undefined): Promise<string> {
    const conversation = await this.handle(id);
    return this.run(id, 'compaction', () => conversation.compact(focus));
  }

  respond(approvalId: string, decision: ApprovalDecision, reason?: string): string {
    const id = this.engine.respond(approvalId, decision, reason);
    if (id === undefined) {
      throw new ApiError(404, 'approval-not-found', `No approval '${approvalId}' is waiting for an answer.`);
    }
    return id;
  }

  /** Interrupts the running turn, if any; the engine records where it stopped. */
  abort(id: string): boolean {
    return this.engine.abort(id);
  }

  /** Refuses a change while a turn runs (the engine refuses a second turn the same way). */
  async assertIdle(id: string): Promise<void> {
    if (this.stopping) throw new ApiError(503, 'shutting-down', 'The server is shutting down.');
    const turn = this.live.get(id)?.turn;
    if (turn || (this.live.get(id)?.opened === true && (await this.handle(id)).busy)) {
      const running = turn ? `A ${turn.kind} (${turn.turnId})` : 'A turn';
      throw new ApiError(
        409,
        'turn-running',
        `${running} is running on conversation ${id}; wait for it to finish.`,
      );
    }
  }

  /** SIGTERM: no new turns; running ones are interrupted (the engine records the boundary) and awaited. */
  async shutdown(graceMs: number): Promise<void> {
    this.stopping = true;
    for (const live of this.live.values()) live.log.releaseWaiters();
    const running = [...this.live].flatMap(([id, live]) => (live.turn ? [{ id, turn: live.turn }] : []));
    for (const { id } of running) this.engine.abort(id);
    const all = Promise.allSettled(running.map(({ turn }) => turn.done));
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
    this.stopListening();
  }

  private run(
    id: string,
    kind: RunningTurn['kind'],
    start: () => AsyncIterable<EngineEvent>,
  ): Promise<string> {
    if (this.stopping) throw new ApiError(503, 'shutting-down', 'The server is shutting down.');
    const live = this.entry(id);
    const turn: RunningTurn = { turnId: randomUUID(), kind, done: Promise.resolve() };
    return new Promise<string>((resolveStarted, rejectStarted) => {
      let started = false;
      const markStarted = (): void => {
        if (started) return;
        started = true;
        this.signal({ type: 'conversation-state', conversationId: id, state: 'busy', turnId: turn.turnId });
        resolveStarted(turn.turnId);
      };
      turn.done = (async () => {
        // The last event is published only once the turn no longer counts as running (the engine
        // releases it when its events end), so a client that sees it and sends the next message at once
        // is never refused with 409.
        let last: EngineEvent | undefined;
        let failure: EngineEvent | undefined;
        try {
          const events = start();
          turn.replayAfter = live.log.lastId;
          live.turn = turn;
          for await (const event of events) {
            // A run that ends before its `turn-started` never began (no key, a model that takes no
            // images): the POST answers with that error, and no event is published.
            if (!started && event.type === 'turn-failed') throw failedRun(event);
            if (last) this.publish(live, last);
            if (event.type === 'turn-started' && typeof event.turnId === 'string') turn.turnId = event.turnId;
            last = ENDING_EVENTS[kind].has(event.type) ? event : undefined;
            if (!last) this.publish(live, event);
            markStarted();
          }
        } catch (error) {
          if (!started) {
            // Refused before anything happened (busy, missing key, unknown conversation): the POST fails.
            started = true;
            rejectStarted(error);
          } else if (!last || !TERMINAL_EVENTS.has(last.type)) {
            const { kind: errorKind, message } = describeError(error);
            failure = { type: 'turn-failed', turnId: turn.turnId, error: { kind: errorKind, message } };
          }
        } finally {
          if (live.turn === turn) live.turn = undefined;
          if (last) this.publish(live, last);
          if (failure) this.publish(live, failure);
          if (started) this.signal({ type: 'conversation-state', conversationId: id, state: 'idle' });
          markStarted();
        }
      })();
    });
  }

  /** Watches the conversation for runs other processes go on with on it (once per entry). */
  private follow(live: Live): Promise<void> {
    if (this.live.get(live.id) !== live) return Promise.resolve();
    live.watch ??= this.engine.watchLive(live.id, (run) => void this.relay(live, run));
    return live.watch.ready;
  }

  /**
   * Another process's run (the terminal's turn): its events go into the conversation's log as this
   * server's own would — ids, replay, `GET …/state` and the list's signals alike — marked `elsewhere` on
   * `turn-started` and `approval-requested` (nothing here can stop it or answer its questions).
   */
  private async relay(live: Live, run: RemoteRun): Promise<void> {
    // This server's own run holds the conversation's lock: another process's cannot run beside it.
    if (live.turn || this.stopping) return;
    const turn: RunningTurn = {
      turnId: run.turnId,
      kind: run.kind,
      done: Promise.resolve(),
      replayAfter: live.log.lastId,
      elsewhere: true,
    };
    live.turn = turn;
    this.signal({ type: 'conversation-state', conversationId: live.id, state: 'busy', turnId: turn.turnId });
    turn.done = (async () => {
      let last: EngineEvent | undefined;
      try {
        for await (const event of run.events) {
          if (last) this.publish(live, last);
          if (event.type === 'state' && typeof event.state === 'string') turn.state = event.state;
          last = TERMINAL_EVENTS.has(event.type) ? event : undefined;
          if (!last)
            this.publish(live, ELSEWHERE_MARKED.has(event.type) ? { ...event, elsewhere: true } : event);
        }
      } finally {
        // As for this server's own runs, the last event comes once the run no longer counts as running.
        if (live.turn === turn) live.turn = undefined;
        if (last) this.publish(live, last);
        this.signal({ type: 'conversation-state', conversationId: live.id, state: 'idle' });
      }
    })();
    await turn.done;
  }

  private json(id: string, event: EngineEvent): string {
    return `${JSON.stringify(event).slice(0, -1)}${this.entry(id).idField}`;
  }

  private publish(live: Live, event: EngineEvent): void {
    // The event's JSON with `conversationId` as its last field, as `{ ...event, conversationId }` would
    // give, without copying the event first: a turn publishes a dozen. Every event has a `type`, so its
    // JSON is never `{}` and the id always follows a field.
    const data = `${JSON.stringify(event).slice(0, -1)}${live.idField}`;
    // Events come redacted from the engine (core's streaming redactor); each stream's secret filter
    // replaces what was learnt since (a replayed event) as the frame leaves (secret-filter.ts).
    live.log.append(event.type, data, URGENT_EVENTS.has(event.type));
    if (event.type === 'approval-requested') {
      const call = event.call as { name?: unknown } | undefined;
      this.signal({
        type: 'approval-pending',
        conversationId: live.id,
        approvalId: String(event.id),
        tool: typeof call?.name === 'string' ? call.name : '',
        reason: typeof event.reason === 'string' ? event.reason : '',
      });
    }
  }

  /** The engine closed the conversation (idle, deleted, found deleted): its events go; ids go on later. */
  private drop(id: string): void {
    const live = this.live.get(id);
    if (!live) return;
    this.live.delete(id);
    live.watch?.stop();
    if (live.log.lastSequence > 0) this.lastSequences.set(id, live.log.lastSequence);
  }

  /** A conversation only listened to (never opened in the engine) needs no entry once nobody listens. */
  private dropIfUnused(id: string): void {
    const live = this.live.get(id);
    if (live && !live.opened && !live.turn && !live.log.hasSubscribers) this.drop(id);
  }

  private entry(id: string): Live {
    let live = this.live.get(id);
    if (!live) {
      live = {
        id,
        idField: `,"conversationId":${JSON.stringify(id)}}`,
        opened: false,
        log: new EventLog(this.boot, REPLAY_BUFFER_EVENTS, this.lastSequences.get(id)),
        turn: undefined,
        watch: undefined,
      };
      this.live.set(id, live);
    }
    return live;
  }
}

function stateOf(engineState: unknown): string {
  return typeof engineState === 'string' ? engineState : 'Idle';
}
