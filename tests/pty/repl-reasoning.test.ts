/**
 * The model's thinking in the REPL, in a real terminal (tmux): streamed dimmed and folded to two lines,
 * `/expand` shows it whole, `/reasoning` sets the level, and `showReasoning: false` hides it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../e2e/harness.js';
import { startTmux, type TmuxSession } from './tmux.js';

/** An SGR sequence that turns on faint (2), alone or among other attributes. */
// eslint-disable-next-line no-control-regex
const FAINT = /\u001b\[(?:[0-9;]*;)?2(?:;[0-9;]*)?m/;

/** Long enough to fold at 80 columns; its end is only on screen after /expand. */
const THOUGHT = `${'First I compare the two files line by line and note every difference. '.repeat(5)}The end of the thought.`;

describe('thinking in the REPL (tmux)', () => {
  let harness: Harness;
  let tmux: TmuxSession | undefined;
  const start = async (): Promise<TmuxSession> => {
    const env: Record<string, string> = { ...harness.env, TERM: 'xterm-256color' };
    delete env.NO_COLOR;
    tmux = await startTmux({ args: [], env, cwd: harness.home, columns: 80, rows: 40 });
    return tmux;
  };
  beforeEach(async () => {
    harness = await createHarness({ chunkDelayMs: 20 });
    const created = await harness.cody([
      'new',
      '--provider',
      'openai',
      '--api',
      'chat',
      '--model',
      'deepseek-reasoner',
    ]);
    expect(created.code, created.stderr).toBe(0);
  });
  afterEach(async () => {
    await tmux?.kill();
    tmux = undefined;
    await harness.close();
  });

  it('streams thinking dimmed and folded to two lines; /expand shows it whole; /reasoning and /status', async () => {
    const term = await start();
    await term.waitFor('›');
    await term.send('/reasoning', { literal: true });
    await term.send('Enter');
    await term.waitFor("Reasoning: the API's default.");
    harness.server.enqueue({ type: 'reply', reasoning: THOUGHT, text: 'The files differ.\n' });
    await term.send('compare them', { literal: true });
    await term.send('Enter');
    const screen = await term.waitFor('The files differ.');
    const thinkingLines = screen
      .split('\n')
      .filter((line) => line.includes('First I compare') || line.includes('more characters'));
    expect(screen).toContain('✻ First I compare the two files');
    expect(screen).toMatch(/… \(\d+ more characters; \/expand shows the thinking whole\)/);
    expect(screen).not.toContain('The end of the thought.');
    expect(thinkingLines.length).toBeLessThanOrEqual(3);
    // Dimmed: the thinking line carries SGR 2 (faint); the reply does not.
    const styled = (await term.styledScreen()).split('\n');
    const thinkingLine = styled.find((line) => line.includes('First I compare')) ?? '';
    expect(thinkingLine).toMatch(FAINT);
    const replyLine = styled.find((line) => line.includes('The files differ.')) ?? '';
    expect(replyLine).not.toMatch(FAINT);

    await term.send('/expand', { literal: true });
    await term.send('Enter');
    await term.waitFor('The end of the thought.');
    await term.send('/reasoning low', { literal: true });
    await term.send('Enter');
    await term.waitFor('✓ Reasoning low for this conversation');
    await term.send('/status', { literal: true });
    await term.send('Enter');
    // Laid out on words at 80 columns: the line may continue on the next row.
    await term.waitFor(/reasoning\s+low\s+\(\d+\s+reasoning\s+tokens\)/);
  });

  it('hides thinking with "showReasoning": false (still recorded)', async () => {
    const config = JSON.parse((await harness.shell('cat "$CODY_HOME/config.json"')).stdout) as Record<
      string,
      unknown
    >;
    await harness.writeConfig({ ...config, showReasoning: false });
    const term = await start();
    await term.waitFor('›');
    harness.server.enqueue({ type: 'reply', reasoning: THOUGHT, text: 'Quiet answer.\n' });
    await term.send('compare them', { literal: true });
    await term.send('Enter');
    const screen = await term.waitFor('Quiet answer.');
    expect(screen).not.toContain('First I compare');
    await term.send('/expand', { literal: true });
    await term.send('Enter');
    await term.waitFor('The end of the thought.');
  });
});
