/** Approval requests waiting for an answer (`respond(id, decision)`), by id. */
import { randomUUID } from 'node:crypto';
import type { ApprovalDecision } from '../session-events.js';

export class ApprovalDesk {
  private readonly pending = new Map<string, (decision: ApprovalDecision) => void>();

  /** Opens a request; the promise settles with the answer, or 'abort' when `signal` fires first. */
  open(signal: AbortSignal | undefined): { id: string; answer: Promise<ApprovalDecision> } {
    const id = randomUUID();
    const answer = new Promise<ApprovalDecision>((resolve) => {
      this.pending.set(id, resolve);
      if (signal?.aborted) this.respond(id, 'abort');
      else signal?.addEventListener('abort', () => this.respond(id, 'abort'), { once: true });
    });
    return { id, answer };
  }

  /** Answers a waiting request; false when none with that id waits (answered already, or the turn ended). */
  respond(id: string, decision: ApprovalDecision): boolean {
    const resolve = this.pending.get(id);
    if (!resolve) return false;
    this.pending.delete(id);
    resolve(decision);
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
