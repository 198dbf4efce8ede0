/**
 * Issue 19 §3 and §4 through the built `cody`: tools never see the user's keys (not in the tool's
 * output, the next request, the rollout or the screen); without a sandbox, full-auto does not run a
 * command that reaches outside the workspace and says so in `cody status`; a safe read runs unasked.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, FAKE_KEYS, type Harness } from './harness.js';
import { makeRepo } from './tool-fixtures.js';
import { toolExchanges } from './wire-tools.js';

const EXTRA_SECRETS = {
  MY_SECRET: 'my-secret-value-0004',
  GITHUB_TOKEN: 'ghp_test-token-0005',
  DB_PASSWORD: 'db-password-0006',
  OPENROUTER_API_KEY: 'sk-or-test-0007',
} as const;

describe('shell safety end to end', () => {
  let harness: Harness;
  let outside: string;
  beforeEach(async () => {
    harness = await createHarness();
    outside = await realpath(await mkdtemp(join(tmpdir(), 'cody-x-')));
    await makeRepo(harness.home);
    // The same on every machine: no sandbox, whether or not bubblewrap is installed.
    await harness.writeConfig({ sandbox: { enabled: false } });
  });
  afterEach(async () => {
    await harness.close();
    await rm(outside, { recursive: true, force: true });
  });

  const activeId = async (): Promise<string> =>
    (await readFile(join(harness.env.CODY_HOME ?? '', 'active'), 'utf8')).trim();

  it('env through the shell tool shows no key: not in its output, the next request, the rollout or the screen', async () => {
    harness.server.enqueue(
      { type: 'reply', toolCalls: [{ id: 'call_env', name: 'shell', arguments: { command: 'env' } }] },
      { type: 'reply', text: 'Seen the environment.' },
    );
    const run = await harness.cody(['chat', '--approval', 'full-auto', 'print the environment'], {
      env: { ...EXTRA_SECRETS, VISIBLE_SETTING: 'plain-value-0008' },
    });
    expect(run.code, run.stderr).toBe(0);
    const second = harness.server.modelRequests()[1];
    if (!second) throw new Error('no second request');
    const output = toolExchanges(second).outputs[0]?.text ?? '';
    // The command ran and its output reached the model: only the secrets are missing.
    expect(output).toMatch(/^Exit code: 0\n/);
    expect(output).toContain('VISIBLE_SETTING=plain-value-0008');
    const secrets = [...Object.values(FAKE_KEYS), ...Object.values(EXTRA_SECRETS)];
    const names = [...Object.keys(FAKE_KEYS), ...Object.keys(EXTRA_SECRETS)];
    const rollout = (await harness.rollout(await activeId())).join('\n');
    const body = JSON.stringify(second.body);
    for (const text of [output, body, rollout, run.stdout, run.stderr]) {
      for (const secret of secrets) expect(text).not.toContain(secret);
      for (const name of names) expect(text).not.toContain(`${name}=`);
    }
  });

  it('full-auto without a sandbox: cd outside && rm -rf does not run, nor find -delete, tee or cat /etc/passwd', async () => {
    await mkdir(join(outside, 'victim'));
    await writeFile(join(outside, 'victim/keep.txt'), 'precious\n');
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [
          { id: 'call_cd', name: 'shell', arguments: { command: `cd ${outside} && rm -rf victim` } },
          { id: 'call_find', name: 'shell', arguments: { command: `find ${outside}/victim -delete` } },
          { id: 'call_tee', name: 'shell', arguments: { command: `echo hi | tee ${outside}/out` } },
          { id: 'call_cat', name: 'shell', arguments: { command: 'cat /etc/passwd' } },
          { id: 'call_ok', name: 'shell', arguments: { command: 'touch made-inside.txt' } },
        ],
      },
      { type: 'reply', text: 'Tried.' },
    );
    const run = await harness.cody(['chat', '--approval', 'full-auto', 'clean up']);
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(join(outside, 'victim/keep.txt'), 'utf8')).toBe('precious\n');
    expect(existsSync(join(outside, 'out'))).toBe(false);
    // Inside the workspace full-auto still runs freely.
    expect(existsSync(join(harness.home, 'made-inside.txt'))).toBe(true);
    const second = harness.server.modelRequests()[1];
    if (!second) throw new Error('no second request');
    const outputs = toolExchanges(second).outputs.map((output) => output.text);
    expect(outputs[0]).toMatch(/needs approval .*outside the workspace, with no sandbox/);
    expect(outputs[1]).toMatch(/needs approval .*outside the workspace, with no sandbox/);
    expect(outputs[2]).toMatch(/needs approval .*outside the workspace, with no sandbox/);
    expect(outputs[3]).toMatch(/needs approval .*reads \/etc\/passwd, outside the workspace/);
    expect(outputs[3]).not.toContain('root:');
    expect(outputs[4]).toMatch(/^Exit code: 0\n/);

    // A flag's full-auto is for its run only (issue 19 §2): the conversation is back to ask.
    expect((await harness.cody(['status'])).stdout).toMatch(/^Approval: +ask /m);
    // A conversation under full-auto (a new one, with config's default full-auto) says there is no
    // sandbox, every time it is asked.
    await harness.writeConfig({ sandbox: { enabled: false }, approval: 'full-auto' });
    expect((await harness.cody(['new'])).code).toBe(0);
    for (let time = 0; time < 2; time += 1) {
      const status = await harness.cody(['status']);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toContain('Sandbox:      none\n');
      expect(status.stdout).toMatch(/^Warning: {6}full-auto without a sandbox: commands run unconfined/m);
    }
    const json = JSON.parse((await harness.cody(['status', '--json'])).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ approvalPolicy: 'full-auto', sandbox: 'none' });
    expect(String(json.warning)).toMatch(/^full-auto without a sandbox/);
  });

  it('--dangerously-skip-confinement: full-auto without a sandbox runs an interpreter unasked, and says so loudly', async () => {
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [
          {
            id: 'call_py',
            name: 'shell',
            arguments: { command: `python3 -c "open('py-made.txt', 'w').write('x')"` },
          },
        ],
      },
      { type: 'reply', text: 'Ran it.' },
    );
    const run = await harness.cody([
      'chat',
      '--approval',
      'full-auto',
      '--dangerously-skip-confinement',
      'run python',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(harness.home, 'py-made.txt'))).toBe(true);
    expect(run.stderr).toContain(
      '⚠ full-auto without a sandbox and with confinement off (--dangerously-skip-confinement)',
    );
  });

  it('ls and git status run under ask without a question (no terminal could answer one)', async () => {
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [
          { id: 'call_ls', name: 'shell', arguments: { command: 'ls' } },
          { id: 'call_git', name: 'shell', arguments: { command: 'git status --short' } },
          { id: 'call_touch', name: 'shell', arguments: { command: 'touch asked.txt' } },
        ],
      },
      { type: 'reply', text: 'Listed.' },
    );
    const run = await harness.cody(['chat', '--approval', 'ask', 'what is here?']);
    expect(run.code, run.stderr).toBe(0);
    const second = harness.server.modelRequests()[1];
    if (!second) throw new Error('no second request');
    const outputs = toolExchanges(second).outputs.map((output) => output.text);
    expect(outputs[0]).toMatch(/^Exit code: 0\n[\s\S]*\na\.txt\n/);
    expect(outputs[1]).toMatch(/^Exit code: 0\n[\s\S]*\?\? untracked-before\.txt/);
    // A command off the list still asks, and with nobody to answer it is declined.
    expect(outputs[2]).toMatch(/needs approval .*touch asked\.txt/);
    expect(existsSync(join(harness.home, 'asked.txt'))).toBe(false);
    expect(run.stderr).not.toMatch(/Declined .*: shell \{"command":"(ls|git status)/);
    const status = await harness.cody(['status']);
    expect(status.stdout).not.toContain('Warning:');
  });
});
