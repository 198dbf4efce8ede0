import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expandMessage } from '../../../../src/core/conversation/prompt-expansion.js';
import { SLASH_COMMANDS } from '../../../../src/cli/repl-input.js';
import {
  expandPromptBody,
  loadPromptCommands,
  MAX_PROMPT_COMMAND_BYTES,
  parseCommandMessage,
  parseFrontMatter,
  RESERVED_COMMAND_NAMES,
} from '../../../../src/core/project/prompt-commands.js';

describe('prompt commands', () => {
  it('reserves every built-in REPL command, so no prompt file shadows one', () => {
    for (const [name] of SLASH_COMMANDS) expect(RESERVED_COMMAND_NAMES).toContain(name.slice(1));
  });

  it('replaces $ARGUMENTS and $1…$9 (quoted words whole, missing ones empty)', () => {
    expect(expandPromptBody('[$1] [$2] [$3] <$ARGUMENTS>', 'a.ts "two words"')).toBe(
      '[a.ts] [two words] [] <a.ts "two words">',
    );
  });

  it('reads the description from front matter and keeps the body', () => {
    expect(parseFrontMatter('---\ndescription: "Review a file"\n---\nBody $1\n')).toEqual({
      description: 'Review a file',
      body: 'Body $1\n',
    });
    expect(parseFrontMatter('No front matter')).toEqual({ body: 'No front matter' });
  });

  it('takes a first word with no further slash as a command, a path as a message', () => {
    expect(parseCommandMessage('/review src/a.ts')).toEqual({ name: 'review', argumentsText: 'src/a.ts' });
    expect(parseCommandMessage('/usr/bin is on my PATH?')).toBeUndefined();
    expect(parseCommandMessage('hello /review')).toBeUndefined();
  });
});

describe('prompt files Cody reads on its own (issue 36.5)', () => {
  let directory: string;
  let home: string;
  let workspace: string;
  let prompts: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'cody-prompts-'));
    home = join(directory, 'home');
    workspace = join(directory, 'workspace');
    prompts = join(workspace, '.cody', 'prompts');
    await mkdir(join(home, 'prompts'), { recursive: true });
    await mkdir(join(workspace, '.git'), { recursive: true });
    await mkdir(prompts, { recursive: true });
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  const refusal = async (name: string): Promise<string | undefined> =>
    (await loadPromptCommands(home, workspace)).get(name)?.refused;

  it('refuses a FIFO at once, and sending it says why and sends nothing', async () => {
    execFileSync('mkfifo', [join(prompts, 'pipe.md')]);
    const started = Date.now();
    expect(await refusal('pipe')).toBe(`${join(prompts, 'pipe.md')} is a FIFO, not a regular file`);
    await expect(
      expandMessage('/pipe now', { home, commands: () => loadPromptCommands(home, workspace) }),
    ).rejects.toThrow(`/pipe cannot run: ${join(prompts, 'pipe.md')} is a FIFO, not a regular file`);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it("refuses a project link to /dev/zero as outside the workspace, and the user's as a device", async () => {
    await symlink('/dev/zero', join(prompts, 'zero.md'));
    expect(await refusal('zero')).toMatch(/zero\.md links to \/dev\/zero, outside .*workspace$/);
    await symlink('/dev/zero', join(home, 'prompts', 'userzero.md'));
    expect(await refusal('userzero')).toMatch(/userzero\.md is a character device, not a regular file$/);
  });

  it("refuses a project link out of the workspace, without hiding the user's own command", async () => {
    await writeFile(join(directory, 'secret.txt'), 'FAKE-SECRET');
    await symlink(join(directory, 'secret.txt'), join(prompts, 'leak.md'));
    await symlink(join(directory, 'secret.txt'), join(prompts, 'review.md'));
    await writeFile(join(home, 'prompts', 'review.md'), 'Review $1');
    const commands = await loadPromptCommands(home, workspace);
    expect(commands.get('leak')).toMatchObject({ body: '', refused: expect.stringMatching(/outside/) });
    expect(commands.get('review')).toMatchObject({ scope: 'user', body: 'Review $1' });
    expect(JSON.stringify([...commands.values()])).not.toContain('FAKE-SECRET');
  });

  it('refuses a prompt file over its cap without reading it', async () => {
    await writeFile(join(prompts, 'huge.md'), 'HUGE');
    await truncate(join(prompts, 'huge.md'), 4 * 1024 * 1024 * 1024);
    await writeFile(join(prompts, 'fits.md'), 'x'.repeat(MAX_PROMPT_COMMAND_BYTES));
    expect(await refusal('huge')).toMatch(/huge\.md is over the 65,536-byte limit$/);
    expect((await loadPromptCommands(home, workspace)).get('fits')?.body).toHaveLength(
      MAX_PROMPT_COMMAND_BYTES,
    );
  });
});
