/**
 * Which user messages of a transcript are still user turns of the live history, and their numbers:
 * the `atUserTurn` that forks through each one (store/fork.ts keeps user turns 1..N, counting the typed
 * user messages of the live history from 1).
 *
 * The transcript shows everything ever recorded; the live history does not. A compaction replaces the
 * history with its `replacement_history`, which keeps the most recent typed user messages (compact/
 * select-kept-user-messages.ts: a newest-first run, so always the last ones, the oldest maybe cut in the
 * middle) and drops the rest; a compaction without one (older files) kept every typed user message;
 * an undo (`thread_rolled_back`) drops the last turns. Replaying those on the messages seen gives each
 * message still in the live history its place there; a message no longer in it has no number.
 */
import { isTypedUserMessage, type MessageLike } from './definitions.js';

/** A transcript entry that can be numbered (the item entries of transcript.ts). */
export interface NumberedEntry {
  userTurn?: number;
}

export class LiveUserTurns<Entry extends NumberedEntry> {
  /** The live history's typed user messages, in order: each one's entry (none for one never seen). */
  private live: Array<Entry | undefined> = [];

  /** A typed user message was recorded. */
  added(entry: Entry): void {
    this.live.push(entry);
  }

  /** A compaction: its replacement history's typed user messages are the last ones of the live history. */
  compacted(replacementHistory: unknown): void {
    if (!Array.isArray(replacementHistory)) return;
    const kept = replacementHistory.filter(isTypedUserItem).length;
    const from = this.live.length - kept;
    this.live = [
      ...Array.from({ length: Math.max(0, -from) }, () => undefined),
      ...this.live.slice(Math.max(0, from)),
    ];
  }

  /** An undo of the last `turns` user turns. */
  rolledBack(turns: number): void {
    this.live.splice(Math.max(0, this.live.length - turns));
  }

  /** Sets `userTurn` on each entry still in the live history (1-based, as `atUserTurn` counts). */
  number(): void {
    this.live.forEach((entry, index) => {
      if (entry) entry.userTurn = index + 1;
    });
  }
}

/** A recorded item (as read from the line) that is a typed user message. */
function isTypedUserItem(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && isTypedUserMessage(raw as MessageLike);
}
