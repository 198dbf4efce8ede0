/**
 * /help (issue 29): the built-in /init is listed with the commands, not under "Your commands"; a prompt
 * file of yours is.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { helpText } from '../../../src/cli/repl-input.js';
import { UserCommands } from '../../../src/cli/repl-prompts.js';

describe('/help', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'cody-help-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });
  const help = async (): Promise<string[]> => {
    const commands = new UserCommands(join(root, 'home'), join(root, 'project'));
    await commands.refresh();
    return helpText(commands.entries('yours'), commands.entries('built-in')).split('\n');
  };

  it('lists the built-in /init among the commands; "Your commands" only for prompt files', async () => {
    let lines = await help();
    const init = lines.findIndex((line) => line.trimStart().startsWith('/init '));
    expect(init).toBeGreaterThan(lines.indexOf('Commands:'));
    expect(lines.some((line) => line.startsWith('Your commands'))).toBe(false);

    await mkdir(join(root, 'home', 'prompts'), { recursive: true });
    await writeFile(
      join(root, 'home', 'prompts', 'review.md'),
      '---\ndescription: review a file\n---\nReview $1\n',
    );
    lines = await help();
    const yours = lines.findIndex((line) =>
      line.startsWith('Your commands ($CODY_HOME/prompts, .cody/prompts)'),
    );
    expect(yours).toBeGreaterThan(0);
    expect(lines.findIndex((line) => line.trimStart().startsWith('/init '))).toBeLessThan(yours);
    expect(lines[yours + 1]).toMatch(/^ {2}\/review +review a file/);
  });
});
