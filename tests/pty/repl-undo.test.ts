/**
 * `/undo` in the REPL, in a real terminal (tmux), on the scenario of issue 19: the model edits a.txt,
 * the person then edits a.txt and app.js by hand; `/undo` keeps both (saying so for a.txt), takes back
 * a file the turn created, and the screen marks the turn `↶ undone`; `/undo --force` asks first.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../e2e/harness.js';
import { makeRepo } from '../e2e/tool-fixtures.js';
import { startTmux, type TmuxSession } from './tmux.js';

const APP = 'console.log("app");\n';

describe('/undo in the REPL (tmux)', () => {
  let harness: Harness;
  let tmux: TmuxSession | undefined;
  const read = (name: string): Promise<string> => readFile(join(harness.home, name), 'utf8');
  beforeEach(async () => {
    harness = await createHarness();
    await makeRepo(harness.home);
    await writeFile(join(harness.home, 'app.js'), APP);
    execFileSync('git', ['add', 'app.js'], { cwd: harness.home });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'app'], {
      cwd: harness.home,
    });
  });
  afterEach(async () => {
    await tmux?.kill();
    tmux = undefined;
    await harness.close();
  });

  it('keeps the files the person changed since the turn, lists them, and marks the turn ↶ undone', async () => {
    const env: Record<string, string> = { ...harness.env, TERM: 'xterm-256color' };
    tmux = await startTmux({ args: ['--approval', 'full-auto'], env, cwd: harness.home });
    const term = tmux;
    await term.waitFor('›');
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [
          {
            id: 'call_1',
            name: 'edit_file',
            arguments: { path: 'a.txt', old_text: 'alpha', new_text: 'ALPHA' },
          },
          { id: 'call_2', name: 'shell', arguments: { command: "printf 'made\\n' > made.txt" } },
        ],
      },
      { type: 'reply', text: 'Edited it.\n' },
    );
    await term.send('edit a please', { literal: true });
    await term.send('Enter');
    await term.waitFor('2 files changed, +2 −1', 20_000);
    expect(await read('a.txt')).toBe('ALPHA\nbeta\n');
    // The person's own edits, after the turn.
    await writeFile(join(harness.home, 'a.txt'), 'ALPHA\nbeta\nmy line\n');
    await writeFile(join(harness.home, 'app.js'), `${APP}// mine\n`);
    await writeFile(join(harness.home, 'notes.txt'), 'my notes\n');

    await term.send('/undo', { literal: true });
    await term.send('Enter');
    const screen = await term.waitFor('kept (changed since the turn): a.txt', 15_000);
    expect(screen).toContain('turn 1 ↶ undone');
    expect(screen).toContain('removed made.txt');
    expect(screen).not.toContain('app.js');
    // The hint names the REPL's command, not the CLI's.
    expect(screen).toContain('(/undo --force restores kept files too)');
    expect(screen).not.toContain('cody undo');
    expect(await read('a.txt')).toBe('ALPHA\nbeta\nmy line\n');
    expect(await read('app.js')).toBe(`${APP}// mine\n`);
    expect(await read('notes.txt')).toBe('my notes\n');
    expect(existsSync(join(harness.home, 'made.txt'))).toBe(false);
  });

  it('/undo --force asks before overwriting a file changed since the turn; n leaves it', async () => {
    const env: Record<string, string> = { ...harness.env, TERM: 'xterm-256color' };
    tmux = await startTmux({ args: ['--approval', 'full-auto'], env, cwd: harness.home });
    const term = tmux;
    await term.waitFor('›');
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [
          {
            id: 'call_1',
            name: 'edit_file',
            arguments: { path: 'a.txt', old_text: 'alpha', new_text: 'ALPHA' },
          },
        ],
      },
      { type: 'reply', text: 'Edited it.\n' },
    );
    await term.send('edit a please', { literal: true });
    await term.send('Enter');
    await term.waitFor('1 file changed, +1 −1', 20_000);
    await writeFile(join(harness.home, 'a.txt'), 'ALPHA\nbeta\nmy line\n');

    await term.send('/undo --force', { literal: true });
    await term.send('Enter');
    await term.waitFor('Overwrite your changes since the turn to a.txt? [y/N]', 15_000);
    await term.send('n', { literal: true });
    await term.waitFor('Not undone: nothing was changed.');
    expect(await read('a.txt')).toBe('ALPHA\nbeta\nmy line\n');

    await term.send('/undo --force', { literal: true });
    await term.send('Enter');
    await term.waitFor(/Overwrite[\s\S]*Overwrite your changes since the turn to a\.txt\? \[y\/N\]/, 15_000);
    await term.send('y', { literal: true });
    await term.waitFor('restored a.txt (overwriting its change since the turn)', 15_000);
    expect(await read('a.txt')).toBe('alpha\nbeta\n');
  });
});
