/**
 * The transcript's `userTurn` (live-user-turns.ts) against the history resume rebuilds, which is what a
 * fork counts: after a compaction with a replacement history (the newest messages kept), one without
 * (older files: every typed message kept), and undos, the numbered messages are exactly the live
 * history's typed user messages, in order.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUMMARY_PREFIX } from '../../../../src/core/rollout/summary-prefix.js';
import { isTypedUserMessage, partsText } from '../../../../src/core/rollout/definitions.js';
import { readRolloutForResume } from '../../../../src/core/rollout/reader.js';
import { readTranscript } from '../../../../src/core/rollout/transcript.js';
import { item, line, metaLine, turn } from './rollout-lines.js';

const ID = '01a20573-a5ca-7225-b716-11f3eb52db30';
const meta = metaLine(ID);
const message = (role: string, text: string): string => line('response_item', item(role, text));
const summary = item('user', `${SUMMARY_PREFIX}\nS`);
const compacted = (kept: string[] | undefined): string =>
  line('compacted', {
    message: 'S',
    ...(kept
      ? {
          replacement_history: [
            item('developer', 'rules'),
            ...kept.map((text) => item('user', text)),
            summary,
          ],
        }
      : {}),
  });
const undo = (turns: number): string => line('event_msg', { type: 'thread_rolled_back', num_turns: turns });

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'cody-user-turns-'));
});
afterAll(async () => rm(directory, { recursive: true, force: true }));

/** Each numbered message's text by its number, and the live history's typed messages in order. */
async function both(lines: string[]): Promise<{ numbered: string[]; live: string[] }> {
  const file = join(directory, `${ID}.jsonl`);
  await writeFile(file, `${[meta, ...lines].join('\n')}\n`);
  const numbered: string[] = [];
  for (const entry of (await readTranscript(file)).entries) {
    if (entry.kind !== 'item' || entry.userTurn === undefined || entry.item.type !== 'message') continue;
    expect(entry.userTurn).toBe(numbered.length + 1);
    numbered.push(partsText(entry.item.content, ''));
  }
  const { history } = await readRolloutForResume(file);
  const live = history.flatMap((entry) =>
    entry.type === 'message' && isTypedUserMessage(entry) ? [partsText(entry.content, '')] : [],
  );
  return { numbered, live };
}

describe('user-turn numbers in the transcript', () => {
  it('without compaction: every typed message, 1..N', async () => {
    const { numbered, live } = await both([
      ...turn('a'),
      ...turn('b'),
      message('user', '<environment_context>x</environment_context>'),
      ...turn('c'),
    ]);
    expect(numbered).toEqual(['a', 'b', 'c']);
    expect(live).toEqual(numbered);
  });

  it('after a compaction that kept the newest two, then more turns and a second compaction', async () => {
    const { numbered, live } = await both([
      ...turn('a'),
      ...turn('b'),
      ...turn('c'),
      compacted(['b', 'c']),
      ...turn('d'),
      compacted(['c', 'd']),
      ...turn('e'),
    ]);
    expect(numbered).toEqual(['c', 'd', 'e']);
    expect(live).toEqual(numbered);
  });

  it('after a compaction of an older file (no replacement history: every typed message kept)', async () => {
    const { numbered, live } = await both([...turn('a'), ...turn('b'), compacted(undefined), ...turn('c')]);
    expect(numbered).toEqual(['a', 'b', 'c']);
    expect(live).toEqual(numbered);
  });

  it('after undos, also of kept messages', async () => {
    const { numbered, live } = await both([
      ...turn('a'),
      ...turn('b'),
      ...turn('c'),
      compacted(['b', 'c']),
      ...turn('d'),
      undo(2),
      ...turn('e'),
    ]);
    expect(numbered).toEqual(['b', 'e']);
    expect(live).toEqual(numbered);
  });
});
