/**
 * Issue 31 in a real terminal (tmux): at the REPL's start, a workspace's untrusted `.cody/hooks.json` is
 * shown with its commands and the person is asked once. `n`: the hook never runs (a one-line warning
 * says it was skipped); `y` at the next start: it runs from the next turn on.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../e2e/harness.js';
import { startTmux, type TmuxSession } from './tmux.js';

const QUESTION = 'Trust these project hooks and let them run? [y/N]';
const SKIPPED = /warning: Project hooks in \.cody\/hooks\.json are not trusted and were skipped/g;
const count = (text: string, pattern: RegExp | string): number =>
  typeof pattern === 'string' ? text.split(pattern).length - 1 : (text.match(pattern) ?? []).length;

describe('project hooks at the REPL start (tmux)', () => {
  let harness: Harness;
  let tmux: TmuxSession | undefined;
  beforeEach(async () => {
    harness = await createHarness();
  });
  afterEach(async () => {
    await tmux?.kill();
    tmux = undefined;
    await harness.close();
  });

  /** One REPL run in `cwd`: answers the trust question with `key`, runs one turn, exits; returns its screen. */
  const session = async (cwd: string, key: string): Promise<string> => {
    harness.server.enqueue({ type: 'reply', text: 'Turn over.' });
    tmux = await startTmux({ args: [], env: harness.env, cwd, columns: 160, rows: 40 });
    await tmux.waitFor(QUESTION, 20_000);
    await tmux.send(key, { literal: true });
    await tmux.waitFor(/› $/m);
    await tmux.send('hello hooks', { literal: true });
    await tmux.send('Enter');
    await tmux.waitFor(/ \d+ in · \d+ out/, 20_000);
    const screen = await tmux.screen();
    await tmux.send('C-d');
    await tmux.waitForExit();
    await tmux.kill();
    tmux = undefined;
    return screen;
  };

  it('asks once; `n` keeps the hook from running, `y` at the next start lets it run', async () => {
    const project = join(harness.home, 'proj');
    const marker = join(harness.home, 'hook-ran');
    await mkdir(join(project, '.cody'), { recursive: true });
    const command = `touch ${marker}`;
    await writeFile(
      join(project, '.cody', 'hooks.json'),
      JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command }] }] } }),
    );

    const refused = await session(project, 'n');
    expect(count(refused, QUESTION)).toBe(1);
    expect(refused).toContain(command);
    expect(count(refused, SKIPPED)).toBe(1);
    expect(existsSync(marker)).toBe(false);
    expect(JSON.stringify(harness.server.modelRequests().at(-1)?.body)).toContain('hello hooks');

    const trusted = await session(project, 'y');
    expect(count(trusted, QUESTION)).toBe(1);
    expect(trusted).toContain('✓ Trusted');
    expect(trusted).not.toMatch(SKIPPED);
    expect(existsSync(marker)).toBe(true);
  });
});
