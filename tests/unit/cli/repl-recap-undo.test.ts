/** The REPL recap marks turns a later undo took back (`thread_rolled_back`), and only those. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { printRecap, tailMessages } from '../../../src/cli/repl-recap.js';

const message = (role: string, text: string): string =>
  JSON.stringify({
    type: 'response_item',
    payload: {
      type: 'message',
      role,
      content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }],
    },
  });
const rolledBack = (turns: number): string =>
  JSON.stringify({ type: 'event_msg', payload: { type: 'thread_rolled_back', num_turns: turns } });

describe('recap of undone turns', () => {
  it('marks the last num_turns turns not yet undone, and shows ↶ undone', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'cody-recap-'));
    try {
      const file = join(directory, 'r.jsonl');
      const lines = [
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
        tailMessages(file).map((entry) => `${entry.text}${entry.undone === true ? ' (undone)' : ''}`),
      ).toEqual(['one', 'did one', 'two (undone)', 'did two (undone)', 'three', 'did three']);
      await writeFile(file, `${[...lines, rolledBack(1)].join('\n')}\n`);
      let shown = '';
      const io = { stderr: { write: (text: string) => (shown += text) } };
      printRecap(io as unknown as Parameters<typeof printRecap>[0], file, new Chalk({ level: 0 }));
      expect(shown).toContain('› three   ↶ undone');
      expect(shown).toContain('› two   ↶ undone');
      expect(shown).toContain('  did three\n');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
