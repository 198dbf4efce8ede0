/**
 * Issue 22 in the REPL (tmux): a prompt file's command completes with Tab (its description under the
 * input), its expansion is shown dimmed and is what reaches the model; /status lists the instruction
 * files in effect with their sizes.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../e2e/harness.js';
import { startTmux, type TmuxSession } from './tmux.js';

interface ChatBody {
  messages: Array<{ role: string; content: unknown }>;
}

describe('prompt commands and instructions in the REPL (tmux)', () => {
  let harness: Harness;
  let tmux: TmuxSession | undefined;
  beforeEach(async () => {
    harness = await createHarness({ chunkDelayMs: 5 });
    const home = harness.env.CODY_HOME ?? '';
    await mkdir(join(home, 'prompts'), { recursive: true });
    await writeFile(
      join(home, 'prompts', 'review.md'),
      '---\ndescription: review a file\n---\nReview $1 please\n',
    );
    await writeFile(join(harness.home, 'AGENTS.md'), 'PTY-RULE\n');
  });
  afterEach(async () => {
    await tmux?.kill();
    tmux = undefined;
    await harness.close();
  });

  it('expands /review (dimmed, then sent) and lists AGENTS.md in /status', async () => {
    const env: Record<string, string> = { ...harness.env, TERM: 'xterm-256color' };
    delete env.NO_COLOR;
    tmux = await startTmux({ args: [], env, cwd: harness.home });
    const term = tmux;
    await term.waitFor('›');
    await term.send('/rev', { literal: true });
    await term.send('Tab');
    await term.waitFor('/review — review a file');
    await term.send('src/a.ts', { literal: true });
    await term.send('Enter');
    // The reply, its status line, then the next prompt: keys typed before that prompt could be lost.
    await term.waitFor(/echo: .*Review src\/a\.ts please[\s\S]*\$0\.\d+\s*\n› /);
    const styled = await term.styledScreen();
    // Dimmed: SGR 2 on the line of the expansion.
    const dim = `${String.fromCharCode(27)}\\[2m`;
    expect(styled).toMatch(new RegExp(`${dim}[^\\n]*Review src/a\\.ts please`));
    const body = harness.server.modelRequests('openai-chat').at(-1)?.body as ChatBody;
    const users = body.messages.filter((message) => message.role === 'user').map((m) => m.content);
    expect(users.at(-1)).toBe('Review src/a.ts please');
    expect(JSON.stringify(users[0])).toContain('PTY-RULE');
    await term.send('/status', { literal: true });
    await term.send('Enter');
    await term.waitFor(/Instructions:\s+\S*AGENTS\.md \(9 bytes, project\)/);
  });
});
