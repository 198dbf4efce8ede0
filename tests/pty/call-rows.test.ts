/**
 * Approvals only for calls that can run, and call rows without noise (issue 29), in a real terminal
 * (tmux) against the fake provider with a per-chunk delay: the screen is read at the question, mid-reply
 * and right after a turn, at 40, 80 and 120 columns, with colour and with NO_COLOR.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../e2e/harness.js';
import { makeRepo } from '../e2e/tool-fixtures.js';
import { startTmux, type TmuxSession } from './tmux.js';

/** Past the ~300 ms after a question is drawn during which keys are ignored. */
const pastGuard = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 450));

describe('call rows and approvals in a terminal (tmux)', () => {
  let harness: Harness;
  let tmux: TmuxSession | undefined;
  const start = async (columns: number, color: boolean): Promise<TmuxSession> => {
    const env: Record<string, string> = { ...harness.env, TERM: 'xterm-256color' };
    if (color) delete env.NO_COLOR;
    else env.NO_COLOR = '1';
    tmux = await startTmux({ args: [], env, cwd: harness.home, columns, rows: 50 });
    await tmux.waitFor('›');
    return tmux;
  };
  const say = async (term: TmuxSession, text: string): Promise<void> => {
    await term.send(text, { literal: true });
    await term.send('Enter');
  };
  beforeEach(async () => {
    harness = await createHarness({ chunkDelayMs: 60 });
    await makeRepo(harness.home);
    await writeFile(join(harness.home, 'a.txt'), 'one\ntwo\n');
  });
  afterEach(async () => {
    await tmux?.kill();
    tmux = undefined;
    await harness.close();
  });

  it('an edit that cannot apply is not asked about; Esc at a question leaves one row, no "partial reply"', async () => {
    const term = await start(40, false);
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [
          { name: 'edit_file', arguments: { path: 'a.txt', old_text: 'zzz', new_text: 'y' } },
          { name: 'web_fetch', arguments: { url: 'http://127.0.0.1:9/x' } },
        ],
      },
      { type: 'reply', toolCalls: [{ name: 'shell', arguments: { command: 'npm --version' } }] },
    );
    await say(term, 'go');
    let screen = await term.waitFor('[y] yes');
    // The question is the shell command's: neither the edit nor the fetch was asked about.
    expect(screen).not.toMatch(/Allow edit|Allow web_fetch/);
    expect(screen.replace(/\s+/g, ' ')).toMatch(/✗ edit a\.txt — not run: old_text does not occur in a\.txt/);
    expect(screen.replace(/\s+/g, ' ')).toMatch(/127\.0\.0\.1 is a loopback address/);
    await pastGuard();
    await term.send('Escape');
    screen = await term.waitFor('⏹ Interrupted');
    await new Promise((resolve) => setTimeout(resolve, 300));
    screen = await term.screen();
    expect(screen.match(/\$ npm --version/g)).toHaveLength(2); // the question's title, and one row
    expect(screen).not.toContain('stopped · 0.0s');
    expect(screen).not.toContain('partial reply');
    expect(await readFile(join(harness.home, 'a.txt'), 'utf8')).toBe('one\ntwo\n');
  });

  it('a message sent mid-reply shows as queued at once; keys typed as the turn ends reach the prompt', async () => {
    const term = await start(120, true);
    harness.server.enqueue(
      { type: 'reply', text: `${'streaming words '.repeat(24)}the end\n` },
      { type: 'reply', text: 'second answer done\n' },
    );
    await say(term, 'long one');
    await term.waitFor('streaming words streaming');
    await say(term, 'next question');
    // Mid-reply: queued at once, before the reply's end.
    const screen = await term.waitFor('⏎ queued: next question', 3_000);
    expect(screen).not.toContain('the end');
    await term.waitFor('second answer done', 20_000);
    // Typed as soon as the turn's reply is over: nothing listens until the prompt is drawn.
    await term.send('kept keys', { literal: true });
    await term.waitFor(/› kept keys/, 10_000);
  });

  it('!echo hi prints its output once, also when it is handed to the model', async () => {
    const term = await start(80, true);
    harness.server.enqueue({ type: 'reply', text: 'noted\n' });
    await say(term, '!echo hi');
    await term.waitFor('[y/N]');
    await term.send('y', { literal: true });
    const screen = await term.waitFor('noted', 20_000);
    expect(screen.match(/^hi$/gm)).toHaveLength(1);
    expect(screen).toContain('› !echo hi (its output sent to the model)');
  });
});
