/**
 * Where the work is (issue 22, part 6) through the built `cody list` (the bare bundle) and `cody list
 * --all`: the current workspace's conversations (git root, else the directory), every one with --all,
 * this workspace's first and each row naming its workspace.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';

describe('cody list by workspace', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
    await mkdir(join(harness.home, 'alpha', 'src'), { recursive: true });
    await mkdir(join(harness.home, 'beta'), { recursive: true });
    expect((await harness.shell('git init -q alpha')).code).toBe(0);
    await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-4.1-mini' });
    for (const [directory, message] of [
      ['alpha/src', 'ALPHA-ONE'],
      ['beta', 'BETA-ONE'],
      ['alpha', 'ALPHA-TWO'],
    ]) {
      const run = await harness.shell(`cd ${directory} && $CODY new >/dev/null && $CODY chat ${message}`);
      expect(run.code, run.stderr).toBe(0);
    }
  });
  afterEach(async () => {
    await harness.close();
  });

  it('lists the workspace’s conversations, and says how many are elsewhere', async () => {
    const inSub = await harness.shell('cd alpha/src && $CODY list');
    expect(inSub.code, inSub.stderr).toBe(0);
    expect(inSub.stdout).toContain('ALPHA-ONE');
    expect(inSub.stdout).toContain('ALPHA-TWO');
    expect(inSub.stdout).not.toContain('BETA-ONE');
    expect(inSub.stdout).toContain('1 more in other workspaces: cody list --all');
    const json = JSON.parse((await harness.shell('cd beta && $CODY list --json')).stdout) as Array<{
      preview: string;
      cwd: string;
    }>;
    expect(json.map((row) => row.preview)).toEqual(['BETA-ONE']);
    expect(json[0]?.cwd).toMatch(/\/beta$/);
  });

  it('--all lists every one, this workspace’s first, each with its workspace', async () => {
    const all = await harness.shell('cd beta && $CODY list --all');
    expect(all.code, all.stderr).toBe(0);
    const rows = all.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/WORKSPACE/);
    expect(rows[1]).toMatch(/~\/beta\s+BETA-ONE/);
    expect(rows[2]).toMatch(/~\/alpha\s+ALPHA-TWO/);
    expect(rows[3]).toMatch(/~\/alpha\/src\s+ALPHA-ONE/);
    expect(rows).toHaveLength(4);
  });
});
