import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { processEnded } from '../../../process-ended.js';
import { createToolRuntime, type CodyToolRuntime } from '../../../../src/core/tools/runtime.js';
import type { ApprovalPolicy } from '../../../../src/core/tools/policy.js';
import type { FunctionCallItem } from '../../../../src/protocol/index.js';
import { PNG_1X1_BASE64 } from '../../../e2e/image-fixtures.js';

let counter = 0;

function call(name: string, args: Record<string, unknown> | string): FunctionCallItem {
  counter += 1;
  return {
    type: 'function_call',
    name,
    arguments: typeof args === 'string' ? args : JSON.stringify(args),
    call_id: `call_${counter}`,
  };
}

describe('tool runtime', () => {
  let root: string;
  let outside: string;
  /** The PATH tools look programs up in: empty, so neither rg nor bwrap is found, wherever installed. */
  let emptyBin: string;
  const notices: string[] = [];
  const runtime = (policy: ApprovalPolicy = 'ask'): CodyToolRuntime =>
    createToolRuntime({
      cwd: root,
      policy,
      onNotice: (message) => notices.push(message),
      env: { PATH: emptyBin },
    });
  const decideAndRun = async (tools: CodyToolRuntime, item: FunctionCallItem, chunks: string[] = []) => {
    const decision = await tools.decide(item);
    return { decision, result: await tools.run(item, { onOutput: (chunk) => chunks.push(chunk) }) };
  };

  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'cody-rt-')));
    outside = await realpath(await mkdtemp(join(tmpdir(), 'cody-rt-out-')));
    emptyBin = join(outside, 'bin');
    await mkdir(emptyBin);
    execFileSync('git', ['init', '-q', root]);
    await writeFile(join(root, '.gitignore'), 'ignored/\n*.log\n');
    await mkdir(join(root, 'src'));
    await mkdir(join(root, 'ignored'));
    await writeFile(join(root, 'src/a.ts'), 'const needle = 1;\nconst other = 2;\n');
    await writeFile(join(root, 'src/b.js'), 'needle();\n');
    await writeFile(join(root, 'ignored/c.ts'), 'needle\n');
    await writeFile(join(root, 'debug.log'), 'needle\n');
    await writeFile(join(outside, 'secret.txt'), 'top secret\n');
    notices.length = 0;
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('read_file numbers lines and pages with offset/limit', async () => {
    await writeFile(
      join(root, 'n.txt'),
      Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join('\n'),
    );
    const tools = runtime();
    const { decision, result } = await decideAndRun(
      tools,
      call('read_file', { path: 'n.txt', offset: 3, limit: 2 }),
    );
    expect(decision).toEqual({ kind: 'allow' });
    expect(result.output).toBe('     3\tline 3\n     4\tline 4\n[… 6 more lines; continue with offset=5]');
  });

  it('reads outside the workspace ask (and are refused under read-only)', async () => {
    const item = call('read_file', { path: join(outside, 'secret.txt') });
    expect((await runtime('full-auto').decide(item)).kind).toBe('ask');
    const denied = await runtime('read-only').decide(item);
    expect(denied.kind).toBe('deny');
  });

  it('view_image follows the read rules and returns the image as content for the model', async () => {
    const png = Buffer.from(PNG_1X1_BASE64, 'base64');
    await writeFile(join(root, 'shot.png'), png);
    await writeFile(join(outside, 'away.png'), png);
    await writeFile(join(root, 'fake.png'), 'text');
    const tools = runtime();
    const { decision, result } = await decideAndRun(tools, call('view_image', { path: 'shot.png' }));
    expect(decision).toEqual({ kind: 'allow' });
    expect(result.status).toBe('ok');
    expect(result.content).toEqual([
      { type: 'input_text', text: result.output },
      { type: 'input_text', text: '<image name=shot.png>' },
      { type: 'input_image', image_url: `data:image/png;base64,${PNG_1X1_BASE64}` },
      { type: 'input_text', text: '</image>' },
    ]);
    const away = call('view_image', { path: join(outside, 'away.png') });
    expect((await runtime('full-auto').decide(away)).kind).toBe('ask');
    expect((await runtime('read-only').decide(away)).kind).toBe('deny');
    const fake = await tools.run(call('view_image', { path: 'fake.png' }), {});
    expect(fake).toEqual({
      output: 'Error: fake.png is not a PNG, JPEG, GIF or WebP image (checked by its bytes).',
      status: 'error',
    });
  });

  it('grep respects .gitignore and filters by glob (JavaScript fallback without rg)', async () => {
    const tools = runtime();
    const all = await tools.run(call('grep', { pattern: 'needle' }), {});
    expect(all.output.split('\n').sort()).toEqual(['src/a.ts:1:const needle = 1;', 'src/b.js:1:needle();']);
    const ts = await tools.run(call('grep', { pattern: 'need+le', glob: '*.ts' }), {});
    expect(ts.output).toBe('src/a.ts:1:const needle = 1;');
    const none = await tools.run(call('grep', { pattern: 'absent' }), {});
    expect(none.output).toBe('No matches.');
    const bad = await tools.run(call('grep', { pattern: '(' }), {});
    expect(bad).toMatchObject({ status: 'error' });
    expect(bad.output).toMatch(/^Error: invalid regular expression/);
  });

  it('glob lists matching files, not ignored ones', async () => {
    const result = await runtime().run(call('glob', { pattern: '**/*.ts' }), {});
    expect(result.output).toBe('src/a.ts');
  });

  it('invalid arguments get a clear error and run nothing', async () => {
    const tools = runtime('full-auto');
    const missing = await decideAndRun(tools, call('write_file', { path: 'x.txt' }));
    expect(missing.result).toEqual({
      output: 'Error: invalid arguments for write_file: content: Required.',
      status: 'error',
    });
    const wrongType = await decideAndRun(tools, call('shell', { command: 'touch made', timeout_ms: 'soon' }));
    expect(wrongType.result.output).toMatch(
      /^Error: invalid arguments for shell: timeout_ms: Expected number/,
    );
    const notJson = await decideAndRun(tools, call('read_file', '{"path": '));
    expect(notJson.result.output).toMatch(/^Error: the arguments of read_file are not a JSON object/);
    await expect(readFile(join(root, 'made'))).rejects.toThrow();
  });

  it('shell streams output, reports the exit code, and says once that there is no sandbox', async () => {
    const tools = runtime('full-auto');
    const chunks: string[] = [];
    const { decision, result } = await decideAndRun(
      tools,
      call('shell', { command: 'echo out; echo err >&2; exit 3' }),
      chunks,
    );
    expect(decision.kind).toBe('allow');
    expect(result.exitCode).toBe(3);
    expect(result.status).toBe('error');
    expect(result.output).toMatch(/^Exit code: 3\nWall time: [\d.]+ seconds\nOutput:\n/);
    expect(chunks.join('')).toContain('out\n');
    expect(chunks.join('')).toContain('err\n');
    await decideAndRun(tools, call('shell', { command: 'true' }));
    expect(notices).toEqual(['bubblewrap (bwrap) is not installed: shell commands run without a sandbox.']);
  });

  it('shell commands that run without asking run inside bubblewrap where it works, else escapes ask and it is said once', async () => {
    const realNotices: string[] = [];
    const tools = createToolRuntime({
      cwd: root,
      policy: 'full-auto',
      onNotice: (message) => realNotices.push(message),
      env: process.env,
    });
    const escape = join(outside, 'escaped.txt');
    // The write outside hides behind a variable, which the static dangerous-command check cannot follow.
    const { decision, result } = await decideAndRun(
      tools,
      call('shell', { command: `echo in > inside.txt; f=${escape}; echo out > "$f"; true` }),
    );
    expect(result.exitCode).toBe(0);
    expect(await readFile(join(root, 'inside.txt'), 'utf8')).toBe('in\n');
    if (tools.sandboxed()) {
      // Sandboxed: the workspace is writable, the rest of the file system is not.
      expect(decision.kind).toBe('allow');
      expect(realNotices).toEqual([]);
      expect(tools.sandboxPolicy()).toEqual({
        type: 'workspace-write',
        writable_roots: [root],
        network_access: false,
      });
      await expect(readFile(escape, 'utf8')).rejects.toThrow();
      // /tmp is private inside the sandbox, the rest read-only: the write fails either way.
      expect(result.output).toMatch(/Read-only file system|No such file or directory/);
    } else {
      // No sandbox: a write whose target hides behind a variable may leave the workspace, so it asks
      // even under full-auto (run here as if approved, so unconfined).
      expect(decision.kind).toBe('ask');
      expect(tools.sandboxPolicy()).toEqual({ type: 'danger-full-access' });
      expect(await readFile(escape, 'utf8')).toBe('out\n');
      await decideAndRun(tools, call('shell', { command: 'true' }));
      expect(realNotices).toHaveLength(1);
      expect(realNotices[0]).toMatch(/^bubblewrap .*shell commands run without/);
    }
    // A command the person approved runs outside the sandbox.
    const approved = call('shell', { command: `echo approved > ${escape}` });
    expect((await tools.decide(call('shell', { command: `sudo ls` }))).kind).toBe('ask');
    await tools.run(approved, {});
    expect(await readFile(escape, 'utf8')).toBe('approved\n');
  });

  it('shell runs in workdir, and a workdir outside the workspace asks', async () => {
    const tools = runtime('full-auto');
    const { result } = await decideAndRun(tools, call('shell', { command: 'pwd', workdir: 'src' }));
    expect(result.output).toContain(join(root, 'src'));
    expect((await tools.decide(call('shell', { command: 'ls', workdir: outside }))).kind).toBe('ask');
  });

  it('abort kills the whole process group and keeps the output so far', async () => {
    const tools = runtime('full-auto');
    const pidFile = join(root, 'child.pid');
    const controller = new AbortController();
    const item = call('shell', { command: `(sleep 30 & echo $! > ${pidFile}; wait) & echo started; wait` });
    await tools.decide(item);
    const running = tools.run(item, {
      signal: controller.signal,
      onOutput: (chunk) => {
        if (chunk.includes('started')) setTimeout(() => controller.abort(), 100);
      },
    });
    const result = await running;
    expect(result.status).toBe('aborted');
    expect(result.output).toMatch(/^Aborted by the user; output so far:\n[\s\S]*started/);
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    expect(await processEnded(pid)).toBe(true);
  });

  it('a timeout kills the command', async () => {
    const tools = runtime('full-auto');
    const item = call('shell', { command: 'echo before; sleep 20', timeout_ms: 300 });
    await tools.decide(item);
    const result = await tools.run(item, {});
    expect(result.output).toMatch(/^Timed out after 300 ms; the command was killed\. Output so far:/);
    expect(result.output).toContain('before');
  });

  it('"always" remembers the command prefix for the session, not every command', async () => {
    const tools = runtime('ask');
    const first = call('shell', { command: 'npm test -- --grep a' });
    expect((await tools.decide(first)).kind).toBe('ask');
    tools.rememberApproval(first);
    expect((await tools.decide(call('shell', { command: 'npm test' }))).kind).toBe('allow');
    expect((await tools.decide(call('shell', { command: 'npm install left-pad' }))).kind).toBe('ask');
    expect((await tools.decide(call('shell', { command: 'npm test && curl x' }))).kind).toBe('ask');
    const sudo = call('shell', { command: 'sudo npm test' });
    tools.rememberApproval(sudo);
    expect((await tools.decide(sudo)).kind).toBe('ask');
  });

  it('edits ask under ask with a diff preview, run freely under auto-edit, and are denied under read-only', async () => {
    const edit = call('edit_file', { path: 'src/a.ts', old_text: 'needle', new_text: 'pin' });
    expect(await runtime('ask').decide(edit)).toEqual({
      kind: 'ask',
      reason: 'edit src/a.ts',
      preview: '--- src/a.ts\n-needle\n+pin',
      alwaysScope: { kind: 'file', label: 'edits to src/a.ts' },
      // A question about an action inside the workspace: a hook's allow may answer it.
      hookMayAllow: true,
    });
    expect((await runtime('auto-edit').decide(edit)).kind).toBe('allow');
    expect((await runtime('auto-edit').decide(call('shell', { command: 'npm test' }))).kind).toBe('ask');
    // A read-only command of the safe list, inside the workspace, does not ask (issue 19 §3).
    expect((await runtime('auto-edit').decide(call('shell', { command: 'ls' }))).kind).toBe('allow');
    expect((await runtime('read-only').decide(edit)).kind).toBe('deny');
    const patchOutside = call('apply_patch', {
      input: `*** Begin Patch\n*** Add File: ${join(outside, 'x.txt')}\n+x\n*** End Patch`,
    });
    expect((await runtime('full-auto').decide(patchOutside)).kind).toBe('ask');
    // Outside the workspace, no hook may answer the question.
    expect(await runtime('full-auto').decide(patchOutside)).not.toHaveProperty('hookMayAllow');
    expect(await runtime('ask').decide(call('shell', { command: 'sudo rm -rf /' }))).not.toHaveProperty(
      'hookMayAllow',
    );
  });

  it('apply_patch reports success Codex-style and failures precisely', async () => {
    const tools = runtime('full-auto');
    const ok = await tools.run(
      call('apply_patch', {
        input:
          '*** Begin Patch\n*** Update File: src/a.ts\n-const other = 2;\n+const other = 3;\n*** End Patch',
      }),
      {},
    );
    expect(ok).toEqual({ output: 'Success. Updated the following files:\nM src/a.ts', status: 'ok' });
    expect(await readFile(join(root, 'src/a.ts'), 'utf8')).toBe('const needle = 1;\nconst other = 3;\n');
    const failed = await tools.run(
      call('apply_patch', { input: '*** Begin Patch\n*** Add File: src/a.ts\n+x\n*** End Patch' }),
      {},
    );
    expect(failed).toEqual({
      output: 'Error: apply_patch failed, no file was changed: Cannot add src/a.ts: the file already exists.',
      status: 'error',
    });
  });

  it('unknown tools are denied; only read tools are read-only', async () => {
    const tools = runtime();
    expect(await tools.decide(call('launch_rocket', {}))).toEqual({
      kind: 'deny',
      reason: "No tool named 'launch_rocket' is available.",
    });
    expect(tools.isReadOnly(call('grep', { pattern: 'x' }))).toBe(true);
    expect(tools.isReadOnly(call('shell', { command: 'ls' }))).toBe(false);
    expect(tools.specs().map((spec) => spec.name)).toEqual([
      'read_file',
      'list_directory',
      'grep',
      'glob',
      'shell',
      'apply_patch',
      'write_file',
      'edit_file',
      'update_plan',
      'web_fetch',
      'view_image',
    ]);
    expect(tools.isReadOnly(call('view_image', { path: 'shot.png' }))).toBe(true);
  });
});
