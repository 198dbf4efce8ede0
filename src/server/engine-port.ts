/**
 * What the server needs from the engine (the public library API, src/core): the conversation store and
 * live conversation handles. The server is a thin client of exactly this.
 */
import type { PendingApproval } from '../core/index.js';

export type ApprovalDecision = 'approve' | 'approve-session' | 'deny' | 'abort';

export const APPROVAL_DECISIONS: readonly ApprovalDecision[] = [
  'approve',
  'approve-session',
  'deny',
  'abort',
];

/** An engine event as the server relays it: only `type` (and a few fields it routes on) are read. */
export interface EngineEvent {
  type: string;
  [field: string]: unknown;
}

export interface Selection {
  provider: string;
  api?: string;
  model?: string;
}

/**
 * An approval request waiting for an answer, as the engine lists it (`GET …/state` shows it): core's
 * own shape, with the event it re-sends to every client that attaches seen as the server sees events.
 */
export type PendingApprovalView = Omit<PendingApproval, 'request'> & { request: EngineEvent };

export interface EngineConversation {
  readonly id: string;
  /** A turn or a compaction runs (the engine refuses a second with kind 'busy'). */
  readonly busy: boolean;
  pendingApprovals(): PendingApprovalView[];
  submit(
    message: string,
    options?: { signal?: AbortSignal; images?: ReadonlyArray<{ data: Uint8Array; name: string }> },
  ): AsyncIterable<EngineEvent>;
  compact(focus?: string, options?: { signal?: AbortSignal }): AsyncIterable<EngineEvent>;
  status(): unknown;
  setSelection(selection: Selection): unknown;
  setApprovalPolicy(policy: string): unknown;
  /** `off` | `minimal` | `low` | `medium` | `high`: how hard the model reasons from the next turn on. */
  setReasoning(level: 'off' | 'minimal' | 'low' | 'medium' | 'high'): unknown;
  abort(): void;
  close(): Promise<void>;
}

/** A turn or compaction another process runs on a conversation (`cody chat` in a terminal). */
export interface RemoteRun {
  kind: 'turn' | 'compaction';
  /** Its id, from its `turn-started` ('' when its start was no longer kept). */
  turnId: string;
  /** Its events from its start, ending after its terminal event. */
  events: AsyncIterable<EngineEvent>;
}

export interface Engine {
  list(): Promise<unknown[]>;
  create(selection?: Selection): Promise<EngineConversation>;
  open(id: string): Promise<EngineConversation>;
  get(id: string): Promise<unknown>;
  /** Sets the title the list shows ('' goes back to the generated one); the summary as renamed. */
  rename(id: string, title: string): Promise<unknown>;
  /** With `abortRunning`, a running turn is interrupted and recorded first (else refused, 'busy'). */
  delete(id: string, options?: { abortRunning?: boolean }): Promise<unknown>;
  fork(id: string, options?: { atUserTurn?: number; atEntry?: string }): Promise<EngineConversation>;
  transcript(id: string, options?: { after?: string; limit?: number }): Promise<unknown>;
  /** The whole conversation written out as `cody export` writes it. */
  export(id: string, format: 'md' | 'json' | 'html'): Promise<string>;
  /** Interrupts the turn running on that conversation; false when none runs. */
  abort(id: string): boolean;
  /** Answers an approval request by its id; the conversation's id, or undefined when none waits. */
  respond(approvalId: string, decision: ApprovalDecision, reason?: string): string | undefined;
  /** Keeps the conversation from being closed for idleness until the returned function is called. */
  hold(id: string): () => void;
  /** Called with the id of each conversation the engine closes (idle, deleted, found deleted). */
  onClose(listener: (id: string) => void): () => void;
  /**
   * Tells `onRun` of each run another process goes on with on that conversation (the one going on now,
   * once `ready` resolves, and later ones), never of the engine's own.
   */
  watchLive(id: string, onRun: (run: RemoteRun) => void): { ready: Promise<void>; stop(): void };
}
