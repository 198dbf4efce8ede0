/** The REPL recap marks turns a later undo took back (`thread_rolled_back`), and only those. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { printRecap, tailMessages } from '../../../src/cli/repl-recap.js';
import { RolloutStore } from '../../../src/core/rollout/store.js';
import { recapMessages } from '../../../src/core/rollout/transcript.js';

const ID = '01a20573-a5ca-7225-b716-11f3eb52db29';
const TIMESTAMP = '2026-01-01T00:00:00.000Z';
const meta = JSON.stringify({
  timestamp: TIMESTAMP,
  type: 'session_meta',
  payload: { id: ID, timestamp: TIMESTAMP, provider: 'openai', api: 'openai-responses', model: 'gpt-4.1' },
});

const message = (role: string, text: string): string =>
  JSON.stringify({
    timestamp: TIMESTAMP,
    type: 'response_item',
    payload: {
      type: 'message',
      role,
      content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }],
    },
  });
const rolledBack = (turns: number): string =>
  JSON.stringify({
    timestamp: TIMESTAMP,
    type: 'event_msg',
    payload: { type: 'thread_rolled_back', num_turns: turns },
  });

describe('recap of undone turns', () => {
  it('marks the last num_turns turns not yet undone, and shows ↶ undone', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'cody-recap-'));
    try {
      const file = join(directory, `${ID}.jsonl`);
      const store = new RolloutStore(directory);
      // What Cody.recap reads: the store's transcript of the rollout's tail.
      const manager = { recap: async (id: string) => recapMessages(await store.recentTranscript(id)) };
      const lines = [
        meta,
        message('user', 'one'),
        message('assistant', 'did one'),
        message('user', 'two'),
        message('assistant', 'did two'),
        rolledBack(1),
        message('user', 'three'),
        message('assistant', 'did three'),
      ];
      await writeFile(file, `${lines.join('\n')}\n`);
      expect(
        (await tailMessages(manager, ID)).map(
          (entry) => `${entry.text}${entry.undone === true ? ' (undone)' : ''}`,
        ),
      ).toEqual(['one', 'did one', 'two (undone)', 'did two (undone)', 'three', 'did three']);
      await writeFile(file, `${[...lines, rolledBack(1)].join('\n')}\n`);
      let shown = '';
      const io = { stderr: { write: (text: string) => (shown += text) } };
      await printRecap(
        io as unknown as Parameters<typeof printRecap>[0],
        manager,
        ID,
        new Chalk({ level: 0 }),
      );
      expect(shown).toContain('› three   ↶ undone');
      expect(shown).toContain('› two   ↶ undone');
      expect(shown).toContain('  did three\n');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
