/**
 * Forking at a transcript entry (issue 23): any typed user message, also one two compactions summarised
 * away, forks by its cursor (`atEntry`) into the history as it stood when that message's turn ended.
 * The oracle is independent of the code under test: the parent's rollout cut right before the next typed
 * user message, read back by the resume reader. Through createCody with a scripted model.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cody } from '../../../../src/core/engine/cody.js';
import { readRolloutForResume } from '../../../../src/core/rollout/reader.js';
import { type Entry, question, tinyWindowCody, userMessageText } from './tiny-window.js';

/** The number of the question a user entry holds (undefined for every other entry). */
function questionOf(entry: Entry): number | undefined {
  const match = /^question (\d+):/.exec(userMessageText(entry) ?? '');
  return match ? Number(match[1]) : undefined;
}

describe('fork at a transcript entry', () => {
  let home: string;
  let cody: Cody;
  const rollout = (id: string): string => join(home, 'conversations', `${id}.jsonl`);

  let close: () => Promise<void>;
  beforeEach(async () => {
    ({ home, cody, close } = await tinyWindowCody('cody-fork-entry-'));
  });
  afterEach(() => close());

  async function run(events: AsyncIterable<{ type: string }>): Promise<void> {
    for await (const event of events) void event;
  }

  /** Seven questions with a compaction after the 4th and the 6th. */
  async function conversationWithTwoCompactions(): Promise<{ id: string; entries: Entry[] }> {
    const conversation = await cody.create();
    for (const n of [1, 2, 3, 4]) await run(conversation.submit(question(n)));
    await run(conversation.compact());
    for (const n of [5, 6]) await run(conversation.submit(question(n)));
    await run(conversation.compact());
    await run(conversation.submit(question(7)));
    const { entries } = await cody.transcript(conversation.id, { limit: 1000 });
    expect(entries.filter((entry) => entry.kind === 'compacted')).toHaveLength(2);
    return { id: conversation.id, entries };
  }

  /** The oracle: the parent's rollout cut before question `next`'s line, resumed from a copy. */
  async function historyBefore(parentId: string, next: number): Promise<unknown[]> {
    const lines = (await readFile(rollout(parentId), 'utf8')).split('\n').filter((line) => line !== '');
    const at = lines.findIndex(
      (line) => line.includes(`"question ${next}:`) && line.includes('"response_item"'),
    );
    const cut = at < 0 ? lines : lines.slice(0, at);
    const copy = join(home, 'cut.jsonl');
    await writeFile(copy, `${cut.join('\n')}\n`);
    return (await readRolloutForResume(copy)).history;
  }

  async function forkHistory(id: string): Promise<unknown[]> {
    return (await readRolloutForResume(rollout(id))).history;
  }

  async function forkedAt(id: string): Promise<unknown> {
    const first = (await readFile(rollout(id), 'utf8')).split('\n')[0] ?? '{}';
    return (JSON.parse(first) as { payload: Record<string, unknown> }).payload.forked_at_message;
  }

  it('forks at a compacted-away message into the history as it stood when its turn ended', async () => {
    const { id, entries } = await conversationWithTwoCompactions();
    const away = entries.filter(
      (entry) => questionOf(entry) !== undefined && entry.kind === 'item' && entry.userTurn === undefined,
    );
    expect(away.length).toBeGreaterThanOrEqual(2);
    for (const entry of away) {
      const n = questionOf(entry)!;
      const fork = await cody.fork(id, { atEntry: entry.cursor });
      const history = await forkHistory(fork.id);
      expect(history).toEqual(await historyBefore(id, n + 1));
      // The message is in it, and nothing typed after it.
      const text = JSON.stringify(history);
      expect(text).toContain(`question ${n}:`);
      expect(text).not.toContain(`question ${n + 1}:`);
      expect(await forkedAt(fork.id)).toMatch(new RegExp(`^question ${n + 1}:`));
      const forkEntries = (await cody.transcript(fork.id, { limit: 1000 })).entries;
      expect((await cody.get(fork.id)).parentId).toBe(id);
      expect(
        forkEntries
          .map(questionOf)
          .filter((q) => q !== undefined)
          .at(-1),
      ).toBe(n);
      await cody.delete(fork.id);
    }
  });

  it('gives the same fork as atUserTurn for a message still in the live history', async () => {
    const { id, entries } = await conversationWithTwoCompactions();
    const live = entries.filter((entry) => entry.kind === 'item' && entry.userTurn !== undefined);
    expect(live.length).toBeGreaterThanOrEqual(2);
    for (const entry of live) {
      if (entry.kind !== 'item' || entry.userTurn === undefined) continue;
      const byEntry = await cody.fork(id, { atEntry: entry.cursor });
      const byTurn = await cody.fork(id, { atUserTurn: entry.userTurn });
      expect(await forkHistory(byEntry.id)).toEqual(await forkHistory(byTurn.id));
      expect(await forkedAt(byEntry.id)).toEqual(await forkedAt(byTurn.id));
      // …and it holds that message as its last user turn.
      const kept = (await cody.transcript(byEntry.id, { limit: 1000 })).entries.map(questionOf);
      expect(kept.filter((q) => q !== undefined).at(-1)).toBe(questionOf(entry));
    }
  });

  it('refuses a cursor that is not a typed user message, and both options at once', async () => {
    const { id, entries } = await conversationWithTwoCompactions();
    const reply = entries.find(
      (entry) => entry.kind === 'item' && entry.item.type === 'message' && entry.item.role === 'assistant',
    )!;
    const compacted = entries.find((entry) => entry.kind === 'compacted')!;
    const user = entries.find((entry) => questionOf(entry) !== undefined)!;
    for (const atEntry of [
      '0',
      '-1',
      'abc',
      '1.5',
      String(entries.length + 1),
      reply.cursor,
      compacted.cursor,
    ]) {
      await expect(cody.fork(id, { atEntry })).rejects.toMatchObject({
        kind: 'usage',
        message: expect.stringMatching(/^Cannot fork at entry '.*': [^\n]+$/),
      });
    }
    await expect(cody.fork(id, { atEntry: user.cursor, atUserTurn: 1 })).rejects.toMatchObject({
      kind: 'usage',
    });
    // Nothing was created by the refusals.
    expect((await cody.list()).length).toBe(1);
  });
});
