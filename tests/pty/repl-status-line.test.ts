/**
 * Issue 31, a status line and notifications, in a real terminal (tmux): the person's `statusLine`
 * command draws the line under the prompt from the state JSON it reads, and draws it again after /model;
 * with `notifications: "bell"` an approval rings the bell (in the raw output) and is still answered.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../e2e/harness.js';
import { makeRepo } from '../e2e/tool-fixtures.js';
import { startTmux, type TmuxSession } from './tmux.js';

// Prints the model, approval policy and context % it was given, and something it must not pass on: a
// title-setting escape (shown visibly, never obeyed).
const SCRIPT = `let s = '';
process.stdin.on('data', (d) => (s += d)).on('end', () => {
  const j = JSON.parse(s);
  console.log('SL<' + j.model.id + '|' + j.approval_policy + '|' + j.context_percent + '%>\\u001b]0;pwned\\u0007');
});
`;

describe('the status line and notifications in the REPL (tmux)', () => {
  let harness: Harness;
  let tmux: TmuxSession | undefined;
  beforeEach(async () => {
    harness = await createHarness({ chunkDelayMs: 10 });
    await makeRepo(harness.home);
  });
  afterEach(async () => {
    await tmux?.kill();
    tmux = undefined;
    await harness.close();
  });

  it('draws the command’s line, redraws it after /model, and rings at an approval', async () => {
    const script = join(harness.home, 'status.cjs');
    await writeFile(script, SCRIPT);
    await harness.writeConfig({
      provider: 'openai',
      api: 'chat',
      model: 'gpt-4.1-mini',
      statusLine: { type: 'command', command: `'${process.execPath}' '${script}'` },
      notifications: 'bell',
    });
    const env: Record<string, string> = { ...harness.env, TERM: 'xterm-256color' };
    tmux = await startTmux({ args: [], env, cwd: harness.home, rows: 40, recordOutput: true });
    const term = tmux;
    let screen = await term.waitFor('SL<gpt-4.1-mini|ask|0%>', 15_000);
    expect(screen).toContain('SL<gpt-4.1-mini|ask|0%>^[]0;pwned^G');

    await term.send('/model gpt-4.1', { literal: true });
    await term.send('Enter');
    screen = await term.waitFor('SL<gpt-4.1|ask|0%>', 15_000);
    expect(screen).toContain('✓ Now openai');

    const before = (await term.output()).split('\u0007').length;
    harness.server.enqueue(
      {
        type: 'reply',
        text: 'running it\n',
        toolCalls: [{ name: 'shell', arguments: { command: 'touch made.txt' } }],
      },
      { type: 'reply', text: 'made it\n' },
    );
    await term.send('go', { literal: true });
    await term.send('Enter');
    await term.waitFor('[y] yes, once', 15_000);
    // The bell rang for the question (the escape printed visibly above carries no live BEL).
    expect((await term.output()).split('\u0007').length).toBe(before + 1);
    await new Promise((resolve) => setTimeout(resolve, 450));
    await term.send('y', { literal: true });
    await term.waitFor('made it', 15_000);
    await readFile(join(harness.home, 'made.txt'));
  });
});
