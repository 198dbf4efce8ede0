/**
 * "Always" has a stated, narrow scope (issue 19 §2): computed in core, named on the question, and a
 * later call outside it asks again. Deleting a file never gets one.
 */
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alwaysScopeOf, ApprovalMemory } from '../../../../src/core/tools/approval-scope.js';
import type { ApprovalPolicy } from '../../../../src/core/tools/policy.js';
import { createToolRuntime, type CodyToolRuntime } from '../../../../src/core/tools/runtime.js';
import { openWorkspace, type Workspace } from '../../../../src/core/tools/workspace.js';
import type { FunctionCallItem } from '../../../../src/protocol/index.js';

let counter = 0;
function call(name: string, args: Record<string, unknown>): FunctionCallItem {
  counter += 1;
  return { type: 'function_call', name, arguments: JSON.stringify(args), call_id: `call_${counter}` };
}

const patch = (...lines: string[]): { input: string } => ({
  input: ['*** Begin Patch', ...lines, '*** End Patch'].join('\n'),
});

describe('the scope of an "always" answer', () => {
  let root: string;
  let workspace: Workspace;
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'cody-scope-')));
    workspace = openWorkspace(root);
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });
  const scope = (tool: string, args: Record<string, unknown>, external = false) =>
    alwaysScopeOf(tool, args, workspace, external)?.scope;

  it.each([
    ['git status', 'git status'],
    ['git status --short', 'git status'],
    ['git push origin main', 'git push'],
    ['npm test -- --grep a', 'npm test'],
    ['ls -la', 'ls'],
    ['npm test && curl x', 'npm test && curl x'],
    // A program without subcommands: its second word is a file, so "always" covers the program.
    ['touch x1.txt', 'touch'],
    ['mkdir -p src/lib', 'mkdir'],
    ['cp a.txt b.txt', 'cp'],
    ['./touch x1.txt', './touch x1.txt'],
    ['mv a.txt b.txt', 'mv a.txt'],
    ['sort a.txt', 'sort a.txt'],
  ])('shell %j → always for: %s', (command, label) => {
    expect(scope('shell', { command })).toEqual({ kind: 'command', label });
  });

  it.each([
    'rm a.txt',
    'rm -rf build',
    '/bin/rm x',
    'git rm README.md',
    'git clean -fd',
    'find . -name "*.o" -delete',
    'ls && rm x',
    'unlink x',
  ])('shell %j deletes files: no scope, it asks every time', (command) => {
    expect(scope('shell', { command })).toBeUndefined();
  });

  it('file tools: the same tool on the same file', () => {
    expect(scope('edit_file', { path: 'app.js', old_text: 'a', new_text: 'b' })).toEqual({
      kind: 'file',
      label: 'edits to app.js',
    });
    expect(scope('write_file', { path: 'src/x.ts', content: '' })).toEqual({
      kind: 'file',
      label: 'writes to src/x.ts',
    });
    expect(scope('apply_patch', patch('*** Update File: app.js', '@@', '-a', '+b'))).toEqual({
      kind: 'file',
      label: 'patches to app.js',
    });
    expect(scope('apply_patch', patch('*** Add File: a.txt', '+x', '*** Add File: b.txt', '+y'))).toEqual({
      kind: 'file',
      label: 'patches to a.txt, b.txt',
    });
  });

  it('a patch that deletes or moves a file, or does not parse, has no scope', () => {
    expect(scope('apply_patch', patch('*** Delete File: README.md'))).toBeUndefined();
    expect(
      scope('apply_patch', patch('*** Update File: a.txt', '*** Move to: b.txt', '@@', '-a', '+b')),
    ).toBeUndefined();
    expect(scope('apply_patch', { input: 'not a patch' })).toBeUndefined();
  });

  it('reads have no scope; an external tool is scoped to the same arguments', () => {
    expect(scope('read_file', { path: 'a.txt' })).toBeUndefined();
    expect(scope('deploy', { env: 'prod' }, true)).toEqual({
      kind: 'call',
      label: 'deploy with these arguments',
    });
    const memory = new ApprovalMemory();
    const first = alwaysScopeOf('deploy', { env: 'staging', force: false }, workspace, true);
    memory.remember(first ?? { scope: { kind: 'call', label: '' }, keys: [] });
    expect(memory.covers(alwaysScopeOf('deploy', { force: false, env: 'staging' }, workspace, true))).toBe(
      true,
    );
    expect(memory.covers(alwaysScopeOf('deploy', { env: 'prod', force: false }, workspace, true))).toBe(
      false,
    );
  });
});

describe('"always" in the tool runtime', () => {
  let root: string;
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'cody-scope-rt-')));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });
  const runtime = (policy: ApprovalPolicy = 'ask'): CodyToolRuntime =>
    createToolRuntime({ cwd: root, policy, env: { PATH: '' } });
  /** Asks, answers "always" with the scope the question named, and returns that scope. */
  const always = async (tools: CodyToolRuntime, item: FunctionCallItem) => {
    const decision = await tools.decide(item);
    expect(decision.kind).toBe('ask');
    tools.rememberApproval(item);
    return decision.kind === 'ask' ? decision.alwaysScope : undefined;
  };
  const kind = async (tools: CodyToolRuntime, tool: string, args: Record<string, unknown>) =>
    (await tools.decide(call(tool, args))).kind;

  it('git add, then git push asks again', async () => {
    const tools = runtime();
    expect(await always(tools, call('shell', { command: 'git add a.txt' }))).toEqual({
      kind: 'command',
      label: 'git add',
    });
    expect(await kind(tools, 'shell', { command: 'git add -A' })).toBe('allow');
    expect(await kind(tools, 'shell', { command: 'git push' })).toBe('ask');
    expect(await kind(tools, 'shell', { command: 'git add a.txt; git push' })).toBe('ask');
  });

  it('one apply_patch, then another file and a deletion ask again', async () => {
    const tools = runtime();
    expect(await always(tools, call('apply_patch', patch('*** Add File: app.js', '+one')))).toEqual({
      kind: 'file',
      label: 'patches to app.js',
    });
    // Only a change that applies is asked about (or allowed): the files are as the patches expect.
    await writeFile(join(root, 'app.js'), 'one\n');
    await writeFile(join(root, 'README.md'), 'read me\n');
    expect(await kind(tools, 'apply_patch', patch('*** Update File: app.js', '@@', '-one', '+two'))).toBe(
      'allow',
    );
    expect(await kind(tools, 'apply_patch', patch('*** Add File: other.js', '+x'))).toBe('ask');
    expect(await kind(tools, 'apply_patch', patch('*** Delete File: app.js'))).toBe('ask');
    expect(await kind(tools, 'apply_patch', patch('*** Delete File: README.md'))).toBe('ask');
    // The same file with another tool is outside the scope too.
    expect(await kind(tools, 'write_file', { path: 'app.js', content: 'x' })).toBe('ask');
  });

  it('edits to app.js cover later edits to app.js only', async () => {
    await writeFile(join(root, 'app.js'), 'a\nc\n');
    await writeFile(join(root, 'lib.js'), 'a\n');
    const tools = runtime();
    await always(tools, call('edit_file', { path: 'app.js', old_text: 'a', new_text: 'b' }));
    expect(await kind(tools, 'edit_file', { path: './app.js', old_text: 'c', new_text: 'd' })).toBe('allow');
    expect(await kind(tools, 'edit_file', { path: 'lib.js', old_text: 'a', new_text: 'b' })).toBe('ask');
  });

  it('a deletion asks under auto-edit and offers no "always"; full-auto runs it', async () => {
    await writeFile(join(root, 'README.md'), 'read me\n');
    const deletion = call('apply_patch', patch('*** Delete File: README.md'));
    const asked = await runtime('auto-edit').decide(deletion);
    expect(asked).toMatchObject({ kind: 'ask', reason: expect.stringMatching(/^deletes README\.md/) });
    expect(asked.kind === 'ask' && asked.alwaysScope).toBe(undefined);
    expect((await runtime('full-auto').decide(deletion)).kind).toBe('allow');
    expect((await runtime('read-only').decide(deletion)).kind).toBe('deny');
    const rm = await runtime('ask').decide(call('shell', { command: 'rm -rf build' }));
    expect(rm.kind === 'ask' && rm.alwaysScope).toBe(undefined);
  });

  it('touch x1.txt, then touch x2.txt runs; touch outside the workspace and rm still ask', async () => {
    const tools = runtime();
    expect(await always(tools, call('shell', { command: 'touch x1.txt' }))).toEqual({
      kind: 'command',
      label: 'touch',
    });
    expect(await kind(tools, 'shell', { command: 'touch x2.txt' })).toBe('allow');
    expect(await kind(tools, 'shell', { command: 'touch -c sub/x3.txt' })).toBe('allow');
    // The remembered key is the program; the policy still sees the paths (no sandbox here).
    const outside = await tools.decide(call('shell', { command: 'touch ../outside.txt' }));
    expect(outside).toMatchObject({ kind: 'ask', reason: expect.stringMatching(/outside the workspace/) });
    expect(outside.kind === 'ask' && outside.alwaysScope).toBe(undefined);
    expect(await kind(tools, 'shell', { command: 'touch /tmp/x.txt' })).toBe('ask');
    expect(await kind(tools, 'shell', { command: 'touch x.txt && rm y.txt' })).toBe('ask');
    const rm = await tools.decide(call('shell', { command: 'rm x1.txt' }));
    expect(rm.kind).toBe('ask');
    expect(rm.kind === 'ask' && rm.alwaysScope).toBe(undefined);
    expect(await kind(tools, 'shell', { command: 'mkdir build' })).toBe('ask');
  });

  it('"always" on a call offered no scope remembers nothing', async () => {
    const tools = runtime();
    const first = call('shell', { command: 'rm a.txt' });
    await tools.decide(first);
    tools.rememberApproval(first);
    expect(await kind(tools, 'shell', { command: 'rm a.txt' })).toBe('ask');
  });
});
