/**
 * Issue 21, the REPL's commands: `/export` twice writes two files under $CODY_HOME/exports (none in the
 * work tree, no "unexpected error"), Tab completes slash-command arguments, and `/compact` leaves no bare
 * model line while `/status` counts "1 compaction".
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../e2e/harness.js';
import { startTmux, type TmuxSession } from './tmux.js';

describe('REPL commands (tmux)', () => {
  let harness: Harness;
  let tmux: TmuxSession | undefined;
  const say = async (term: TmuxSession, text: string, until: string | RegExp): Promise<string> => {
    await term.send(text, { literal: true });
    await term.send('Enter');
    const screen = await term.waitFor(until, 20_000);
    await term.waitFor(/\n› *\n*$/, 20_000);
    return screen;
  };
  beforeEach(async () => {
    harness = await createHarness({ chunkDelayMs: 30 });
    await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-4.1-mini' });
  });
  afterEach(async () => {
    await tmux?.kill();
    tmux = undefined;
    await harness.close();
  });

  it('/export twice, Tab on arguments, /compact then /status', async () => {
    const env: Record<string, string> = { ...harness.env, TERM: 'xterm-256color' };
    delete env.NO_COLOR;
    const term = await startTmux({ args: [], env, cwd: harness.home });
    tmux = term;
    await term.waitFor('›');
    await say(term, 'hello there', 'echo: hello there');

    const exports = join(harness.env.CODY_HOME ?? '', 'exports');
    await say(term, '/export md', /✓ Exported \(redacted\) to \S+\.md/);
    const second = await say(term, '/export md', /✓ Exported \(redacted\) to \S+-2\.md/);
    expect(second).not.toContain('unexpected error');
    expect(second).not.toContain('--debug');
    expect((await readdir(exports)).sort()).toEqual([
      expect.stringMatching(/^cody-[0-9a-f]{8}-2\.md$/),
      expect.stringMatching(/^cody-[0-9a-f]{8}\.md$/),
    ]);
    expect((await readdir(harness.home)).filter((name) => name.endsWith('.md'))).toEqual([]);
    // A FILE given is the person's choice: it goes where they said.
    await say(term, '/export md notes.md', '✓ Exported');
    expect(await readdir(harness.home)).toContain('notes.md');
    const exists = await say(term, '/export md notes.md', 'exists; give another file name');
    expect(exists).not.toContain('--debug');

    await term.send('/approval f', { literal: true });
    await term.send('Tab');
    await term.waitFor(/› \/approval full-auto *$/m);
    await term.send('C-u');
    await term.send('/export j', { literal: true });
    await term.send('Tab');
    await term.waitFor(/› \/export json *$/m);
    await term.send('C-u');
    await term.send('/model gpt-4.1-na', { literal: true });
    await term.send('Tab');
    await term.waitFor(/› \/model gpt-4\.1-nano *$/m);
    await term.send('C-u');

    await term.send('C-l');
    await say(term, `tell me more ${'about zebras '.repeat(60)}`, 'gpt-4.1-mini ·');
    harness.server.enqueue({ type: 'reply', text: 'Short summary.' });
    await say(term, '/compact', /Compact[^\n]*\n[\s\S]*›/);
    const screen = await say(term, '/status', /· 1 compaction ·/);
    expect(screen.split('\n').map((line) => line.trim())).not.toContain('gpt-4.1-mini');
    await term.send('C-d');
    expect(await term.waitForExit()).toBe(0);
  }, 90_000);
});
