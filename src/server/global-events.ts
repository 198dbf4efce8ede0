/**
 * `GET /events`: the conversation-level signals a list view needs (created, deleted, renamed, busy/idle,
 * an approval waiting), one stream for all conversations of this server, with replay by `Last-Event-ID`
 * from a small buffer. Only what this server does or sees is signalled (a conversation a CLI made in
 * the same home appears in the next `GET /conversations`).
 */
import { EventLog, type LoggedEvent } from './event-log.js';

/** Signals kept for replay: a list view that reconnects within minutes misses nothing. */
export const GLOBAL_REPLAY_EVENTS = 1_000;

export type GlobalSignal =
  | { type: 'conversation-created'; conversationId: string; conversation: unknown }
  | { type: 'conversation-deleted'; conversationId: string }
  | { type: 'conversation-renamed'; conversationId: string; title: string }
  | { type: 'conversation-state'; conversationId: string; state: 'busy' | 'idle'; turnId?: string }
  | { type: 'approval-pending'; conversationId: string; approvalId: string; tool: string; reason: string };

export class GlobalEvents {
  readonly log: EventLog;

  constructor(boot = `g${Date.now().toString(36)}`) {
    this.log = new EventLog(boot, GLOBAL_REPLAY_EVENTS);
  }

  publish(signal: GlobalSignal): void {
    this.log.append(signal.type, JSON.stringify(signal), true);
  }

  /** Sends what the client missed after `lastEventId`, then every signal as it comes; returns the detach. */
  attach(
    lastEventId: string | undefined,
    send: (event: Pick<LoggedEvent, 'data'> & Partial<LoggedEvent>) => void,
  ): () => void {
    const replay = this.log.replayAfter(lastEventId);
    if (replay.gap) send({ event: 'replay-gap', data: JSON.stringify({ type: 'replay-gap' }) });
    for (const event of replay.events) send(event);
    return this.log.subscribe(send);
  }
}
