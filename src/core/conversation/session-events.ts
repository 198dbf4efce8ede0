import type {
  FinishReason,
  FunctionCallItem,
  ResponseItem,
  TokenUsage,
  WireApi,
} from '../../protocol/index.js';
import type { ErrorHint, ErrorKind } from '../errors.js';
import type { PlanStep } from '../tools/index.js';
import type { AlwaysScope } from '../tools/index.js';

export type { AlwaysScope };

/** Why a compaction ran. */
export type CompactionTrigger = 'auto' | 'overflow' | 'manual';

/**
 * Where a conversation's turn stands. The allowed transitions are in `agent/turn-state.ts`; a `state`
 * event is emitted on every change, and `status()` reports the current one.
 */
export type TurnState =
  | 'Idle'
  | 'ProcessingUserMessage'
  | 'AwaitingLLMResponse'
  | 'StreamingLLMResponse'
  | 'ProcessingLLMResponse'
  | 'AwaitingToolApproval'
  | 'ExecutingTools'
  | 'TransientFailure'
  | 'PermanentFailure'
  | 'Compacting'
  | 'Interrupted';

/** An answer to an `approval-requested` event. */
export type ApprovalDecision = 'approve' | 'approve-session' | 'deny' | 'abort';

/**
 * Who declined a tool call that does not run: the approval policy, nobody being there to ask, the user,
 * nobody answering the question within `approvalTimeoutMs` ('no-answer'), or the call itself, found
 * unable to apply before anyone was asked ('cannot-apply': edit text not in the file, a private address).
 */
export type ToolDeclinedBy = 'policy' | 'nobody-to-ask' | 'user' | 'no-answer' | 'cannot-apply' | 'hook';

/** How a tool call ended. */
export type ToolFinishStatus = 'ok' | 'error' | 'denied' | 'aborted';

/** How a turn that reached its end ended. */
export type TurnCompleteStatus = 'completed' | 'interrupted';

/** What a turn reports as it runs. Front ends render these; tests collect them. */
export type SessionEvent =
  | { type: 'turn-started'; turnId: string; provider: string; api: WireApi; model: string }
  /** The conversation's turn state changed. */
  | { type: 'state'; state: TurnState }
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  /** An item is now in the history (and durable, unless a `warning` said saving failed). */
  | { type: 'item-recorded'; item: ResponseItem }
  | {
      type: 'usage';
      usage: TokenUsage;
      /** What this request's tokens cost at list prices (USD); absent when the model's price is unknown. */
      costUsd?: number;
      /** Tokens the live history now occupies. */
      contextTokens: number;
      contextWindow: number;
    }
  | { type: 'warning'; message: string }
  /** A failed request is being repeated; text already shown for it is void. */
  | {
      type: 'retry';
      attempt: number;
      maxRetries: number;
      delayMs: number;
      reason: string;
      /** The HTTP status of the failed request, when there was one (429, 503…). */
      statusCode?: number;
      discardedPartial: boolean;
    }
  | { type: 'compaction-started'; trigger: CompactionTrigger; tokensBefore: number }
  | {
      type: 'compaction-finished';
      trigger: CompactionTrigger;
      status: string;
      /** Why nothing was done (status 'noop'). */
      reason?: string;
      tokensBefore: number;
      tokensAfter: number;
      trimmedItems: number;
      summaryFailed: boolean;
    }
  /**
   * The model asked for a tool call; `approved` says whether it will run. A declined call says who
   * declined it (the approval policy, nobody being there to ask, or the user) and why.
   */
  | {
      type: 'tool-call';
      call: FunctionCallItem;
      approved: boolean;
      declinedBy?: ToolDeclinedBy;
      reason?: string;
    }
  /**
   * A tool call needs a decision: the turn waits for `respond(id, decision)`. When nobody can answer
   * (`canAsk: false`), no request is made and the call is denied with a reason the model sees.
   * `alwaysScope` is what 'approve-session' would cover (`git status`, `edits to app.js`); absent when
   * "always" is not offered for this call (a deletion, a dangerous command): it asks every time.
   */
  | {
      type: 'approval-requested';
      id: string;
      call: FunctionCallItem;
      reason: string;
      preview?: string;
      alwaysScope?: AlwaysScope;
    }
  /** A request was answered; `reason` is "no answer" when nobody answered it in time (then 'deny'). */
  | { type: 'approval-resolved'; id: string; decision: ApprovalDecision; reason?: string }
  | { type: 'tool-started'; call: FunctionCallItem }
  /** Output streamed while a tool runs (a shell command's stdout/stderr). */
  | { type: 'tool-output'; callId: string; chunk: string }
  | {
      type: 'tool-finished';
      callId: string;
      durationMs: number;
      exitCode?: number;
      status: ToolFinishStatus;
    }
  /**
   * A hook ran (config.json's `hooks`, or a trusted `.cody/hooks.json`): its event, its command (one line),
   * what it decided (`allow`, `deny`, `ask`, `block`, `rewrite`, `context`, `stop`; absent: nothing), how it
   * ended, and how long it took. Recorded in the rollout too.
   */
  | {
      type: 'hook';
      event: string;
      command: string;
      source: 'user' | 'project';
      decision?: string;
      status: 'ok' | 'warning' | 'timeout';
      durationMs: number;
    }
  /** The model set its plan (an `update_plan` call ran): the whole list of steps, in order. */
  | { type: 'plan-updated'; callId: string; explanation?: string; plan: PlanStep[] }
  /** The turn's last event when it reached its end (completed, or interrupted and recorded as such). */
  | {
      type: 'turn-complete';
      turnId: string;
      finishReason: FinishReason;
      usage?: TokenUsage;
      /** What `usage` costs at list prices (USD); absent when there is none or the price is unknown. */
      costUsd?: number;
      status: TurnCompleteStatus;
    }
  /** The turn's last event when it could not complete; `turnId` once its `turn-started` was sent. */
  | { type: 'turn-failed'; turnId?: string; error: { kind: ErrorKind; message: string; hint?: ErrorHint } };

/**
 * An approval request waiting for an answer, as the conversation's state lists it (`pendingApprovals()`,
 * `GET /conversations/:id/state`): the tool call, why it needs asking, and until when it waits.
 */
export interface PendingApproval {
  /** The id `respond(id, …)` answers. */
  id: string;
  callId: string;
  tool: string;
  /** The call's arguments as the model sent them (JSON text). */
  arguments: string;
  reason: string;
  preview?: string;
  /** When it was asked (ISO 8601). */
  requestedAt: string;
  /** When it is declined with "no answer" if still unanswered (ISO 8601); absent: it waits for an answer. */
  expiresAt?: string;
  /** The `approval-requested` event as it was sent (a client that attaches later is sent it again). */
  request: Extract<SessionEvent, { type: 'approval-requested' }>;
}

/** Every event type, for front ends that validate or route by name. */
export type SessionEventType = SessionEvent['type'];
