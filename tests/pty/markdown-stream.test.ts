/**
 * The line still streaming, in an 80-column terminal (tmux) against the fake provider pacing its chunks
 * (issue 29): read mid-reply, the screen shows no Markdown syntax (`**`, `[li`), and the open line is
 * wrapped on words by Cody (not cut mid-word by the terminal), with colour and under NO_COLOR. The screen
 * is captured with -J, so a row the terminal wrapped by itself would show as one long line.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../e2e/harness.js';
import { startTmux, type TmuxSession } from './tmux.js';

describe('the line still streaming, 80 columns (tmux)', () => {
  let harness: Harness;
  let tmux: TmuxSession | undefined;
  beforeEach(async () => {
    harness = await createHarness({ chunkDelayMs: 400 });
  });
  afterEach(async () => {
    await tmux?.kill();
    tmux = undefined;
    await harness.close();
  });

  it('shows no Markdown syntax and breaks no word mid-reply, with colour and without', async () => {
    for (const colour of [true, false]) {
      const env: Record<string, string> = { ...harness.env, TERM: 'xterm-256color' };
      if (colour) delete env.NO_COLOR;
      tmux = await startTmux({ args: [], env, cwd: harness.home, columns: 80, rows: 30 });
      await tmux.waitFor('›');
      harness.server.enqueue({
        type: 'reply',
        textDeltas: [
          'Here is **bold text that spans quite a few words** and then a [li',
          'nk](https://example.com) and more.\n\nIt keeps going and going and going and going and going and going and g',
          'oing and going until the paragraph ends, then it reflows.\n',
          'END-OF-REPLY\n',
        ],
      });
      await tmux.send('show me', { literal: true });
      await tmux.send('Enter');
      let screen = await tmux.waitFor('and then a');
      expect(screen).toContain('Here is bold text that spans quite a few words and then a');
      expect(screen).not.toMatch(/\*\*|\[li/);
      screen = await tmux.waitFor('It keeps');
      const rows = screen.split('\n');
      const open = rows.findIndex((row) => row.startsWith('It keeps'));
      // The open line so far: whole words only (never `g` of `going`), nothing cut onto a next row.
      const shown = (rows[open] ?? '').trimEnd();
      expect(shown).toMatch(/^It keeps going( and going)*( and)?$/);
      expect(rows[open + 1]?.trim()).toBe('');
      expect(screen).toContain('Here is bold text that spans quite a few words and then a link');
      screen = await tmux.waitFor('END-OF-REPLY');
      // Finished, the paragraph's rows start with what was shown while it streamed: nothing moved.
      const done = screen.split('\n').find((row) => row.startsWith('It keeps')) ?? '';
      expect(`${done} `.startsWith(`${shown} `)).toBe(true);
      expect(done.trimEnd()).toBe(
        'It keeps going and going and going and going and going and going and going and',
      );
      expect(screen).toContain(`${done}\ngoing until the paragraph ends, then it reflows.`);
      if (colour) expect(await tmux.styledScreen()).toContain('\u001b[1mbold text');
      await tmux.kill();
      tmux = undefined;
    }
  });
});
