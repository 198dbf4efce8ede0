/**
 * Approval requests waiting for an answer (`respond(id, decision)`), by id, with what was asked: they are
 * part of the conversation's state (a client that attaches later is shown them, `status` lists them).
 * A request nobody answers within its timeout is declined with the reason "no answer", so a turn never
 * waits forever for someone who left.
 */
import { randomUUID } from 'node:crypto';
import type { ApprovalDecision, PendingApproval, SessionEvent } from '../conversation/index.js';

/** The `approval-requested` event of a request. */
export type ApprovalRequest = Extract<SessionEvent, { type: 'approval-requested' }>;

/** An answer: the decision, and for a denial what the person wants the model to know. */
export interface ApprovalAnswer {
  decision: ApprovalDecision;
  reason?: string;
  /** Nobody answered within the timeout (the decision is then 'deny', the reason "no answer"). */
  timedOut?: boolean;
}

/** The reason a request nobody answered in time is declined with. */
export const NO_ANSWER = 'no answer';

/** How long a request waits for an answer unless configured (`approvalTimeoutMs`): 10 minutes. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 10 * 60_000;

interface Waiting {
  info: PendingApproval;
  resolve: (answer: ApprovalAnswer) => void;
}

export class ApprovalDesk {
  private readonly pending = new Map<string, Waiting>();

  /**
   * Opens a request; the promise settles with the answer, with 'abort' when `signal` fires first, or with
   * a 'deny' "no answer" once `timeoutMs` has passed (0: waits until answered or aborted).
   */
  open(
    request: Omit<ApprovalRequest, 'type' | 'id'>,
    signal: AbortSignal | undefined,
    timeoutMs: number,
  ): { request: ApprovalRequest; answer: Promise<ApprovalAnswer> } {
    const id = randomUUID();
    const event: ApprovalRequest = { type: 'approval-requested', id, ...request };
    const now = Date.now();
    const info: PendingApproval = {
      id,
      callId: request.call.call_id,
      tool: request.call.name,
      arguments: request.call.arguments,
      reason: request.reason,
      ...(request.preview !== undefined ? { preview: request.preview } : {}),
      requestedAt: new Date(now).toISOString(),
      ...(timeoutMs > 0 ? { expiresAt: new Date(now + timeoutMs).toISOString() } : {}),
      request: event,
    };
    const answer = new Promise<ApprovalAnswer>((resolve) => {
      const timer =
        timeoutMs > 0
          ? setTimeout(
              () => this.settle(id, { decision: 'deny', reason: NO_ANSWER, timedOut: true }),
              timeoutMs,
            )
          : undefined;
      const onAbort = (): void => void this.settle(id, { decision: 'abort' });
      this.pending.set(id, {
        info,
        resolve: (value) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(value);
        },
      });
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    return { request: event, answer };
  }

  /** Answers a waiting request; false when none with that id waits (answered already, or the turn ended). */
  respond(id: string, decision: ApprovalDecision, reason?: string): boolean {
    const said = reason?.trim();
    return this.settle(id, decision === 'deny' && said ? { decision, reason: said } : { decision });
  }

  has(id: string): boolean {
    return this.pending.has(id);
  }

  /** The requests waiting for an answer, oldest first. */
  list(): PendingApproval[] {
    return [...this.pending.values()].map((waiting) => waiting.info);
  }

  /** Ends every waiting request (the conversation closes): each is answered 'abort'. */
  abortAll(): void {
    for (const id of [...this.pending.keys()]) this.settle(id, { decision: 'abort' });
  }

  private settle(id: string, answer: ApprovalAnswer): boolean {
    const waiting = this.pending.get(id);
    if (!waiting) return false;
    this.pending.delete(id);
    waiting.resolve(answer);
    return true;
  }
}
