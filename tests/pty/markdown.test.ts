/**
 * Markdown in a 60-column terminal (tmux), against the fake provider: a long list item wraps on a word
 * boundary with its continuation indented, and a table is fitted to the width with its columns aligned.
 * The screen is captured with -J (soft-wrapped rows joined), so a line the terminal wrapped by itself
 * would show as one long line.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../e2e/harness.js';
import { displayWidth } from '../../src/cli/markdown-text.js';
import { startTmux, type TmuxSession } from './tmux.js';

describe('Markdown in a 60-column terminal (tmux)', () => {
  let harness: Harness;
  let tmux: TmuxSession | undefined;
  beforeEach(async () => {
    harness = await createHarness({ chunkDelayMs: 20 });
  });
  afterEach(async () => {
    await tmux?.kill();
    tmux = undefined;
    await harness.close();
  });

  it('wraps a list item on word boundaries and fits a table', async () => {
    const env: Record<string, string> = { ...harness.env, TERM: 'xterm-256color' };
    delete env.NO_COLOR;
    tmux = await startTmux({ args: [], env, cwd: harness.home, columns: 60, rows: 40 });
    await tmux.waitFor('›');
    harness.server.enqueue({
      type: 'reply',
      text:
        'Some intro with **bold**, plus a [link](https://example.com).\n\n' +
        '- This list item is long enough that it has to **wrap nicely** at sixty columns and keep its indent.\n\n' +
        '| Option | Meaning | Default |\n|---|---|---|\n' +
        '| `--approval` | how tool calls are approved before they run on your machine | ask |\n' +
        '| `--model` | the model for this one conversation only | from config.json |\n\n' +
        'END-OF-REPLY\n',
    });
    await tmux.send('show me', { literal: true });
    await tmux.send('Enter');
    await tmux.waitFor('END-OF-REPLY');
    const lines = (await tmux.screen()).split('\n');
    // The list item: two rows, split between words, the second indented under the text.
    const item = lines.findIndex((line) => line.startsWith('• This list item'));
    expect(lines[item]).toBe('• This list item is long enough that it has to wrap nicely');
    expect(lines[item + 1]).toBe('  at sixty columns and keep its indent.');
    // The table: every row within 60 columns, the separators aligned, cells wrapped inside their column.
    const table = lines.filter((line) => line.includes('│') || line.includes('┼'));
    expect(table.length).toBeGreaterThan(4);
    for (const line of table) expect(displayWidth(line.trimEnd())).toBeLessThanOrEqual(60);
    const columns = new Set(table.filter((line) => line.includes('│')).map((line) => line.indexOf('│')));
    expect(columns.size).toBe(1);
    expect(lines.find((line) => line.startsWith('Option'))).toMatch(/^Option\s+│\s+Meaning\s+│\s+Default/);
    // Bold and the link are styled with whole escapes (no stray `[`, no `ESC 1`).
    const styled = await tmux.styledScreen();
    const whole =
      // eslint-disable-next-line no-control-regex
      /Some intro with \u001b\[1mbold\u001b\[0m(\u001b\[39m\u001b\[49m)?, plus a link \(\u001b\[4mhttps:\/\/example\.com/;
    expect(styled).toMatch(whole);
    expect(lines.find((line) => line.startsWith('Some intro'))).toBe(
      'Some intro with bold, plus a link (https://example.com).',
    );
  });
});
