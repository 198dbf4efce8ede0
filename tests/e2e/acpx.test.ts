/**
 * `cody acp` driven by a headless ACP client nobody here wrote: acpx (0.1.13, the last release whose
 * engines allow Node 20), as an editor would drive it — a prompt, a file change approved through ACP's
 * permission request, the reply streamed back and the turn's stop reason (issue 30).
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CODY_BIN, createHarness, REPO_ROOT, type Harness } from './harness.js';
import { makeRepo } from './tool-fixtures.js';

const ACPX = join(REPO_ROOT, 'node_modules', 'acpx', 'dist', 'cli.js');

describe('cody acp under acpx', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
    await makeRepo(harness.home);
    await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-4.1-mini' });
  });
  afterEach(() => harness.close());

  it('runs a prompt with an approved file change and ends the turn', async () => {
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [
          { name: 'write_file', arguments: { path: 'from-acpx.txt', content: 'written via acpx\n' } },
        ],
      },
      { type: 'reply', text: 'The file is written.' },
    );
    const agent = `${process.execPath} ${CODY_BIN} acp`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        ACPX,
        '--agent',
        agent,
        '--cwd',
        harness.home,
        '--approve-all',
        '--format',
        'text',
        'exec',
        'write it',
      ],
      { cwd: harness.home, env: harness.env, timeout: 60_000 },
    );
    expect(stdout).toContain('The file is written.');
    expect(stdout).toMatch(/\[done\] end_turn/);
    expect(await readFile(join(harness.home, 'from-acpx.txt'), 'utf8')).toBe('written via acpx\n');
    // The change was asked about over ACP (the policy is ask) and the model heard the tool's answer.
    const last = JSON.stringify(harness.server.modelRequests('openai-chat').at(-1)?.body);
    expect(last).toContain('write it');
    expect(last).toContain('from-acpx.txt');
  }, 90_000);
});
