/**
 * What the page reads from `cody serve`, as the HTTP API returns it (src/server/openapi.json is the
 * contract). The page speaks HTTP only: these types are declared here, never imported from the engine.
 */

export interface ConversationSummary {
  id: string;
  provider: string;
  api: string;
  model: string;
  createdAt: string;
  updatedAt: string;
  messageCount?: number;
  preview?: string;
  title?: string;
  compactionCount?: number;
  /** The working directory the conversation was started in. */
  cwd?: string;
  parentId?: string;
}

export interface ContentPart {
  type: string;
  text?: string;
}

/** One recorded item of the history (the Codex `ResponseItem` shape); the page reads a few fields. */
export interface ResponseItem {
  type: string;
  role?: string;
  content?: ContentPart[];
  name?: string;
  arguments?: string;
  call_id?: string;
  output?: unknown;
  summary?: ContentPart[];
}

export type TranscriptEntry =
  /**
   * `userTurn`: a user message's number in the live history, the `atUserTurn` that forks through it.
   * `cursor`: the entry's position in the transcript as the server sent it (the `atEntry` of a fork).
   */
  | { kind: 'item'; item: ResponseItem; undone?: boolean; userTurn?: number; cursor?: string }
  | { kind: 'undo'; turns: number[]; restored: string[]; removed: string[]; kept: string[] }
  | { kind: 'compacted'; summary: string; tokensBefore?: number; tokensAfter?: number }
  | { kind: 'turn-context'; provider: string; api: string; model: string }
  | { kind: 'aborted'; reason: string };

/** Where a fork branches: after user turn N of the live history, or after the message at a transcript cursor. */
export type ForkPoint = { atUserTurn: number } | { atEntry: string };

export interface TranscriptPage {
  entries: TranscriptEntry[];
  next?: string | null;
}

export interface PendingApproval {
  id: string;
  callId: string;
  tool: string;
  arguments: string;
  reason: string;
  preview?: string;
  requestedAt?: string;
  expiresAt?: string;
}

export interface ConversationState {
  conversationId: string;
  state: string;
  turnId: string | null;
  /** With a run going on, the event id just before its first event (replay after it: the whole run). */
  replayAfter: string | null;
  /** The run going on is another process's (the terminal's): it cannot be stopped from here. */
  elsewhere?: true;
  pendingApprovals: PendingApproval[];
  plan?: unknown;
  status?: unknown;
}

export interface ProviderInfo {
  name: string;
  apis: string[];
  defaultModel?: string;
  models: string[];
}

/** Who the page is talking to: answered by `GET /auth/session` once signed in. */
export interface SessionInfo {
  signedIn: true;
  /** The directory `cody serve` runs in: its conversations are listed first. */
  workspace: string;
}

export interface FunctionCall {
  type: 'function_call';
  name: string;
  arguments: string;
  call_id: string;
}

export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
  reasoningTokens?: number;
  totalTokens?: number;
}

/** The events of `GET /conversations/:id/events` the page acts on (every one carries its `type`). */
export type ServerEvent = { conversationId?: string } & (
  | {
      type: 'turn-started';
      turnId: string;
      provider: string;
      api: string;
      model: string;
      /** Another process (the terminal) runs this turn. */
      elsewhere?: true;
    }
  | { type: 'state'; state: string }
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | { type: 'item-recorded'; item: ResponseItem }
  | { type: 'usage'; usage: TokenUsage; costUsd?: number; contextTokens: number; contextWindow: number }
  | { type: 'warning'; message: string }
  | { type: 'retry'; discardedPartial: boolean; reason: string }
  | { type: 'compaction-started'; tokensBefore: number }
  | { type: 'compaction-finished'; status: string; tokensBefore: number; tokensAfter: number }
  | { type: 'tool-call'; call: FunctionCall; approved: boolean; declinedBy?: string; reason?: string }
  | {
      type: 'approval-requested';
      id: string;
      call: FunctionCall;
      reason: string;
      preview?: string;
      alwaysScope?: unknown;
      /** Asked by a turn another process (the terminal) runs: answered there. */
      elsewhere?: true;
    }
  | { type: 'approval-resolved'; id: string; decision: string; reason?: string }
  | { type: 'tool-started'; call: FunctionCall }
  | { type: 'tool-output'; callId: string; chunk: string }
  | { type: 'tool-finished'; callId: string; durationMs: number; exitCode?: number; status: string }
  | {
      type: 'hook';
      event: string;
      command: string;
      source: string;
      decision?: string;
      status: string;
      durationMs: number;
    }
  | { type: 'plan-updated'; callId: string; explanation?: string; plan: unknown[] }
  | {
      type: 'turn-complete';
      turnId?: string;
      finishReason?: string;
      usage?: TokenUsage;
      costUsd?: number;
      status: string;
    }
  | { type: 'turn-failed'; turnId?: string; error: { kind: string; message: string } }
  | { type: 'replay-gap' }
  | { type: 'conversation-deleted' }
);

export type ServerEventType = ServerEvent['type'];
