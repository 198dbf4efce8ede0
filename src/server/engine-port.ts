/**
 * What the server needs from the engine (the public library API, src/core): the conversation store and
 * live conversation handles. The server is a thin client of exactly this.
 */
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

export interface EngineConversation {
  readonly id: string;
  submit(message: string, options?: { signal?: AbortSignal }): AsyncIterable<EngineEvent>;
  respond(approvalId: string, decision: ApprovalDecision, reason?: string): void;
  compact(focus?: string, options?: { signal?: AbortSignal }): AsyncIterable<EngineEvent>;
  status(): unknown;
  setSelection(selection: Selection): unknown;
  setApprovalPolicy(policy: string): unknown;
  abort(): void;
  close(): Promise<void>;
}

export interface Engine {
  list(): Promise<unknown[]>;
  create(selection?: Selection): Promise<EngineConversation>;
  open(id: string): Promise<EngineConversation>;
  get(id: string): Promise<unknown>;
  delete(id: string): Promise<unknown>;
  fork(id: string, options?: { atUserTurn?: number }): Promise<EngineConversation>;
  transcript(id: string, options?: { after?: string; limit?: number }): Promise<unknown>;
}
