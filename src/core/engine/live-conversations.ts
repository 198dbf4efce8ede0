/**
 * The live conversations of one `createCody`: one `Conversation` per id for everyone in the process, so
 * the engine state lives here and nowhere else — the busy guard (one turn at a time, in `Conversation`),
 * the approval requests waiting for an answer (found by their id alone), abort, and closing conversations
 * nobody uses. Front ends keep only what is theirs (`cody serve`: its event log and SSE clients).
 */
import { CodyError } from '../errors.js';
import type { Conversation, ConversationHooks } from '../conversation/index.js';
import type { ApprovalDecision } from '../conversation/index.js';

export interface LiveConversationsOptions {
  /**
   * A conversation with no turn running, no `hold` and no use for this long is closed (its history and
   * tool processes freed; `open` loads it again). Default: never (a library caller keeps what it opened).
   */
  idleCloseMs?: number;
}

interface Entry {
  conversation: Promise<Conversation>;
  /** Set once opened: `abort`, `respond` and `busy` answer at once. */
  opened: Conversation | undefined;
  usedAt: number;
}

export class LiveConversations {
  private readonly entries = new Map<string, Entry>();
  private readonly closeListeners = new Set<(id: string) => void>();
  /** Holds by conversation id, open or not yet (a client may attach before anything opens it). */
  private readonly holds = new Map<string, number>();
  private readonly idleCloseMs: number | undefined;
  private sweep: NodeJS.Timeout | undefined;

  constructor(options: LiveConversationsOptions = {}) {
    this.idleCloseMs = options.idleCloseMs;
  }

  /** The live conversation with that (resolved) id, made by `make` the first time. */
  open(id: string, make: (hooks: ConversationHooks) => Promise<Conversation>): Promise<Conversation> {
    const existing = this.entries.get(id);
    if (existing) {
      existing.usedAt = Date.now();
      return existing.conversation;
    }
    // The hooks run only once the conversation exists, so `entry` is always set when they do.
    const entry: Entry = {
      conversation: make({
        onClose: () => this.forget(id, entry),
        onTurnEnd: (last) => {
          entry.usedAt = Date.now();
          // Deleted under this open handle (`cody delete` in another process): closed, so the next `open`
          // finds it gone instead of starting another turn that fails.
          if (last?.type === 'turn-failed' && last.error.kind === 'not-found') void entry.opened?.close();
        },
      }).then((opened) => {
        entry.opened = opened;
        return opened;
      }),
      opened: undefined,
      usedAt: Date.now(),
    };
    entry.conversation.catch(() => this.forget(id, entry));
    this.entries.set(id, entry);
    this.startSweep();
    return entry.conversation;
  }

  /** The conversation if it is open in this process (never opens one). */
  get(id: string): Conversation | undefined {
    return this.entries.get(id)?.opened;
  }

  /** Whether a turn or a compaction runs on that conversation in this process. */
  busy(id: string): boolean {
    return this.get(id)?.busy === true;
  }

  /** Notes a use (a request, a turn's end): the idle time starts again. */
  touch(id: string): void {
    const entry = this.entries.get(id);
    if (entry) entry.usedAt = Date.now();
  }

  /**
   * Keeps the conversation from being closed for idleness until the returned function is called (a
   * client is attached); it may be opened later.
   */
  hold(id: string): () => void {
    this.holds.set(id, (this.holds.get(id) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.holds.get(id) ?? 1) - 1;
      if (left > 0) this.holds.set(id, left);
      else this.holds.delete(id);
      this.touch(id);
    };
  }

  /** Called with the id of every conversation closed (idle, deleted, found deleted, or `close`). */
  onClose(listener: (id: string) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Interrupts the turn running on that conversation; false when none runs. */
  abort(id: string): boolean {
    return this.get(id)?.abort() ?? false;
  }

  /**
   * Answers an approval request by its id alone, on whichever live conversation asked it; the id of that
   * conversation, or undefined when no request with that id waits.
   */
  respond(approvalId: string, decision: ApprovalDecision, reason?: string): string | undefined {
    for (const [id, entry] of this.entries) {
      const conversation = entry.opened;
      if (conversation?.pendingApprovals().some((pending) => pending.id === approvalId) !== true) continue;
      return conversation.respond(approvalId, decision, reason) ? id : undefined;
    }
    return undefined;
  }

  /**
   * Closes the conversation before it is deleted. A running turn is refused with 'busy', unless
   * `abortRunning`: then it is interrupted, and closing waits until the turn has recorded its end.
   */
  async end(id: string, abortRunning: boolean): Promise<void> {
    const conversation = await this.entries.get(id)?.conversation.catch(() => undefined);
    if (!conversation) return;
    if (conversation.busy) {
      if (!abortRunning) {
        throw new CodyError(`A turn is running on conversation ${id}; abort it before deleting.`, 'busy');
      }
      conversation.abort();
      await conversation.idle();
    }
    await conversation.close();
  }

  /** Interrupts every running turn and closes every conversation. */
  async closeAll(): Promise<void> {
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = undefined;
    const all = await Promise.allSettled([...this.entries.values()].map((entry) => entry.conversation));
    for (const result of all) if (result.status === 'fulfilled') await result.value.close();
    this.entries.clear();
  }

  private forget(id: string, entry: Entry): void {
    if (this.entries.get(id) !== entry) return;
    this.entries.delete(id);
    for (const listener of this.closeListeners) listener(id);
  }

  private startSweep(): void {
    const idleMs = this.idleCloseMs;
    if (idleMs === undefined || this.sweep) return;
    this.sweep = setInterval(() => this.closeIdle(idleMs), Math.max(10, Math.min(idleMs, 60_000)));
    this.sweep.unref();
  }

  /** Closes the conversations nobody used for `idleMs`: no turn, no hold, no use. */
  private closeIdle(idleMs: number): void {
    const now = Date.now();
    for (const [id, entry] of this.entries) {
      const conversation = entry.opened;
      if (!conversation || conversation.busy || this.holds.has(id) || now - entry.usedAt < idleMs) continue;
      void conversation.close();
    }
  }
}
