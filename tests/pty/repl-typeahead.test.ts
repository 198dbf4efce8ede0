/**
 * Keys typed while nothing listens (issue 21, "a REPL with no surprises"): during start-up before the
 * prompt is drawn, while a sent message waits for its conversation to open and the turn to start, and as
 * a turn finishes. None is dropped: each lands in the next prompt, in order, and is sent with Enter.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../e2e/harness.js';
import { startTmux, type TmuxSession } from './tmux.js';

interface ChatBody {
  messages: Array<{ role: string; content: unknown }>;
}

describe('typed-ahead keys in the REPL (tmux)', () => {
  let harness: Harness;
  let tmux: TmuxSession | undefined;
  const start = async (): Promise<TmuxSession> => {
    const env: Record<string, string> = { ...harness.env, TERM: 'xterm-256color' };
    delete env.NO_COLOR;
    tmux = await startTmux({ args: [], env, cwd: harness.home, recordOutput: true });
    return tmux;
  };
  const userTexts = (): string[] =>
    harness.server.modelRequests('openai-chat').map((request) => {
      const body = request.body as ChatBody;
      const user = body.messages.filter((message) => message.role === 'user').at(-1);
      return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content);
    });
  /** Waits until the prompt took `line` with Enter (it moves to the next row), as written to the terminal. */
  const sentLine = async (term: TmuxSession, line: string): Promise<void> => {
    const deadline = Date.now() + 20_000;
    const taken = new RegExp(`${line}\\r(\\u001b\\[\\d+C)?\\r+\\n`);
    while (!taken.test(await term.output())) {
      if (Date.now() > deadline)
        throw new Error(`the prompt never took ${line}: ${JSON.stringify(await term.output())}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  beforeEach(async () => {
    harness = await createHarness({ chunkDelayMs: 30 });
  });
  afterEach(async () => {
    await tmux?.kill();
    tmux = undefined;
    await harness.close();
  });

  it('keeps what is typed while the banner is still starting, in the prompt, and sends it', async () => {
    const term = await start();
    // Not waiting for the prompt: these keys arrive before it listens (or even before cody runs).
    await term.send('early words', { literal: true });
    await term.waitFor(/› early words/, 20_000);
    await term.send('Enter');
    await term.waitFor('echo: early words', 20_000);
    expect(userTexts()).toEqual(['early words']);
  });

  it('keeps what is typed right after Enter and as a turn finishes, for the next prompt', async () => {
    const term = await start();
    await term.waitFor(/\n› *\n*$/, 20_000);
    harness.server.enqueue({ type: 'reply', text: 'one two three four five six seven eight\n' });
    await term.send('first', { literal: true });
    await term.send('Enter');
    // As soon as the prompt has taken the line (keys read with it in one chunk would be one pasted text),
    // while the conversation opens and before the turn listens.
    await sentLine(term, 'first');
    await term.send('second', { literal: true });
    // The reply is visible mid-way: the rest of it, and the end of the turn, are still to come.
    await term.waitFor('one two', 20_000);
    await term.send(' third', { literal: true });
    await term.waitFor('eight', 20_000);
    await term.send(' fourth', { literal: true });
    await term.waitFor(/› second third fourth/, 20_000);
    await term.send('Enter');
    await term.waitFor('echo: second third fourth', 20_000);
    expect(userTexts()).toEqual(['first', 'second third fourth']);
  });
});
