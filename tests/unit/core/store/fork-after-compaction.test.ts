/**
 * Forking from any user message, also after compaction (issue 23): each user entry of the transcript
 * still in the live history carries `userTurn`, the `atUserTurn` that forks through it; forking at it
 * keeps exactly the live history through that message. Through createCody with a scripted model and a
 * small window, so two compactions drop the oldest messages and keep the recent ones.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cody } from '../../../../src/core/engine/cody.js';
import { type Entry, question, tinyWindowCody, userMessageText } from './tiny-window.js';

/** The typed text of a user entry (undefined for every other entry). */
function userText(entry: Entry): string | undefined {
  const text = userMessageText(entry);
  return text?.startsWith('question') === true ? text : undefined;
}

describe('fork numbers in the transcript', () => {
  let cody: Cody;
  let close: () => Promise<void>;
  beforeEach(async () => {
    ({ cody, close } = await tinyWindowCody('cody-fork-compacted-'));
  });
  afterEach(() => close());

  async function run(events: AsyncIterable<{ type: string }>): Promise<void> {
    let last: { type: string } | undefined;
    for await (const event of events) last = event;
    expect(last?.type).toMatch(/turn-complete|compaction-finished|state/);
  }

  it('numbers each user message the live history still has; forking at it keeps the history through it', async () => {
    const conversation = await cody.create();
    for (const n of [1, 2, 3, 4]) await run(conversation.submit(question(n)));
    await run(conversation.compact());
    for (const n of [5, 6]) await run(conversation.submit(question(n)));
    await run(conversation.compact());
    await run(conversation.submit(question(7)));

    const { entries } = await cody.transcript(conversation.id, { limit: 1000 });
    expect(entries.filter((entry) => entry.kind === 'compacted')).toHaveLength(2);
    const users = entries.filter((entry) => userText(entry) !== undefined);
    // Every message typed appears once in the transcript; the oldest ones are no longer in the history.
    expect(users).toHaveLength(7);
    const numbered = users.filter((entry) => entry.kind === 'item' && entry.userTurn !== undefined);
    const turns = numbered.map((entry) => (entry.kind === 'item' ? entry.userTurn : undefined));
    expect(numbered.length).toBeGreaterThanOrEqual(3);
    expect(numbered.length).toBeLessThan(7);
    expect(turns).toEqual(turns.map((_, index) => index + 1));
    // The numbered ones are the newest messages, the last one included.
    expect(numbered.map(userText)).toEqual(users.slice(users.length - numbered.length).map(userText));
    // One past the last number is no user turn of the live history.
    await expect(cody.fork(conversation.id, { atUserTurn: numbered.length + 1 })).rejects.toMatchObject({
      kind: 'usage',
    });

    for (const entry of numbered) {
      if (entry.kind !== 'item' || entry.userTurn === undefined) continue;
      const fork = await cody.fork(conversation.id, { atUserTurn: entry.userTurn });
      const forked = (await cody.transcript(fork.id, { limit: 1000 })).entries;
      const kept = forked.map(userText).filter((text): text is string => text !== undefined);
      // Exactly the history through that message: it is the fork's last user message (the oldest kept
      // one may be cut in the middle by the compaction), and its number is the fork's count.
      expect(kept).toHaveLength(entry.userTurn);
      const last = kept.at(-1) ?? '';
      const shown = userText(entry) ?? '';
      expect(last.slice(0, 12)).toBe(shown.slice(0, 12));
      expect(last === shown || last.includes('tokens truncated')).toBe(true);
      // …and nothing of the turns after it: no later message, and the fork's numbers are 1..N again.
      const later = users.slice(users.indexOf(entry) + 1).map((user) => (userText(user) ?? '').slice(0, 12));
      for (const text of kept) expect(later).not.toContain(text.slice(0, 12));
      expect(
        forked.flatMap((item) =>
          item.kind === 'item' && item.userTurn !== undefined ? [item.userTurn] : [],
        ),
      ).toEqual(kept.map((_, index) => index + 1));
      await cody.delete(fork.id);
    }
  });
});
