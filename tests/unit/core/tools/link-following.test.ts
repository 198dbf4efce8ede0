/**
 * Issue 36 §4: with a committed symlink `docs -> OUTSIDE`, the reads that follow links as they recurse
 * (`grep -R`, `rg -L`, `find -L`, `ls -LR`, `du -L`…) and any read naming a path through the link
 * (`git diff --no-index a.txt docs/secret.txt`, `grep -r x *`) ask like a read outside: refused under
 * read-only, asked under every other policy, sandbox or not. The recursive reads that stay safe are run
 * for real: they print nothing from behind the link.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_POLICIES } from '../../../../src/core/tools/policy.js';
import { createToolRuntime, type CodyToolRuntime } from '../../../../src/core/tools/runtime.js';

/** Each asks under ask, auto-edit and full-auto (with a sandbox too) and is refused under read-only. */
const FOLLOWING = [
  'grep -R TOPSECRET .',
  'grep -rnR TOPSECRET .',
  'grep --dereference-recursive TOPSECRET .',
  'egrep -R TOPSECRET .',
  'rg -L TOPSECRET',
  'rg --follow TOPSECRET .',
  'find -L . -name secret.txt',
  'find . -follow -name secret.txt',
  'ls -LR',
  'ls -R --dereference .',
  'du -L .',
  'du --dereference -a .',
  'tree -l',
  'cp -rL . ../copy',
  'diff -r . ../other',
  'git diff --no-index a.txt docs/secret.txt',
  'git log -p -- docs/secret.txt',
  'cat docs/secret.txt',
  'grep -r TOPSECRET *',
  'grep -r TOPSECRET d*',
  'head docs/*',
  'bash -c "grep -R TOPSECRET ."',
];

/** Recursive reads that do not follow links: safe, and what they print has nothing from OUTSIDE. */
const SAFE = [
  'grep -r TOPSECRET .',
  'grep -rn TOPSECRET',
  'rg TOPSECRET',
  'rg -uuu TOPSECRET .',
  'find . -name secret.txt',
  'ls -R',
  'du -a .',
  'git show HEAD:a.txt',
];

describe('reads that follow a symlink out of the workspace (issue 36 §4)', () => {
  let root: string;
  let outside: string;
  let counter = 0;
  const runtimes = new Map<string, CodyToolRuntime>();

  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'cody-links-')));
    outside = await realpath(await mkdtemp(join(tmpdir(), 'cody-links-out-')));
    await writeFile(join(outside, 'secret.txt'), 'TOPSECRET\n');
    execFileSync('git', ['init', '-q', root]);
    await writeFile(join(root, 'a.txt'), 'a\n');
    await symlink(outside, join(root, 'docs'));
    const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { stdio: 'ignore' });
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'docs is a link');
    for (const sandboxed of [false, true])
      for (const policy of APPROVAL_POLICIES)
        runtimes.set(
          `${policy}/${String(sandboxed)}`,
          createToolRuntime({
            cwd: root,
            policy,
            detectSandbox: () =>
              sandboxed ? { available: true, bwrap: '/usr/bin/bwrap' } : { available: false, why: 'none' },
          }),
        );
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  const call = (command: string) => ({
    type: 'function_call' as const,
    name: 'shell',
    arguments: JSON.stringify({ command }),
    call_id: `call_${(counter += 1)}`,
  });
  const verdicts = async (command: string) => {
    const result: Record<string, string> = {};
    for (const [key, tools] of runtimes) result[key] = (await tools.decide(call(command))).kind;
    return result;
  };

  for (const command of FOLLOWING)
    it(`asks like a read outside: ${command}`, async () => {
      const expected: Record<string, string> = {};
      for (const key of runtimes.keys()) expected[key] = key.startsWith('read-only/') ? 'deny' : 'ask';
      expect(await verdicts(command)).toEqual(expected);
    });

  it('says what it reads', async () => {
    const decision = await runtimes.get('ask/false')?.decide(call('grep -R TOPSECRET .'));
    expect(decision?.kind === 'ask' && decision.reason).toBe(
      'reads what grep -R reaches through symbolic links, outside the workspace: grep -R TOPSECRET .',
    );
    const git = await runtimes.get('ask/false')?.decide(call('git diff --no-index a.txt docs/secret.txt'));
    expect(git?.kind === 'ask' && git.reason).toContain(`reads ${outside}/secret.txt, outside the workspace`);
  });

  for (const command of SAFE)
    it(`runs unasked under read-only and prints nothing from behind the link: ${command}`, async () => {
      const tools = runtimes.get('read-only/false');
      if (!tools) throw new Error('no runtime');
      const item = call(command);
      expect((await tools.decide(item)).kind).toBe('allow');
      const result = await tools.run(item, {});
      expect(result.output).toMatch(/Exit code: [01]/);
      expect(result.output).not.toContain('TOPSECRET\n');
      expect(result.output).not.toMatch(/docs\/secret\.txt|^secret\.txt/m);
    });
});
