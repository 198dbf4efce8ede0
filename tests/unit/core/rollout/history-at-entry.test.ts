/**
 * readHistoryAtEntry on hand-written rollouts: a message an undo took back is refused (not forked), a
 * compacted-away one gives the history as it stood before the next typed message, a live one its
 * user-turn number, and the last typed message (no next one) the whole history.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHistoryAtEntry } from '../../../../src/core/rollout/history-at-entry.js';
import { SUMMARY_PREFIX } from '../../../../src/core/rollout/summary-prefix.js';
import { readRolloutForResume } from '../../../../src/core/rollout/reader.js';
import { readTranscript } from '../../../../src/core/rollout/transcript.js';
import { item, line, metaLine, turn } from './rollout-lines.js';

const ID = '01a20573-a5ca-7225-b716-11f3eb52db31';
const meta = metaLine(ID);

let directory: string;
let file: string;
let cursorOf: (text: string) => string;
let lines: string[];
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'cody-history-at-entry-'));
  file = join(directory, `${ID}.jsonl`);
  // one, two (undone), three; a compaction keeping only "three"; four.
  lines = [
    meta,
    ...turn('one'),
    ...turn('two'),
    line('event_msg', { type: 'thread_rolled_back', num_turns: 1 }),
    ...turn('three'),
    line('compacted', {
      message: 'S',
      replacement_history: [item('user', 'three'), item('user', `${SUMMARY_PREFIX}\nS`)],
    }),
    ...turn('four'),
  ];
  await writeFile(file, `${lines.join('\n')}\n`);
  const { entries } = await readTranscript(file);
  cursorOf = (text) => {
    const index = entries.findIndex(
      (entry) => entry.kind === 'item' && JSON.stringify(entry.item) === JSON.stringify(item('user', text)),
    );
    expect(index).toBeGreaterThanOrEqual(0);
    return String(index + 1);
  };
});
afterAll(async () => rm(directory, { recursive: true, force: true }));

/** The resume of the file cut before line `index` (0-based, line 1 = meta). */
async function resumedBefore(index: number): Promise<unknown> {
  const cut = join(directory, 'cut.jsonl');
  await writeFile(cut, `${lines.slice(0, index).join('\n')}\n`);
  return (await readRolloutForResume(cut)).history;
}

describe('readHistoryAtEntry', () => {
  it('refuses a message an undo took back', async () => {
    await expect(readHistoryAtEntry(file, cursorOf('two'))).rejects.toMatchObject({
      kind: 'usage',
      message: expect.stringMatching(/undo took that message back/),
    });
  });

  it('replays a compacted-away message up to the next typed one (the undone one counts as next)', async () => {
    // "one" is dropped by the compaction; the next typed message after it is "two" (line 4).
    expect(await readHistoryAtEntry(file, cursorOf('one'))).toEqual({
      items: await resumedBefore(3),
      message: 'two',
    });
  });

  it('names a live message by its user turn, the last one included', async () => {
    expect(await readHistoryAtEntry(file, cursorOf('three'))).toEqual({ userTurn: 1 });
    expect(await readHistoryAtEntry(file, cursorOf('four'))).toEqual({ userTurn: 2 });
  });
});
