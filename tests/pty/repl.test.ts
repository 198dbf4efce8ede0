/**
 * The REPL in a real pseudo-terminal (tmux), against the fake provider: what a person sees and what
 * reaches the model when they paste, type ahead, interrupt, approve, resize and mistype.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../e2e/harness.js';
import { startTmux, type TmuxSession } from './tmux.js';

/** The model these screens' figures are written for. */
const PINNED_MODEL = { provider: 'openai', api: 'chat', model: 'gpt-4.1-mini' };

interface ChatBody {
  messages: Array<{ role: string; content: unknown }>;
}

function lastUserText(harness: Harness, index = -1): string {
  const body = harness.server.modelRequests('openai-chat').at(index)?.body as ChatBody | undefined;
  const user = body?.messages.filter((message) => message.role === 'user').at(-1);
  return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content);
}

describe('the REPL in a terminal (tmux)', () => {
  let harness: Harness;
  let tmux: TmuxSession | undefined;
  const start = async (
    args: string[] = [],
    extra: Record<string, string> = {},
    reportAfter = false,
  ): Promise<TmuxSession> => {
    const env: Record<string, string> = { ...harness.env, TERM: 'xterm-256color', ...extra };
    delete env.NO_COLOR;
    tmux = await startTmux({ args, env, cwd: harness.home, reportAfter });
    return tmux;
  };
  beforeEach(async () => {
    harness = await createHarness({ chunkDelayMs: 30 });
  });
  afterEach(async () => {
    await tmux?.kill();
    tmux = undefined;
    await harness.close();
  });

  it('keeps a multi-line paste whole, renders Markdown and shows the status line', async () => {
    // The model the status line's figures are written for (Cody's default changes with the catalogue).
    await harness.writeConfig(PINNED_MODEL);
    const term = await start();
    await term.waitFor('›');
    harness.server.enqueue({
      type: 'reply',
      text: '# Heading\n\n- **first** item\n- second item\n',
      usage: { inputTokens: 1200, outputTokens: 30 },
    });
    await term.paste('line one\nline two\nline three');
    await term.send('Enter');
    const screen = await term.waitFor(/gpt-4\.1-mini · \d+% context · 1\.2k in · 30 out · \$0\.\d+/);
    expect(lastUserText(harness)).toBe('line one\nline two\nline three');
    expect(screen).toContain('• first item');
    expect(screen).not.toContain('# Heading');
    expect(screen).not.toContain('**first**');
  });

  it('queues text typed while a reply streams as the next message instead of mixing it in', async () => {
    const term = await start();
    await term.waitFor('›');
    harness.server.enqueue({ type: 'reply', text: `${'slow words '.repeat(40)}\n` });
    await term.send('first', { literal: true });
    await term.send('Enter');
    await term.waitFor('slow words');
    await term.send('typed ahead', { literal: true });
    await term.send('Enter');
    await term.waitFor('echo: typed ahead', 15_000);
    const screen = await term.screen();
    expect(screen).toContain('queued: typed ahead');
    expect(harness.server.modelRequests('openai-chat')).toHaveLength(2);
    expect(lastUserText(harness)).toBe('typed ahead');
    // The first reply was not interleaved with the typed keys.
    expect(screen).not.toMatch(/slow wordstyped/);
  });

  it('answers unknown slash commands with a suggestion and sends nothing; Tab completes commands', async () => {
    await harness.writeConfig(PINNED_MODEL);
    const term = await start();
    await term.waitFor('›');
    await term.send('/stauts', { literal: true });
    await term.send('Enter');
    await term.waitFor('Unknown command /stauts. Did you mean /status?');
    await term.send('/compactx', { literal: true });
    await term.send('Enter');
    await term.waitFor('Unknown command /compactx. Did you mean /compact?');
    await term.send('/sta', { literal: true });
    await term.send('Tab');
    await term.send('Enter');
    await term.waitFor(/openai \(openai-chat\) · gpt-4\.1-mini · .* tokens/);
    expect(harness.server.modelRequests()).toHaveLength(0);
  });

  it('Ctrl-C clears a typed line, asks for a second press on an empty prompt, then exits 130, terminal clean', async () => {
    const term = await start([], {}, true);
    await term.waitFor('›');
    await term.send('half a line', { literal: true });
    await term.send('C-c');
    // The redraw lands a moment later: wait for a screen with the prompt and without the typed text.
    let screen = await term.waitFor(/^(?![\s\S]*half a line)[\s\S]*›/);
    expect(screen).not.toContain('half a line');
    await term.send('C-c');
    screen = await term.waitFor('Press Ctrl-C again to exit');
    await term.send('C-c');
    // `stty -a` prints after EXIT= and ends with `extproc`: wait for all of it, not only EXIT=.
    screen = await term.waitFor(/EXIT=\d+[\s\S]*extproc/);
    // The shell's next output starts on its own line, in cooked mode with echo, paste mode off.
    expect(screen).toMatch(/^EXIT=130$/m);
    expect(screen).toMatch(/(^|\s)icanon(\s|$)/m);
    expect(screen).toMatch(/(^|\s)echo(\s|$)/m);
  });

  it('shows the approval question with the spinner stopped; Esc there stops the turn and keeps the message', async () => {
    const term = await start();
    await term.waitFor('›');
    harness.server.enqueue({
      type: 'reply',
      toolCalls: [{ name: 'shell', arguments: { command: 'printf approved-run' } }],
    });
    await term.send('run it', { literal: true });
    await term.send('Enter');
    const screen = await term.waitFor('[y] yes, once');
    expect(screen).toContain('Allow $ printf approved-run');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Still visible: nothing (no spinner) drew over it.
    expect(await term.screen()).toContain('Allow $ printf approved-run');
    await term.send('Escape');
    await term.waitFor('Interrupted');
    await term.waitFor(/›\s*$/m);
    const rollout = await harness.rollout(
      JSON.parse((await harness.cody(['list', '--json'])).stdout)[0].id as string,
    );
    expect(rollout.join('\n')).toContain('run it');
  });

  it('approves once with y and shows the command output folded', async () => {
    const term = await start();
    await term.waitFor('›');
    harness.server.enqueue(
      { type: 'reply', toolCalls: [{ name: 'shell', arguments: { command: 'seq 1 20' } }] },
      { type: 'reply', text: 'done\n' },
    );
    await term.send('count', { literal: true });
    await term.send('Enter');
    await term.waitFor('[y] yes, once');
    // Keys that arrive within 300 ms of the question are ignored (issue 19): answer after that.
    await new Promise((resolve) => setTimeout(resolve, 400));
    await term.send('y', { literal: true });
    const screen = await term.waitFor('done');
    expect(screen).toContain('$ seq 1 20');
    expect(screen).toMatch(/more lines \(\/expand shows them\)/);
  });

  it('n with a reason: the reason goes to the model with the denial, not as a message of its own', async () => {
    const term = await start();
    await term.waitFor('›');
    harness.server.enqueue(
      { type: 'reply', toolCalls: [{ name: 'shell', arguments: { command: 'npm install' } }] },
      { type: 'reply', text: 'understood\n' },
    );
    await term.send('set it up', { literal: true });
    await term.send('Enter');
    await term.waitFor('[y] yes, once');
    await new Promise((resolve) => setTimeout(resolve, 400));
    await term.send('n', { literal: true });
    await term.waitFor('Why not?');
    await term.send('use npm ci', { literal: true });
    await term.send('Enter');
    await term.waitFor('understood');
    await term.waitFor(/›\s*$/m);
    const body = harness.server.modelRequests('openai-chat').at(-1)?.body as ChatBody;
    const tool = body.messages.find((message) => message.role === 'tool');
    expect(String(tool?.content)).toBe('The user declined to run this tool call and said: use npm ci');
    expect(body.messages.filter((message) => message.role === 'user')).toHaveLength(1);
    // Nothing was queued as a next message: the REPL is idle at its prompt, one request per model turn.
    expect(harness.server.modelRequests('openai-chat')).toHaveLength(2);
  });

  it('/approval shows and sets the policy of this conversation; a call then runs without asking', async () => {
    const term = await start();
    await term.waitFor('›');
    await term.send('/approval', { literal: true });
    await term.send('Enter');
    await term.waitFor('Approval policy: ask.');
    await term.send('/approval full-auto', { literal: true });
    await term.send('Enter');
    await term.waitFor('✓ Approval policy full-auto for this conversation');
    harness.server.enqueue(
      { type: 'reply', toolCalls: [{ name: 'shell', arguments: { command: 'echo ran-freely' } }] },
      { type: 'reply', text: 'finished\n' },
    );
    await term.send('go', { literal: true });
    await term.send('Enter');
    const screen = await term.waitFor('finished');
    expect(screen).not.toContain('[y] yes, once');
    expect(JSON.stringify(harness.server.modelRequests('openai-chat').at(-1)?.body)).toContain('ran-freely');
  });

  it('an edit that runs without asking shows its diff under the call', async () => {
    await writeFile(join(harness.home, 'notes.txt'), 'alpha\nbeta\n');
    const term = await start(['--approval', 'auto-edit']);
    await term.waitFor('›');
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [
          { name: 'edit_file', arguments: { path: 'notes.txt', old_text: 'beta', new_text: 'BETA' } },
        ],
      },
      { type: 'reply', text: 'edited\n' },
    );
    await term.send('shout it', { literal: true });
    await term.send('Enter');
    const screen = await term.waitFor('edited');
    expect(screen).not.toContain('[y] yes, once');
    // A numbered diff with the lines around the edit (issue 21).
    expect(screen).toMatch(
      /edit notes\.txt[^\n]*\n\s+--- a\/notes\.txt\n\s+\+\+\+ b\/notes\.txt\n\s+@@ -1,2 \+1,2 @@\n\s+1 {3}alpha\n\s+2 - beta\n\s+2 \+ BETA/,
    );
  });

  it('a resize while a reply streams does not draw the prompt over it', async () => {
    const term = await start();
    await term.waitFor('›');
    harness.server.enqueue({ type: 'reply', text: `${'resize test words '.repeat(30)}\nlast line\n` });
    await term.send('go', { literal: true });
    await term.send('Enter');
    await term.waitFor('resize test');
    await term.resize(60, 30);
    await term.resize(100, 30);
    const screen = await term.waitFor('last line');
    const replyLines = screen.split('\n').filter((line) => line.includes('resize test'));
    for (const line of replyLines) expect(line).not.toContain('›');
  });

  it('exits with one error line, not a hang, when the conversation it continues is corrupt', async () => {
    const id = (await harness.cody(['new'])).stdout.trim();
    await writeFile(
      join(harness.env.CODY_HOME ?? '', 'conversations', `${id}.jsonl`),
      '{"not json\n{"x":1}\n',
    );
    const term = await start(['--conversation', id]);
    const status = await term.waitForExit();
    expect(status).not.toBe(0);
    expect(await term.screen()).toMatch(/cody: Corrupt rollout [\s\S]*not valid\s+JSON/);
  });

  it('keeps history across sessions in history.jsonl (0600), found again with Ctrl-R; recaps on reopen', async () => {
    let term = await start();
    await term.waitFor('›');
    await term.send('alpha question', { literal: true });
    await term.send('Enter');
    // The reply streams: its text is on screen before the turn ends; the status line ends it.
    await term.waitFor(/echo: alpha question\n\S+ · \d+% context/);
    await term.send('C-d');
    expect(await term.waitForExit()).toBe(0);
    await tmux?.kill();
    term = await start(['-c']);
    // The recap's lines are separate writes: wait for the one that matters, not only the heading.
    expect(await term.waitFor(/recap[\s\S]*alpha question/)).toContain('alpha question');
    await term.send('C-r');
    await term.send('alp', { literal: true });
    await term.waitFor("(reverse-i-search)`alp': alpha question");
    await term.send('Enter');
    await term.send('Enter');
    await term.waitFor(/echo: alpha question[\s\S]*echo: alpha question/);
    const { statSync, readFileSync } = await import('node:fs');
    const file = join(harness.env.CODY_HOME ?? '', 'history.jsonl');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({
      text: 'alpha question',
      conversationId: expect.any(String),
      time: expect.any(String),
    });
  });

  it('attaches @path mentions and completes paths with Tab', async () => {
    await mkdir(join(harness.home, 'docs'));
    await writeFile(join(harness.home, 'docs', 'notes.txt'), 'the secret number is 42\n');
    const term = await start();
    await term.waitFor('›');
    await term.send('explain @docs/no', { literal: true });
    await term.send('Tab');
    await term.send('Enter');
    await term.waitFor('attached @docs/notes.txt');
    await term.waitFor('echo:');
    expect(lastUserText(harness)).toContain('docs/notes.txt:\n```\nthe secret number is 42\n```');
  });

  it('cody chat on a terminal: the approval question is visible; Ctrl-C there stops the turn, exit 130, message kept', async () => {
    harness.server.enqueue({
      type: 'reply',
      toolCalls: [{ name: 'shell', arguments: { command: 'printf from-chat' } }],
    });
    const term = await start(['chat', 'please run it']);
    await term.waitFor('[y] yes, once');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await term.screen()).toContain('Allow $ printf from-chat');
    await term.send('C-c');
    expect(await term.waitForExit(20_000)).toBe(130);
    expect(await term.screen()).toContain('Interrupted');
    const [listed] = JSON.parse((await harness.cody(['list', '--json'])).stdout) as Array<{ id: string }>;
    expect((await harness.rollout(listed?.id ?? '')).join('\n')).toContain('please run it');
  });

  it('cody "question" opens the REPL with that first message; /resume picks a conversation by search', async () => {
    await harness.cody(['chat', 'about zebras']);
    await harness.cody(['new']);
    const term = await start(['what about lions']);
    await term.waitFor('echo: what about lions');
    await term.send('/resume', { literal: true });
    await term.send('Enter');
    await term.waitFor('Resume:');
    await term.send('zebra', { literal: true });
    await term.waitFor(/› \S+ +\S.*About zebras/);
    await term.send('Enter');
    await term.waitFor('✓ Resumed');
    await term.send('again', { literal: true });
    await term.send('Enter');
    await term.waitFor('echo: again');
    const body = JSON.stringify(harness.server.modelRequests('openai-chat').at(-1)?.body);
    expect(body).toContain('about zebras');
    expect(body).not.toContain('what about lions');
  });

  it('/diff and /undo run the real commands on this conversation; a slash command typed ahead runs after the turn', async () => {
    const term = await start();
    await term.waitFor('›');
    // Long enough (~6 s at 30 ms a chunk) that the typed-ahead command lands mid-reply on a loaded machine.
    harness.server.enqueue({ type: 'reply', text: `${'slow words '.repeat(100)}\n` });
    await term.send('first', { literal: true });
    await term.send('Enter');
    await term.waitFor('slow words');
    await term.send('/diff', { literal: true });
    await term.send('Enter');
    await term.waitFor('queued: /diff');
    // No git work tree here: the real `cody diff` says so.
    await term.waitFor(/› \/diff\s+cody: No diffs: .* is not in a git work tree/, 15_000);
    await term.send('/undo', { literal: true });
    await term.send('Enter');
    await term.waitFor(/› \/undo\s+cody: /);
    expect(await term.screen()).not.toContain('Unknown command');
  });

  it('Esc while a reply streams stops it; the partial reply stays in the conversation, marked interrupted', async () => {
    const term = await start();
    await term.waitFor('›');
    harness.server.enqueue({ type: 'reply', text: `${'partial words '.repeat(60)}\n` });
    await term.send('go on', { literal: true });
    await term.send('Enter');
    await term.waitFor('partial words');
    await term.send('Escape');
    await term.waitFor('Interrupted');
    const [listed] = JSON.parse((await harness.cody(['list', '--json'])).stdout) as Array<{ id: string }>;
    const lines = await harness.rollout(listed?.id ?? '');
    const text = lines.join('\n');
    expect(text).toMatch(/"role":"assistant".*partial words/);
    expect(text).toMatch(/turn_aborted".*"reason":"interrupted"/);
    // After the partial reply, not before it.
    expect(text.lastIndexOf('partial words')).toBeLessThan(text.lastIndexOf('turn_aborted'));
  });

  it('!command runs a shell command and hands its output to the model when asked', async () => {
    const term = await start();
    await term.waitFor('›');
    await term.send('!echo bang-output', { literal: true });
    await term.send('Enter');
    await term.waitFor('send the command and its output to the model? [y/N]');
    expect(await term.screen()).toContain('bang-output');
    await term.send('y', { literal: true });
    await term.waitFor('echo: I ran');
    expect(lastUserText(harness)).toContain('I ran `echo bang-output` (exit 0):');
    expect(lastUserText(harness)).toContain('bang-output');
  });

  it('full-auto without a sandbox says so in the banner and again in /status', async () => {
    await harness.writeConfig({ sandbox: { enabled: false } });
    const term = await start(['--approval', 'full-auto']);
    const banner = await term.waitFor('›');
    expect(banner).toContain('⚠ full-auto without a sandbox: commands run unconfined');
    await term.send('/status', { literal: true });
    await term.send('Enter');
    // /status names the policy in force too (issue 19 §2): a flag's full-auto is for this run only.
    const screen = await term.waitFor(
      /compactions · conversation\s[\s\S]*?·\s+approval\s+full-auto\s+\(this\s+run\s+only;\s+the\s+conversation\s+keeps\s+ask\)\n[\s\S]*⚠ full-auto without a sandbox/,
    );
    expect(screen.split('⚠ full-auto without a sandbox')).toHaveLength(3);
    // Not once: every turn's status line says it again while it holds.
    for (const word of ['first', 'second']) {
      await term.send(`say ${word}`, { literal: true });
      await term.send('Enter');
      await term.waitFor(new RegExp(`echo: say ${word}\\n[^\\n]*· ⚠ full-auto, no sandbox\\n`));
    }
  });
});
