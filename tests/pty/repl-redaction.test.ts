/**
 * The REPL in a real pseudo-terminal (tmux): a key Cody reads, streamed split across three deltas, is
 * shown as `[REDACTED]` and never reaches the screen (the same engine redactor every front end uses).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, FAKE_KEYS, type Harness } from '../e2e/harness.js';
import { startTmux, type TmuxSession } from './tmux.js';

describe('the REPL shows no secret streamed in pieces', () => {
  let harness: Harness;
  let tmux: TmuxSession | undefined;
  beforeEach(async () => {
    harness = await createHarness({ chunkDelayMs: 30 });
  });
  afterEach(async () => {
    await tmux?.kill();
    tmux = undefined;
    await harness.close();
  });

  it('renders a split key as [REDACTED]', async () => {
    const key = FAKE_KEYS.OPENAI_API_KEY;
    const env: Record<string, string> = { ...harness.env, TERM: 'xterm-256color' };
    delete env.NO_COLOR;
    tmux = await startTmux({ args: [], env, cwd: harness.home });
    await tmux.waitFor('›');
    harness.server.enqueue({
      type: 'reply',
      textDeltas: ['repeat this: ', key.slice(0, 5), key.slice(5, 14), `${key.slice(14)} ok\n`],
    });
    await tmux.send('repeat', { literal: true });
    await tmux.send('Enter');
    const screen = await tmux.waitFor('repeat this: [REDACTED] ok');
    expect(screen).not.toContain(key.slice(0, 14));
    expect(screen).not.toContain(key.slice(5));
  });
});
