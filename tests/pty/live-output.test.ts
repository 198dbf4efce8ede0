/**
 * Live output in a real terminal (issue 21, "Live output"), against the fake provider with a delay
 * between chunks: the screen is read while the reply or the command streams, not only at the end.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../e2e/harness.js';
import { makeRepo } from '../e2e/tool-fixtures.js';
import { startTmux, type TmuxSession } from './tmux.js';

const CONFIG = {
  provider: 'openai',
  api: 'chat',
  model: 'gpt-4o-mini',
  approval: 'full-auto',
  sandbox: { enabled: false },
};

describe('live output in the REPL (tmux)', () => {
  let harness: Harness | undefined;
  let tmux: TmuxSession | undefined;
  const start = async (options: {
    delay: number;
    color: boolean;
    repo?: boolean;
    args?: string[];
  }): Promise<TmuxSession> => {
    harness = await createHarness({ chunkDelayMs: options.delay });
    if (options.repo === true) await makeRepo(harness.home);
    await harness.writeConfig(CONFIG);
    const env: Record<string, string> = { ...harness.env, TERM: 'xterm-256color' };
    if (options.color) delete env.NO_COLOR;
    else env.NO_COLOR = '1';
    tmux = await startTmux({ args: options.args ?? [], env, cwd: harness.home, rows: 40 });
    await tmux.waitFor('›');
    return tmux;
  };
  const say = async (term: TmuxSession, text: string): Promise<void> => {
    await term.send(text, { literal: true });
    await term.send('Enter');
  };
  afterEach(async () => {
    await tmux?.kill();
    tmux = undefined;
    await harness?.close();
    harness = undefined;
  });

  it('shows the open line as it arrives, renders it as Markdown once complete, and shows a last line with no newline', async () => {
    const term = await start({ delay: 250, color: true });
    harness?.server.enqueue({
      type: 'reply',
      textDeltas: [
        'First **bold** ',
        'line.\n',
        'Alpha bravo ',
        'charlie delta ',
        'echo foxtrot ',
        'Edited it.',
      ],
    });
    await say(term, 'go');
    // Mid-line: the open line's first words are on screen before the line (or the reply) is complete.
    const mid = await term.waitFor('Alpha bravo');
    expect(mid).not.toContain('foxtrot');
    expect(mid).not.toMatch(/Thinking…|Working…/);
    // The completed first line was re-rendered as Markdown: bold, without its asterisks.
    expect(mid).toContain('First bold line.');
    expect(await term.styledScreen()).toContain('\u001b[1mbold');
    const after = await term.waitFor('charlie delta');
    expect(after).not.toContain('foxtrot');
    const done = await term.waitFor(/^gpt-4o-mini · /m, 15_000);
    expect(done).toMatch(/^Alpha bravo charlie delta echo foxtrot Edited it\.$/m);
    expect(done).not.toMatch(/Thinking…|Working…/);
  });

  it('styles bold across a soft line break on both lines, each shown as its words arrive', async () => {
    const term = await start({ delay: 150, color: true });
    harness?.server.enqueue({
      type: 'reply',
      textDeltas: ['Intro **bold', ' start\n', 'continued', ' here** plain', ' tail\n'],
    });
    await say(term, 'go');
    // The second line's first word is on screen (plain, as it arrives) before the line is complete.
    const mid = await term.waitFor('continued');
    expect(mid).not.toContain('tail');
    expect(mid).toMatch(/^Intro bold start$/m);
    await term.waitFor(/^gpt-4o-mini · /m, 15_000);
    // Bold from "bold" through "here" (tmux writes the run over the line end as one attribute).
    expect(await term.styledScreen()).toContain('Intro \u001b[1mbold start\ncontinued here\u001b[0m');
    expect(await term.screen()).not.toContain('**');
  });

  it('with NO_COLOR keeps the first chunk and leaves no spinner behind', async () => {
    const term = await start({ delay: 120, color: false });
    harness?.server.enqueue({ type: 'reply', textDeltas: ['ACK 1: ', 'hello ', 'there', '.'] });
    await say(term, 'go');
    const mid = await term.waitFor('hello');
    expect(mid).toContain('ACK 1: hello');
    const done = await term.waitFor(/^gpt-4o-mini · /m, 15_000);
    expect(done).toMatch(/^ACK 1: hello there\.$/m);
    expect(done).not.toMatch(/Thinking…|Working…/);
  });

  it('after an edit: the reply without newline is whole, the change line comes before the status line, nothing transient stays', async () => {
    const term = await start({ delay: 60, color: true, repo: true });
    harness?.server.enqueue(
      {
        type: 'reply',
        toolCalls: [{ name: 'write_file', arguments: { path: 'notes.md', content: '# Notes\nmore\n' } }],
      },
      { type: 'reply', textDeltas: ['Edited ', 'it.'] },
    );
    await say(term, 'edit');
    const done = await term.waitFor(/^gpt-4o-mini · /m, 15_000);
    expect(done).toMatch(/^Edited it\.$/m);
    const changed = done.search(/1 file changed/);
    expect(changed).toBeGreaterThan(0);
    expect(changed).toBeLessThan(done.search(/^gpt-4o-mini · /m));
    expect(done).not.toMatch(/Thinking…|Working…|running/);
  });

  it('a running command shows its last lines live with a timer; then its own output under the call line with exit code and time', async () => {
    const term = await start({ delay: 20, color: true, repo: true });
    const command = 'for i in 1 2 3 4 5 6 7 8; do echo tick$i; sleep 0.5; done; exit 2';
    harness?.server.enqueue(
      { type: 'reply', toolCalls: [{ name: 'shell', arguments: { command } }] },
      { type: 'reply', text: 'ran it\n' },
    );
    await say(term, 'run');
    const early = await term.waitFor('tick2', 15_000);
    expect(early).toMatch(/\$ for i in .*\d+s \(Esc to stop\)/);
    expect(early).not.toContain('tick4');
    // Folded to the last five lines while it runs, updated in place: once a sixth line is out, a settled
    // frame (five whole rows, read while the command still runs; on a loaded machine the newest may be
    // tick6, 7 or 8 by then, and a frame caught mid-redraw is read again) shows exactly the five newest.
    const late = await term.waitFor(/(?:│ tick\d\n\s*){4}│ tick[678]\n/, 15_000);
    expect(late).toContain('Esc to stop');
    const shown = [...late.matchAll(/│ tick(\d)/g)].map((match) => Number(match[1]));
    const newest = Math.max(...shown);
    expect(shown, late).toEqual([4, 3, 2, 1, 0].map((back) => newest - back));
    const done = await term.waitFor(/^gpt-4o-mini · /m, 15_000);
    expect(done).toMatch(/✗ \$ for i in .* ✗ exit 2 · \d+\.\ds/);
    expect(done).toContain('│ tick1');
    expect(done).not.toMatch(/Exit code|Wall time|Esc to stop|Working…/);
    expect(done.match(/\$ for i in/g)).toHaveLength(1);
  });

  it('parallel calls: each output block is under the call it belongs to', async () => {
    const term = await start({ delay: 20, color: true, repo: true });
    harness?.server.enqueue(
      {
        type: 'reply',
        toolCalls: [
          { name: 'read_file', arguments: { path: 'one.txt' } },
          { name: 'read_file', arguments: { path: 'two.txt' } },
        ],
      },
      { type: 'reply', text: 'read both\n' },
    );
    await writeFile(join(harness?.home ?? '', 'one.txt'), 'content of one\n');
    await writeFile(join(harness?.home ?? '', 'two.txt'), 'content of two\n');
    await say(term, 'read');
    const done = await term.waitFor(/^gpt-4o-mini · /m, 15_000);
    expect(done).toMatch(
      /read one\.txt +✓ [\d.]+s\n.*content of one[^\n]*\n⏺ read two\.txt +✓ [\d.]+s\n.*content of two/,
    );
  });

  it('cody chat with stderr to a file writes each command output line there as it comes', async () => {
    harness = await createHarness({ chunkDelayMs: 20 });
    await makeRepo(harness.home);
    await harness.writeConfig(CONFIG);
    const command = 'for i in 1 2 3 4 5 6; do echo tick$i; sleep 0.5; done; exit 2';
    harness.server.enqueue(
      { type: 'reply', toolCalls: [{ name: 'shell', arguments: { command } }] },
      { type: 'reply', text: 'ran it\n' },
    );
    const log = join(harness.home, 'stderr.log');
    const env: Record<string, string> = { ...harness.env, TERM: 'xterm-256color' };
    tmux = await startTmux({ args: ['chat', 'run'], env, cwd: harness.home, stderrTo: log });
    const deadline = Date.now() + 15_000;
    let seen = '';
    while (!seen.includes('tick2') && Date.now() < deadline) {
      seen = await readFile(log, 'utf8').catch(() => '');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(seen).toMatch(/\$ for i in[^\n]*\n {2}│ tick1\n {2}│ tick2\n/);
    expect(seen).not.toContain('tick5');
    expect(await tmux.waitForExit()).toBe(0);
    const all = await readFile(log, 'utf8');
    expect(all).toMatch(/ {2}│ tick6\n {2}✗ exit 2 · [\d.]+s\n/);
    expect(await tmux.screen()).toContain('ran it');
  });

  it('the approval title does not repeat the command; an edit shows numbered context; an edit that cannot apply is not asked about', async () => {
    const term = await start({ delay: 20, color: true, repo: true, args: ['--approval', 'ask'] });
    await writeFile(join(harness?.home ?? '', 'list.txt'), 'one\ntwo\nthree\nfour\nfive\n');
    harness?.server.enqueue(
      { type: 'reply', toolCalls: [{ name: 'shell', arguments: { command: 'touch made.txt' } }] },
      {
        type: 'reply',
        toolCalls: [
          { name: 'edit_file', arguments: { path: 'list.txt', old_text: 'three', new_text: 'THREE' } },
        ],
      },
      {
        type: 'reply',
        toolCalls: [
          { name: 'edit_file', arguments: { path: 'list.txt', old_text: 'absent', new_text: 'x' } },
        ],
      },
      { type: 'reply', text: 'tried\n' },
    );
    await say(term, 'go');
    let screen = await term.waitFor('[y] yes, once');
    expect(screen).toMatch(/Allow \$ touch made\.txt\n/);
    await new Promise((resolve) => setTimeout(resolve, 450));
    await term.send('y', { literal: true });
    screen = await term.waitFor(/Allow edit list\.txt/);
    screen = await term.waitFor('5   five');
    expect(screen).toMatch(/2 {3}two\n\s+3 - three\n\s+3 \+ THREE\n\s+4 {3}four/);
    await new Promise((resolve) => setTimeout(resolve, 450));
    await term.send('y', { literal: true });
    const done = await term.waitFor(/^gpt-4o-mini · /m, 15_000);
    expect(done).toMatch(/⏺ \$ touch made\.txt {2}✓ [\d.]+s\n/);
    // The third edit's text is not in the file: refused without a question, its reason on its row.
    expect(done.match(/Allow edit list\.txt/g)).toHaveLength(1);
    expect(done).toMatch(
      /✗ edit list\.txt — not run: old_text does not occur in list\.txt; it must occur exactly once\.\n/,
    );
    expect(done).not.toContain('(+0');
    expect(done).not.toMatch(/Exit code|Wall time/);
  });
});
