/**
 * The REPL's line editor in a real terminal (tmux) against the fake provider (issue 21, "a REPL with no
 * surprises"): Shift+Enter in the kitty and modifyOtherKeys encodings, the terminal modes entered and
 * left (also around Ctrl-Z), typed-ahead text echoed while a reply streams, long pastes collapsed,
 * Alt-d, the "Why not?" label, @missing files, the one-row Ctrl-R preview and @path completion.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../e2e/harness.js';
import { makeRepo } from '../e2e/tool-fixtures.js';
import { startTmux, type TmuxSession } from './tmux.js';

const run = promisify(execFile);

interface ChatBody {
  messages: Array<{ role: string; content: unknown }>;
}

const ENTER_KITTY = '\u001b[>1u';
const ENTER_MOK = '\u001b[>4;2m';
const LEAVE_KITTY = '\u001b[<u';
const LEAVE_MOK = '\u001b[>4;0m';

describe('REPL keys in a terminal (tmux)', () => {
  let harness: Harness;
  let tmux: TmuxSession | undefined;
  const start = async (args: string[] = [], reportAfter = false): Promise<TmuxSession> => {
    const env: Record<string, string> = { ...harness.env, TERM: 'xterm-256color' };
    delete env.NO_COLOR;
    tmux = await startTmux({ args, env, cwd: harness.home, reportAfter, recordOutput: true, rows: 50 });
    await tmux.waitFor('›');
    return tmux;
  };
  const lastUserText = (): string => {
    const body = harness.server.modelRequests('openai-chat').at(-1)?.body as ChatBody | undefined;
    const user = body?.messages.filter((message) => message.role === 'user').at(-1);
    return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content);
  };
  const waitForRequests = async (count: number): Promise<void> => {
    const deadline = Date.now() + 40_000;
    while (harness.server.modelRequests('openai-chat').length < count) {
      if (Date.now() > deadline)
        throw new Error(`only ${harness.server.modelRequests('openai-chat').length} requests`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  /** What cody wrote so far, once it contains `text` (tmux's pipe-pane delivers it a moment later). */
  const outputWith = async (term: TmuxSession, text: string, from = 0): Promise<string> => {
    const deadline = Date.now() + 10_000;
    let output = await term.output();
    while (Date.now() < deadline && !output.slice(from).includes(text)) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      output = await term.output();
    }
    return output;
  };
  const stty = async (term: TmuxSession): Promise<string> =>
    (await run('stty', ['-a', '-F', await term.tty()], { encoding: 'utf8' })).stdout;
  beforeEach(async () => {
    harness = await createHarness({ chunkDelayMs: 30 });
  });
  afterEach(async () => {
    await tmux?.kill();
    tmux = undefined;
    await harness.close();
  });

  it('inserts a newline for Shift+Enter in the kitty and modifyOtherKeys encodings, and restores the modes on exit', async () => {
    const term = await start([], true);
    expect(await outputWith(term, ENTER_MOK)).toContain(ENTER_KITTY);
    expect(await term.output()).toContain(ENTER_MOK);
    harness.server.enqueue({ type: 'reply', text: 'got it\n' });
    await term.send('one', { literal: true });
    await term.sendBytes('\u001b[13;2u'); // kitty Shift+Enter
    await term.send('two', { literal: true });
    await term.sendBytes('\u001b[27;2;13~'); // modifyOtherKeys Shift+Enter
    await term.send('three', { literal: true });
    await term.send('M-Enter'); // Alt+Enter
    await term.send('four', { literal: true });
    await term.send('C-j');
    await term.send('five', { literal: true });
    const screen = await term.waitFor(/› one\n\s+two\n\s+three\n\s+four\n\s+five/);
    expect(screen).not.toContain('13;2u');
    expect(harness.server.modelRequests('openai-chat')).toHaveLength(0);
    await term.sendBytes('\u001b[13u'); // Enter in the kitty encoding sends
    await term.waitFor(/got it\n.*% context.*\n› $/m);
    expect(lastUserText()).toBe('one\ntwo\nthree\nfour\nfive');
    // Ctrl-D in the kitty encoding leaves; the modes are left after the last time they were entered.
    await term.sendBytes('\u001b[100;5u');
    expect(await term.waitForExit()).toBe(0);
    const output = await outputWith(term, LEAVE_MOK, (await term.output()).lastIndexOf(ENTER_KITTY));
    const lastEnter = output.lastIndexOf(ENTER_KITTY);
    expect(output.indexOf(LEAVE_KITTY, lastEnter)).toBeGreaterThan(lastEnter);
    expect(output.indexOf(LEAVE_MOK, lastEnter)).toBeGreaterThan(lastEnter);
    const after = await term.waitFor(/EXIT=0[\s\S]*icanon/);
    expect(after).toMatch(/[^-]icanon/);
    expect(after).toMatch(/[^-]echo /);
  });

  it('Ctrl-Z gives the shell a cooked terminal without the modes; SIGCONT (fg) enters them again and redraws', async () => {
    const term = await start();
    await term.send('draft text', { literal: true });
    expect(await stty(term)).toMatch(/-icanon/);
    await term.send('C-z');
    const pid = await term.codyPid();
    const deadline = Date.now() + 10_000;
    let state = '';
    while (Date.now() < deadline && !state.startsWith('T')) {
      state = (await run('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' })).stdout.trim();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(state).toMatch(/^T/);
    expect(await stty(term)).toMatch(/[^-]icanon/);
    let output = await outputWith(term, LEAVE_MOK, (await term.output()).lastIndexOf(ENTER_KITTY));
    expect(output.lastIndexOf(LEAVE_KITTY)).toBeGreaterThan(output.lastIndexOf(ENTER_KITTY));
    const before = output.length;
    process.kill(pid, 'SIGCONT');
    await term.waitFor('draft text');
    output = await outputWith(term, ENTER_MOK, before);
    expect(output.slice(before)).toContain(ENTER_KITTY);
    expect(output.slice(before)).toContain(ENTER_MOK);
    expect(await stty(term)).toMatch(/-icanon/);
    harness.server.enqueue({ type: 'reply', text: 'resumed fine\n' });
    await term.send(' more', { literal: true });
    await term.send('Enter');
    await term.waitFor('resumed fine');
    expect(lastUserText()).toBe('draft text more');
  });

  it('echoes typed-ahead text, dimmed, under the reply while it streams', async () => {
    const term = await start();
    // Long enough (250 lines, 30 ms apart) that it is still streaming when the keys arrive, even under load.
    harness.server.enqueue({ type: 'reply', text: 'slow words here\n'.repeat(250) });
    await term.send('first', { literal: true });
    await term.send('Enter');
    await term.waitFor('slow words', 20_000);
    await term.send('next question', { literal: true });
    // Mid-reply (the reply has not ended: no status line yet), the echo is on screen, dimmed.
    let styled = '';
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !styled.includes('\u001b[2m› next question'))
      styled = await term.styledScreen();
    expect(styled).toContain('\u001b[2m› next question');
    expect(styled).not.toMatch(/gpt-4\.1-mini · \d+% context/);
    await term.send('Enter');
    await term.waitFor('queued: next question', 40_000);
    await waitForRequests(2);
    expect(lastUserText()).toBe('next question');
    // The echo never mixed with the reply, and no stale echo line stayed inside it.
    const final = await term.waitFor(/echo: next question/, 40_000);
    expect(final).not.toMatch(/slow words[^\n]*next question/);
    const lines = final.split('\n');
    const firstStatus = lines.findIndex((line) => /% context/.test(line));
    expect(lines.slice(0, firstStatus).filter((line) => line.trim() === '› next question')).toEqual([]);
  });

  it('shows a long paste as [Pasted text #1 +30 lines] and sends it whole', async () => {
    const term = await start();
    const paste = Array.from({ length: 30 }, (_, index) => `pasted line ${index + 1}`).join('\n');
    harness.server.enqueue({ type: 'reply', text: 'read it\n' });
    await term.send('look: ', { literal: true });
    await term.paste(paste);
    const screen = await term.waitFor('› look: [Pasted text #1 +30 lines]');
    expect(screen).not.toContain('pasted line 2');
    await term.send('Enter');
    await term.waitFor('read it');
    expect(lastUserText()).toBe(`look: ${paste}`);
  });

  it('deletes the next word with Alt-d (both encodings), and warns about an @mention of a missing file', async () => {
    const term = await start();
    harness.server.enqueue({ type: 'reply', text: 'fine\n' });
    await term.send('keep drop gone this @nope.txt', { literal: true });
    await term.send('Home');
    await term.send('M-f');
    await term.send('M-d');
    await term.sendBytes('\u001b[100;3u');
    await term.waitFor('› keep this @nope.txt');
    await term.send('Enter');
    const screen = await term.waitFor('fine');
    expect(screen).toMatch(/⚠ @nope\.txt: no such file here; sent as plain text/);
    expect(lastUserText()).toBe('keep this @nope.txt');
  });

  it('keeps the "Why not? (Enter to skip)" label while the reason is typed', async () => {
    await makeRepo(harness.home);
    const term = await start();
    harness.server.enqueue(
      { type: 'reply', toolCalls: [{ name: 'shell', arguments: { command: 'touch nope.txt' } }] },
      { type: 'reply', text: 'ok then\n' },
    );
    await term.send('go', { literal: true });
    await term.send('Enter');
    await term.waitFor('[y] yes, once');
    await new Promise((resolve) => setTimeout(resolve, 700)); // past the guard against typed-ahead keys
    await term.send('n', { literal: true });
    await term.waitFor('Why not?');
    await term.send('too risky', { literal: true });
    await term.waitFor('Why not? (Enter to skip) too risky');
    await term.send('Enter');
    await term.waitFor('ok then');
  });

  it('previews a 30-line history entry in Ctrl-R on one row with +29 lines', async () => {
    const entry = Array.from({ length: 30 }, (_, index) => `history line ${index + 1}`).join('\n');
    await mkdir(harness.env.CODY_HOME ?? '', { recursive: true });
    await writeFile(
      join(harness.env.CODY_HOME ?? '', 'history.jsonl'),
      `${JSON.stringify({ text: entry, conversationId: 'x', time: new Date().toISOString() })}\n`,
    );
    const term = await start();
    await term.send('C-r');
    await term.send('history', { literal: true });
    const screen = await term.waitFor('+29 lines');
    expect(screen).toMatch(/\(reverse-i-search\)`history': history line 1 \+29 lines/);
    expect(screen).not.toContain('history line 2');
  });

  it('colours /diff: added lines green, removed lines red', async () => {
    await makeRepo(harness.home);
    const term = await start(['--approval', 'full-auto']);
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [
          { name: 'edit_file', arguments: { path: 'a.txt', old_text: 'alpha', new_text: 'ALPHA' } },
        ],
      },
      { type: 'reply', text: 'Edited it.\n' },
    );
    await term.send('edit a', { literal: true });
    await term.send('Enter');
    await term.waitFor('Edited it.', 20_000);
    await term.waitFor(/% context[\s\S]*› $/m, 20_000);
    await term.send('/diff', { literal: true });
    await term.send('Enter');
    await term.waitFor('+ALPHA');
    const styled = await term.styledScreen();
    expect(styled).toContain('\u001b[32m+ALPHA');
    expect(styled).toContain('\u001b[31m-alpha');
  });

  it('completes @ paths with Tab', async () => {
    await writeFile(join(harness.home, 'notes-for-tab.txt'), 'hello\n');
    const term = await start();
    await term.send('read @notes-fo', { literal: true });
    await term.send('Tab');
    await term.waitFor('› read @notes-for-tab.txt');
  });
});
