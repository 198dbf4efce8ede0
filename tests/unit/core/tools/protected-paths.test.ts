/**
 * Writes under `.git` (or the git directory a `.git` file points to) and `.cody` ask under every policy
 * but an explicit confinement bypass, name what they touch, and never offer "always" (issue 36).
 */
import { execFileSync } from 'node:child_process';
import { link, mkdir, mkdtemp, readFile, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alwaysScopeOf } from '../../../../src/core/tools/approval-scope.js';
import { decidePolicy, type Access, type ApprovalPolicy } from '../../../../src/core/tools/policy.js';
import { createToolRuntime, type CodyToolRuntime } from '../../../../src/core/tools/runtime.js';
import { openWorkspace } from '../../../../src/core/tools/workspace.js';
import type { FunctionCallItem } from '../../../../src/protocol/index.js';

let counter = 0;
const call = (name: string, args: Record<string, unknown>): FunctionCallItem => {
  counter += 1;
  return { type: 'function_call', name, arguments: JSON.stringify(args), call_id: `p${counter}` };
};
const patch = (...lines: string[]): { input: string } => ({
  input: ['*** Begin Patch', ...lines, '*** End Patch'].join('\n'),
});
const CONFIG = 'edit .git/config — repository configuration';

describe('the policy for a protected write', () => {
  const access: Access = {
    kind: 'write',
    outside: [],
    summary: 'edit .git/config',
    protectedPaths: ['.git/config — repository configuration'],
  };
  const policies: ApprovalPolicy[] = ['ask', 'auto-edit', 'full-auto'];
  for (const policy of policies)
    it(`${policy}: asks, even after "always", and names the file`, () => {
      for (const remembered of [false, true])
        expect(decidePolicy(access, { policy, remembered, sandbox: true })).toEqual({
          kind: 'ask',
          reason: CONFIG,
        });
    });

  it('read-only refuses; only the explicit bypass lets it run as any other edit', () => {
    expect(decidePolicy(access, { policy: 'read-only', remembered: false }).kind).toBe('deny');
    expect(decidePolicy(access, { policy: 'auto-edit', remembered: false, unconfined: true }).kind).toBe(
      'allow',
    );
    expect(decidePolicy(access, { policy: 'ask', remembered: false, unconfined: true }).kind).toBe('ask');
    expect(decidePolicy(access, { policy: 'read-only', remembered: false, unconfined: true }).kind).toBe(
      'deny',
    );
  });
});

describe('protected writes in the tool runtime', () => {
  let root: string;
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'cody-protected-')));
    execFileSync('git', ['init', '-q', root]);
    await writeFile(join(root, 'app.js'), 'one\n');
    await mkdir(join(root, 'sub'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });
  const runtime = (policy: ApprovalPolicy): CodyToolRuntime =>
    createToolRuntime({ cwd: root, policy, env: { PATH: '' } });
  /** The question under `policy`, and that it offers no "always" even once "always" was answered. */
  const question = async (policy: ApprovalPolicy, item: FunctionCallItem): Promise<string> => {
    const tools = runtime(policy);
    const decision = await tools.decide(item);
    if (decision.kind !== 'ask') return decision.kind;
    expect(decision.alwaysScope).toBeUndefined();
    tools.rememberApproval(item);
    expect(await tools.decide({ ...item, call_id: `${item.call_id}-again` })).toMatchObject({ kind: 'ask' });
    return decision.reason;
  };

  it('write_file, edit_file and apply_patch on .git/config ask under auto-edit and full-auto, however spelled', async () => {
    const calls = [
      call('write_file', { path: '.git/config', content: '[core]\n\tfsmonitor = "touch /tmp/x; echo"\n' }),
      call('edit_file', { path: './.git/config', old_text: 'bare', new_text: 'bare' }),
      call('apply_patch', patch('*** Update File: sub/../.git/config', '@@', '+[core]')),
    ];
    for (const item of calls)
      for (const policy of ['ask', 'auto-edit', 'full-auto'] as const)
        expect(await question(policy, item)).toBe(CONFIG);
    expect(await question('read-only', calls[0] as FunctionCallItem)).toBe('deny');
    // The control: an ordinary file still runs unasked under auto-edit.
    expect(await question('auto-edit', call('write_file', { path: 'app.js', content: 'two\n' }))).toBe(
      'allow',
    );
  });

  it('nothing was written while it asked', async () => {
    const before = await readFile(join(root, '.git/config'), 'utf8');
    const tools = runtime('full-auto');
    const item = call('write_file', { path: '.git/config', content: 'x' });
    expect((await tools.decide(item)).kind).toBe('ask');
    expect(await readFile(join(root, '.git/config'), 'utf8')).toBe(before);
  });

  it('hooks, a move into .git, a nested repository, .cody and case or invisible variants ask and say what they are', async () => {
    const ask = (item: FunctionCallItem): Promise<string> => question('auto-edit', item);
    expect(await ask(call('write_file', { path: '.git/hooks/pre-commit', content: '#!/bin/sh\n' }))).toBe(
      'edit .git/hooks/pre-commit — a git hook (a program git runs)',
    );
    expect(
      await ask(
        call(
          'apply_patch',
          patch('*** Update File: app.js', '*** Move to: .git/hooks/post-checkout', '@@', '-one', '+two'),
        ),
      ),
    ).toBe('edit .git/hooks/post-checkout — a git hook (a program git runs)');
    expect(await ask(call('apply_patch', patch('*** Add File: .git/info/attributes', '+* filter=x')))).toBe(
      'edit .git/info/attributes — git attributes (which filters git runs)',
    );
    expect(await ask(call('write_file', { path: 'sub/.git/config', content: '' }))).toBe(
      'edit sub/.git/config — repository configuration',
    );
    expect(await ask(call('write_file', { path: '.cody/prompts/x.md', content: 'hi' }))).toBe(
      "edit .cody/prompts/x.md — Cody's project settings",
    );
    expect(await ask(call('write_file', { path: '.GIT/config', content: '' }))).toBe(
      'edit .GIT/config — repository configuration',
    );
    expect(await ask(call('write_file', { path: '.g\u200cit/config', content: '' }))).toMatch(
      /repository configuration$/,
    );
    expect(await ask(call('write_file', { path: 'sub/.git', content: 'gitdir: /tmp/elsewhere\n' }))).toBe(
      'edit sub/.git — where git finds the repository',
    );
  });

  it('a symlink into .git, a symlinked file and a hard link to the config ask', async () => {
    await symlink(join(root, '.git'), join(root, 'meta'));
    await symlink(join(root, '.git/config'), join(root, 'notes.txt'));
    await link(join(root, '.git/config'), join(root, 'copy.ini'));
    expect(await question('auto-edit', call('write_file', { path: 'meta/config', content: '' }))).toBe(
      CONFIG,
    );
    expect(
      await question(
        'auto-edit',
        call('edit_file', { path: 'notes.txt', old_text: '[core]', new_text: '[core]\n\tx = 1' }),
      ),
    ).toBe(CONFIG);
    expect(await question('auto-edit', call('write_file', { path: 'copy.ini', content: '' }))).toBe(
      'edit copy.ini — repository configuration (a hard link to it)',
    );
  });

  it('the git directory a .git file points to is protected, whatever its name', async () => {
    await rename(join(root, '.git'), join(root, 'repo-data'));
    await writeFile(join(root, '.git'), 'gitdir: repo-data\n');
    expect(await question('full-auto', call('write_file', { path: 'repo-data/config', content: '' }))).toBe(
      'edit repo-data/config — repository configuration',
    );
    expect(
      await question('full-auto', call('write_file', { path: 'repo-data/hooks/pre-commit', content: '' })),
    ).toBe('edit repo-data/hooks/pre-commit — a git hook (a program git runs)');
  });

  it('no "always" scope is ever computed for a protected path', () => {
    const workspace = openWorkspace(root);
    expect(
      alwaysScopeOf('write_file', { path: '.git/config', content: '' }, workspace, false),
    ).toBeUndefined();
    expect(
      alwaysScopeOf('edit_file', { path: '.cody/x', old_text: 'a', new_text: 'b' }, workspace, false),
    ).toBeUndefined();
    expect(
      alwaysScopeOf('apply_patch', patch('*** Add File: .git/hooks/x', '+y'), workspace, false),
    ).toBeUndefined();
    expect(alwaysScopeOf('write_file', { path: 'app.js', content: '' }, workspace, false)).toBeDefined();
  });
});
