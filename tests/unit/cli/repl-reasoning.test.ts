/**
 * `/reasoning LEVEL` on a model that cannot take it warns at once, in core's words (the catalogue
 * knows), instead of saying ✓ and warning only at the next turn (issue 29); a model that takes it says ✓.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chalk } from 'chalk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reasoningCommand } from '../../../src/cli/repl-reasoning.js';
import { createCody, type Cody } from '../../../src/index.js';

describe('/reasoning', () => {
  let home: string;
  let cody: Cody;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'cody-repl-reasoning-'));
    await writeFile(join(home, 'config.json'), '{}');
    cody = createCody({ home, cwd: home, env: { OPENAI_API_KEY: 'sk-test' } });
  });
  afterEach(async () => {
    await cody.close();
    await rm(home, { recursive: true, force: true });
  });

  const run = async (model: string, level: string): Promise<string> => {
    const session = await cody.create({ provider: 'openai', api: 'chat', model });
    let said = '';
    reasoningCommand(
      level,
      { session, reasoningChosen: () => undefined },
      new Chalk({ level: 0 }),
      (text) => {
        said += text;
      },
    );
    return said;
  };

  it('warns at once on a model that does not reason, and core says so in the status', async () => {
    expect(await run('gpt-4.1-mini', 'high')).toBe(
      "⚠ Model 'gpt-4.1-mini' does not reason: the reasoning setting 'high' is ignored (set models.gpt-4.1-mini.reasoning to true if it does).\n",
    );
    const status = (await cody.create({ provider: 'openai', api: 'chat', model: 'gpt-4.1-mini' })).status();
    expect(status).toMatchObject({ modelReasons: false });
    expect(status).not.toHaveProperty('reasoningIgnored');
  });

  it('says ✓ on a model that takes the level', async () => {
    expect(await run('gpt-5.1', 'high')).toBe(
      '✓ Reasoning high for this conversation (kept with its next turn)\n',
    );
    const status = (await cody.create({ provider: 'openai', api: 'chat', model: 'gpt-5.1' })).status();
    expect(status).toMatchObject({ modelReasons: true });
  });
});
