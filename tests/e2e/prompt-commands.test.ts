/**
 * The user's own slash commands (issue 22, part 5) through the built `cody chat`: a prompt file's body,
 * with `$ARGUMENTS` and `$1`…`$9` replaced, is what reaches the wire and the rollout; the project's file
 * wins over the user's; a built-in name cannot be taken; an unknown `/x` is refused and nothing is sent;
 * a path such as `/usr/bin …` is a message.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, linesOfType } from './harness.js';
import { historyLines } from './wire-history.js';

describe('prompt files as slash commands', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
    const home = harness.env.CODY_HOME ?? '';
    await mkdir(join(home, 'prompts'), { recursive: true });
    // The workspace is its own directory: in the harness's home, `.cody` is CODY_HOME itself.
    await mkdir(join(harness.home, 'proj', '.cody', 'prompts'), { recursive: true });
    await writeFile(
      join(home, 'prompts', 'review.md'),
      '---\ndescription: the user review\n---\nUSER review of $1\n',
    );
    await writeFile(
      join(harness.home, 'proj', '.cody', 'prompts', 'review.md'),
      '---\ndescription: review a file\n---\nReview $1 for $2; all: $ARGUMENTS\n',
    );
    await writeFile(join(home, 'prompts', 'status.md'), 'never used: status is built in\n');
    await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-4.1-mini' });
  });
  afterEach(async () => {
    await harness.close();
  });

  it('expands the project’s /review in cody chat; the expansion is what is sent and recorded', async () => {
    const run = await harness.shell(`cd proj && $CODY chat '/review src/a.ts "bugs and style"'`);
    expect(run.code, run.stderr).toBe(0);
    const request = harness.server.modelRequests('openai-chat').at(-1);
    if (!request) throw new Error('no request');
    expect(historyLines(request).at(-1)).toBe(
      'user: Review src/a.ts for bugs and style; all: src/a.ts "bugs and style"',
    );
    const id = JSON.parse((await harness.cody(['list', '--json'])).stdout)[0].id as string;
    // Outside the project, the user's own file is the command.
    expect((await harness.cody(['chat', '/review b.ts'])).code).toBe(0);
    const outside = harness.server.modelRequests('openai-chat').at(-1);
    if (!outside) throw new Error('no request');
    expect(historyLines(outside).at(-1)).toBe('user: USER review of b.ts');
    const users = linesOfType(await harness.rollout(id), 'event_msg')
      .map((line) => line.payload)
      .filter((payload) => payload.type === 'user_message');
    expect(users.map((payload) => payload.message)).toEqual([
      'Review src/a.ts for bugs and style; all: src/a.ts "bugs and style"',
      'USER review of b.ts',
    ]);
  });

  it('refuses an unknown command and a built-in name, sending nothing; a path is a message', async () => {
    const unknown = await harness.cody(['chat', '/nosuch thing']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command /nosuch');
    const builtIn = await harness.cody(['chat', '/status']);
    expect(builtIn.code).toBe(2);
    expect(harness.server.modelRequests()).toHaveLength(0);
    const path = await harness.cody(['chat', '/usr/bin is on my PATH?']);
    expect(path.code, path.stderr).toBe(0);
    const request = harness.server.modelRequests().at(-1);
    if (!request) throw new Error('no request');
    expect(historyLines(request).at(-1)).toBe('user: /usr/bin is on my PATH?');
  });
});
