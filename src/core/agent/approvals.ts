/** Approval requests waiting for an answer (`respond(id, decision)`), by id. */
import { randomUUID } from 'node:crypto';
import type { ApprovalDecision } from '../session-events.js';

/** An answer: the decision, and for a denial what the person wants the model to know. */
export interface ApprovalAnswer {
  decision: ApprovalDecision;
  reason?: string;
}

export class ApprovalDesk {
  private readonly pending = new Map<string, (answer: ApprovalAnswer) => void>();

  /** Opens a request; the promise settles with the answer, or 'abort' when `signal` fires first. */
  open(signal: AbortSignal | undefined): { id: string; answer: Promise<ApprovalAnswer> } {
    const id = randomUUID();
    const answer = new Promise<ApprovalAnswer>((resolve) => {
      this.pending.set(id, resolve);
      if (signal?.aborted) this.respond(id, 'abort');
      else signal?.addEventListener('abort', () => this.respond(id, 'abort'), { once: true });
    });
    return { id, answer };
  }

  /** Answers a waiting request; false when none with that id waits (answered already, or the turn ended). */
  respond(id: string, decision: ApprovalDecision, reason?: string): boolean {
    const resolve = this.pending.get(id);
    if (!resolve) return false;
    this.pending.delete(id);
    const said = reason?.trim();
    resolve(decision === 'deny' && said ? { decision, reason: said } : { decision });
    return true;
  }

  has(id: string): boolean {
    return this.pending.has(id);
  }

  /** Ends every waiting request (the conversation closes): each is answered 'abort'. */
  abortAll(): void {
    for (const id of [...this.pending.keys()]) this.respond(id, 'abort');
  }
}
