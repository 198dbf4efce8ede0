/**
 * `/` then Tab lists every match, in columns that fit the terminal (issue 29): none cut at the edge,
 * none left out (`/plan /clear /id /exit /init` were).
 */
import { describe, expect, it } from 'vitest';
import { completeInput } from '../../../../src/cli/repl-input.js';
import { UserCommands } from '../../../../src/cli/repl-prompts.js';
import { completionRows } from '../../../../src/cli/tty/completion-list.js';
import { LineEditor } from '../../../../src/cli/tty/line-editor.js';

// eslint-disable-next-line no-control-regex
const plain = (text: string): string => text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');

describe('the Tab listing', () => {
  it.each([40, 80, 120])(
    '"/" then Tab at %i columns shows every slash command, no row too wide',
    async (columns) => {
      // The built-in /init comes with your commands (none here: neither folder exists).
      const own = new UserCommands('/nonexistent-cody-home', '/nonexistent-project');
      await own.refresh();
      let last = '';
      const editor = new LineEditor(
        { write: (text) => (last = text), columns: () => columns },
        {
          prompt: '› ',
          promptWidth: 2,
          history: [],
          complete: (buffer, cursor) => completeInput(buffer, cursor, '/', own.entries()),
        },
      );
      editor.handle({ name: 'text', text: '/' });
      editor.handle({ name: 'tab' });
      // The prompt's row, then the listing's rows; the drawing ends with a move back to the cursor.
      const rows = plain(last)
        .split('\r\n')
        .slice(1)
        .map((row) => row.split('\r')[0] ?? '');
      const names = completeInput('/', 1, '/', own.entries())?.options ?? [];
      expect(names).toEqual(expect.arrayContaining(['/plan', '/clear', '/id', '/exit', '/init']));
      const shown = rows.flatMap((row) => row.trim().split(/\s+/));
      expect(shown.sort()).toEqual([...names].sort());
      for (const row of rows) expect([...row].length).toBeLessThan(columns);
      expect(rows.join('\n')).not.toContain('…');
      // The next key takes the listing away.
      editor.handle({ name: 'text', text: 'h' });
      expect(plain(last)).not.toContain('/clear');
    },
  );

  it('sets the matches out in columns, read down then across; a wide one is shortened', () => {
    expect(completionRows(['/a', '/bb', '/ccc', '/d', '/e'], 17)).toEqual(['/a    /ccc  /e', '/bb   /d']);
    expect(completionRows(['/one', '/two'], 3)).toEqual(['/…', '/…']);
    const many = Array.from({ length: 205 }, (_, index) => `f${index}`);
    expect(completionRows(many, 80).at(-1)).toBe('… 5 more: type more to narrow');
  });
});
