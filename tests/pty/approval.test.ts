/**
 * An approval is a real decision (issue 19 §2), in a real terminal (tmux) against the fake provider:
 * typed-ahead keys never answer the question, Enter alone does not, a long preview is never cut
 * silently, "always" names a narrow scope and a call outside it asks again, and the approval policy in
 * force is always visible.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../e2e/harness.js';
import { makeRepo } from '../e2e/tool-fixtures.js';
import { startTmux, type TmuxSession } from './tmux.js';

interface ChatBody {
  messages: Array<{ role: string; content: unknown }>;
}

/** Past the ~300 ms after the question is drawn during which keys are ignored. */
const pastGuard = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 450));

const patch = (...lines: string[]): string => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

describe('the approval question in a terminal (tmux)', () => {
  let harness: Harness;
  let tmux: TmuxSession | undefined;
  const start = async (args: string[] = []): Promise<TmuxSession> => {
    const env: Record<string, string> = { ...harness.env, TERM: 'xterm-256color' };
    delete env.NO_COLOR;
    tmux = await startTmux({ args, env, cwd: harness.home, rows: 50 });
    return tmux;
  };
  /** The tool outputs the model saw, from the last request (it carries the whole history). */
  const toolOutputs = (): string[] =>
    ((harness.server.modelRequests('openai-chat').at(-1)?.body as ChatBody | undefined)?.messages ?? [])
      .filter((message) => message.role === 'tool')
      .map((message) => String(message.content));
  const say = async (term: TmuxSession, text: string): Promise<void> => {
    await term.send(text, { literal: true });
    await term.send('Enter');
  };
  beforeEach(async () => {
    harness = await createHarness({ chunkDelayMs: 30 });
    await makeRepo(harness.home);
  });
  afterEach(async () => {
    await tmux?.kill();
    tmux = undefined;
    await harness.close();
  });

  it('keys typed while the reply streams never answer; Enter alone does nothing; y answers after', async () => {
    const term = await start();
    await term.waitFor('›');
    harness.server.enqueue(
      {
        type: 'reply',
        text: `${'streaming words '.repeat(60)}\n`,
        toolCalls: [{ name: 'shell', arguments: { command: 'touch created.txt' } }],
      },
      { type: 'reply', text: 'made it\n' },
    );
    await say(term, 'go');
    await term.waitFor('streaming words');
    // The person keeps typing: every answer letter (n, a, y) and an Enter, before the question is drawn.
    await term.send('please also run tests and say yes', { literal: true });
    await term.send('Enter');
    let screen = await term.waitFor('[y] yes, once');
    await pastGuard();
    screen = await term.screen();
    expect(screen).toContain('Allow $ touch created.txt');
    expect(screen).toContain('kept for your next prompt');
    expect(screen).not.toMatch(/→ (yes|no|always|stopped)/);
    expect(screen).not.toContain('Why not?');
    await expect(readFile(join(harness.home, 'created.txt'))).rejects.toThrow(/ENOENT/);

    // Enter alone does not answer (nothing says yes is the default): it says so, the question stays.
    await term.send('Enter');
    screen = await term.waitFor('Enter alone does not answer');
    expect(screen).not.toMatch(/→ (yes|no|always|stopped)/);
    await pastGuard();
    await expect(readFile(join(harness.home, 'created.txt'))).rejects.toThrow(/ENOENT/);
    expect(harness.server.modelRequests('openai-chat')).toHaveLength(1);

    await term.send('y', { literal: true });
    await term.waitFor('→ yes');
    await term.waitFor('made it');
    await readFile(join(harness.home, 'created.txt'));
    // What was typed ahead is the next message, not an answer nor a denial reason.
    await term.waitFor('echo: please also run tests and say yes', 15_000);
    expect(toolOutputs().some((output) => output.includes('declined'))).toBe(false);
  });

  it("the question on a terminal waits for its person: config.json's approvalTimeoutMs does not decline it", async () => {
    await harness.writeConfig({ approvalTimeoutMs: 300 });
    const term = await start();
    await term.waitFor('›');
    harness.server.enqueue(
      { type: 'reply', toolCalls: [{ name: 'shell', arguments: { command: 'touch waited.txt' } }] },
      { type: 'reply', text: 'done waiting\n' },
    );
    await say(term, 'make it');
    await term.waitFor('[y] yes, once');
    // Well past the configured timeout: the library and cody serve would have declined with "no answer".
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const screen = await term.screen();
    expect(screen).not.toMatch(/→ (yes|no|always|stopped)|no answer/);
    expect(harness.server.modelRequests('openai-chat')).toHaveLength(1);
    await term.send('y', { literal: true });
    await term.waitFor('done waiting');
    await readFile(join(harness.home, 'waited.txt'));
    expect(toolOutputs().some((output) => output.includes('no answer'))).toBe(false);
  });

  it('a 31-line patch preview shows a "more lines" marker, and v shows the last line before answering', async () => {
    const body = Array.from({ length: 30 }, (_, index) => `+line ${index + 1}`);
    body.push('+SECRET_LAST_LINE rm -rf important');
    const term = await start();
    await term.waitFor('›');
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [{ name: 'apply_patch', arguments: { input: patch('*** Add File: long.txt', ...body) } }],
      },
      { type: 'reply', text: 'ok then\n' },
    );
    await say(term, 'write the long file');
    let screen = await term.waitFor('[y] yes, once');
    expect(screen).toMatch(/… 14 more lines \(v to view all\)/);
    expect(screen).toContain('[v] view all');
    expect(screen).not.toContain('SECRET_LAST_LINE');
    await pastGuard();
    await term.send('v', { literal: true });
    // Numbered: the patch is shown as a diff (issue 21).
    screen = await term.waitFor('31 + SECRET_LAST_LINE rm -rf important');
    expect(screen).not.toMatch(/→ (yes|no|always|stopped)/);
    await term.send('n', { literal: true });
    await term.waitFor('Why not?');
    await term.send('Enter');
    await term.waitFor('ok then');
    await expect(readFile(join(harness.home, 'long.txt'))).rejects.toThrow(/ENOENT/);
  });

  it('"always" on one apply_patch covers that file only: a later Delete File asks again', async () => {
    await writeFile(join(harness.home, 'README.md'), 'keep me\n');
    const term = await start();
    await term.waitFor('›');
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [{ name: 'apply_patch', arguments: { input: patch('*** Add File: app.js', '+one') } }],
      },
      {
        type: 'reply',
        toolCalls: [
          {
            name: 'apply_patch',
            arguments: { input: patch('*** Update File: app.js', '@@', '-one', '+two') },
          },
        ],
      },
      {
        type: 'reply',
        toolCalls: [{ name: 'apply_patch', arguments: { input: patch('*** Delete File: README.md') } }],
      },
      { type: 'reply', text: 'all done\n' },
    );
    await say(term, 'edit app.js then clean up');
    await term.waitFor('[a] always for patches to app.js');
    await pastGuard();
    await term.send('a', { literal: true });
    await term.waitFor('→ always for patches to app.js');
    // The update of app.js runs without a question; the deletion asks, and offers no "always".
    // Titled by file and what happens to it, not the patch marker (issue 21).
    let screen = await term.waitFor('Allow patch README.md (deleted)');
    screen = await term.waitFor(/\[y\] yes, once[^\n]*\n(?![\s\S]*\[y\] yes, once)/);
    const question = screen.slice(screen.lastIndexOf('Allow'));
    expect(question).toContain('deletes README.md');
    expect(question).not.toContain('[a]');
    expect(await readFile(join(harness.home, 'app.js'), 'utf8')).toBe('two\n');
    await pastGuard();
    await term.send('n', { literal: true });
    await term.waitFor('Why not?');
    await term.send('Enter');
    await term.waitFor('all done');
    expect(await readFile(join(harness.home, 'README.md'), 'utf8')).toBe('keep me\n');
    expect((screen.match(/\[y\] yes, once/g) ?? []).length).toBe(2);
  });

  it('"always" on git add covers git add only: git push asks again', async () => {
    const term = await start();
    await term.waitFor('›');
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [{ id: 'call_s1', name: 'shell', arguments: { command: 'git add a.txt' } }],
      },
      { type: 'reply', toolCalls: [{ id: 'call_s2', name: 'shell', arguments: { command: 'git add -A' } }] },
      { type: 'reply', toolCalls: [{ id: 'call_s3', name: 'shell', arguments: { command: 'git push' } }] },
      { type: 'reply', text: 'pushed nothing\n' },
    );
    await say(term, 'stage and push');
    await term.waitFor('[a] always for: git add');
    await pastGuard();
    await term.send('a', { literal: true });
    await term.waitFor('→ always for: git add');
    const screen = await term.waitFor('Allow $ git push');
    expect(screen).not.toContain('Allow $ git add -A');
    expect(screen).toContain('[a] always for: git push');
    await pastGuard();
    await term.send('n', { literal: true });
    await term.waitFor('Why not?');
    await term.send('Enter');
    await term.waitFor('pushed nothing');
    const outputs = toolOutputs();
    expect(outputs).toHaveLength(3);
    // It ran without asking: inside bubblewrap (where installed) .git is read-only, so git cannot stage.
    expect(outputs[1]).toMatch(/^Exit code: (0\n|128\n[\s\S]*index\.lock': Read-only file system)/);
    expect(outputs[2]).toBe('The user declined to run this tool call. Ask them how to proceed.');
  });

  it('cody chat on a terminal asks the same question: Enter alone does nothing, the scope is named', async () => {
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [{ id: 'call_c1', name: 'shell', arguments: { command: 'npm test -- -x' } }],
      },
      { type: 'reply', text: 'tested\n' },
    );
    const term = await start(['chat', 'run the tests']);
    await term.waitFor('[a] always for: npm test');
    await pastGuard();
    await term.send('Enter');
    await term.waitFor('Enter alone does not answer');
    expect(await term.exitStatus()).toBeUndefined();
    await term.send('n', { literal: true });
    await term.waitFor('Why not?');
    await term.send('Enter');
    expect(await term.waitForExit()).toBe(0);
    expect(toolOutputs()).toEqual(['The user declined to run this tool call. Ask them how to proceed.']);
  });

  it('cody chat with stderr redirected asks on lines: the same wording, an empty line re-asks', async () => {
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [{ id: 'call_l1', name: 'shell', arguments: { command: 'touch lined.txt' } }],
      },
      { type: 'reply', text: 'lined up\n' },
    );
    const errors = join(harness.home, 'stderr.txt');
    const env: Record<string, string> = { ...harness.env, TERM: 'xterm-256color' };
    tmux = await startTmux({ args: ['chat', 'go'], env, cwd: harness.home, stderrTo: errors });
    const stderr = async (pattern: RegExp): Promise<string> => {
      const deadline = Date.now() + 10_000;
      let text = '';
      while (Date.now() < deadline) {
        text = await readFile(errors, 'utf8').catch(() => '');
        if (pattern.test(text)) return text;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`stderr never matched ${String(pattern)}:\n${text}`);
    };
    let text = await stderr(/Answer \(y\/a\/n\/Esc, then Enter\):/);
    expect(text).toContain('Allow $ touch lined.txt');
    expect(text).toContain('[y] yes, once   [a] always for: touch   [n] no, and tell the model why');
    await pastGuard();
    await tmux.send('Enter');
    text = await stderr(/Enter alone does not answer/);
    await expect(readFile(join(harness.home, 'lined.txt'))).rejects.toThrow(/ENOENT/);
    await tmux.send('y', { literal: true });
    await tmux.send('Enter');
    expect(await tmux.waitForExit()).toBe(0);
    text = await stderr(/→ yes/);
    await readFile(join(harness.home, 'lined.txt'));
  });

  it('cody chat --plain on a terminal: the question on lines, the plain rows, the status line', async () => {
    harness.server.enqueue(
      {
        type: 'reply',
        text: 'Let me **touch** it.\n',
        toolCalls: [{ id: 'call_p1', name: 'shell', arguments: { command: 'touch plain.txt' } }],
      },
      { type: 'reply', text: 'plainly done\n' },
    );
    const term = await start(['chat', '--plain', 'go']);
    // The line reader's question (not raw keys), on the terminal itself.
    let screen = await term.waitFor('Answer (y/a/n/Esc, then Enter):');
    expect(screen).toContain('Allow $ touch plain.txt');
    expect(screen).toContain('[y] yes, once   [a] always for: touch   [n]');
    await pastGuard();
    await term.send('y', { literal: true });
    await term.send('Enter');
    expect(await term.waitForExit()).toBe(0);
    screen = await term.screen();
    // No Markdown: the reply's asterisks stay as the model wrote them.
    expect(screen).toContain('Let me **touch** it.');
    expect(screen).toMatch(/→ yes\n⏺ \$ touch plain\.txt\n {2}✓ [\d.]+s\n/);
    expect(screen).toContain('plainly done');
    // The status line, as the REPL ends a turn (stderr is a terminal: a person reads it).
    expect(screen).toMatch(/^\S+ · \d+% context · [\d.]+k? in · [\d.]+k? out/m);
    await readFile(join(harness.home, 'plain.txt'));
  });

  it('the policy in force is visible: banner, beside the prompt, /status; a flag is for this run only', async () => {
    let term = await start(['--approval', 'full-auto']);
    let screen = await term.waitFor(/full-auto › *$/m);
    // The banner is laid out on words: it may continue on the next row.
    expect(screen.replace(/\s+/g, ' ')).toContain('approval full-auto (--approval: this run only)');
    await say(term, 'hello');
    await term.waitFor('echo: hello');
    await say(term, '/status');
    screen = await term.waitFor(
      /approval\s+full-auto\s+\(this\s+run\s+only;\s+the\s+conversation\s+keeps\s+ask\)/,
    );
    await term.send('C-d');
    await term.waitForExit();
    await tmux?.kill();

    // The next run of it without a flag is back to ask; /approval full-auto persists and says so.
    term = await start(['-c']);
    screen = await term.waitFor('›');
    expect(screen).toContain('· approval ask ·');
    expect(screen).not.toMatch(/full-auto ›/);
    await say(term, '/approval full-auto');
    await term.waitFor('✓ Approval policy full-auto for this conversation: it keeps it when opened again');
    await term.waitFor(/full-auto › *$/m);
    await say(term, 'again');
    // The reply streams: its text is on screen before the turn ends; the status line ends it.
    await term.waitFor(/echo: again\n\S+ · \d+% context/);
    await term.send('C-d');
    await term.waitForExit();

    const status = await harness.cody(['status']);
    expect(status.stdout).toMatch(/^Approval: +full-auto \(kept by this conversation;/m);
  });
});
