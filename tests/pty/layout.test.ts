/**
 * One layout for every line Cody prints (issue 29), in a real terminal (tmux) at 40 columns against the
 * fake provider: the banner, a warning and the approval question are laid out on words with their
 * indent (no row wider than the terminal, no word cut at its edge), and a resize lays the approval block
 * out again at the new width, once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../e2e/harness.js';
import { startTmux, type TmuxSession } from './tmux.js';

/** Rows as tmux shows them; `-J` joins rows the terminal wrapped itself, so any wider than 40 were cut by it. */
const rows = (screen: string): string[] => screen.split('\n').map((row) => row.trimEnd());
const width = (row: string): number => [...row].length;

describe('the layout at 40 columns (tmux)', () => {
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

  it('lays out the banner, a warning and the approval choices on words, and again on a resize', async () => {
    const env: Record<string, string> = { ...harness.env, TERM: 'xterm-256color' };
    delete env.NO_COLOR;
    // A model that does not reason: /reasoning high then warns at the next turn.
    const term = await startTmux({
      args: ['--model', 'gpt-4.1-mini'],
      env,
      cwd: harness.home,
      columns: 40,
      rows: 40,
    });
    tmux = term;
    await term.waitFor('›');
    await term.send('/reasoning high', { literal: true });
    await term.send('Enter');
    harness.server.enqueue({
      type: 'reply',
      toolCalls: [{ name: 'shell', arguments: { command: 'touch x.txt' } }],
    });
    await term.send('go', { literal: true });
    await term.send('Enter');
    let screen = await term.waitFor('[Esc] stop the turn', 15_000);
    const shown = rows(screen);
    for (const row of shown) expect(width(row), screen).toBeLessThanOrEqual(40);
    // The banner's last words and the warning's config key are whole, on rows indented under their start.
    expect(
      shown.some((row) => /^ {2}.*\/help for commands$/.test(row)),
      screen,
    ).toBe(true);
    const key = shown.find((row) => /models\.\S+\.reasoning/.test(row));
    expect(key ?? screen, screen).toMatch(/^ {2}/);
    // Each choice whole on its row, under the question's indent.
    expect(shown).toContain('  [n] no, and tell the model why');
    // (`[a] always for: touch` fits after `[y]` at 40 columns since "always" offers the program.)
    const yes = shown.filter((row) => row.includes('[y] yes, once'));
    expect(yes, screen).toHaveLength(1);
    expect(yes[0]).toMatch(/^ {2}\[y\] yes, once(?: {3}\[a\] always for: touch)?$/);

    await term.resize(70, 40);
    screen = await term.waitFor(/\[y\] yes, once {3}\[a\] always for/, 15_000);
    const after = rows(screen);
    for (const row of after) expect(width(row), screen).toBeLessThanOrEqual(70);
    // Laid out again in place: the question once, at the new width.
    expect(
      after.filter((row) => row.includes('[y] yes, once')),
      screen,
    ).toHaveLength(1);
    expect(
      after.filter((row) => row.includes('Allow $ touch x.txt')),
      screen,
    ).toHaveLength(1);
    await term.send('Escape');
    await term.waitFor('→ stopped');
  });
});
