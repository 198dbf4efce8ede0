import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FunctionCallItem } from '../../../src/protocol/index.js';
import { createBuiltinTools } from '../../../src/core/tools/builtin-tools.js';

function call(name: string, args: Record<string, unknown>): FunctionCallItem {
  return { type: 'function_call', name, arguments: JSON.stringify(args), call_id: `call_${name}` };
}

describe('built-in tools', () => {
  let cwd: string;
  beforeEach(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'cody-tools-'));
  });
  afterEach(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  const tools = (autoApprove = false) => createBuiltinTools({ cwd, autoApprove });

  it('reads files and lists directories without asking', async () => {
    await writeFile(join(cwd, 'notes.txt'), 'one\ntwo\nthree\n');
    const runtime = tools();
    const read = call('read_file', { path: 'notes.txt', offset: 2, limit: 1 });
    expect(await runtime.decide(read)).toEqual({ kind: 'allow' });
    expect(runtime.isReadOnly(read)).toBe(true);
    expect(await runtime.run(read, {})).toEqual({ output: 'two', status: 'ok' });
    expect((await runtime.run(call('list_directory', {}), {})).output).toBe('notes.txt');
  });

  it('asks before running a shell command and reports exit code and output as it streams', async () => {
    const runtime = tools();
    const shell = call('shell', { command: 'echo hi; echo oops >&2; exit 3' });
    expect(runtime.isReadOnly(shell)).toBe(false);
    expect(await runtime.decide(shell)).toEqual({
      kind: 'ask',
      reason: 'run: echo hi; echo oops >&2; exit 3',
    });
    const chunks: string[] = [];
    const result = await runtime.run(shell, { onOutput: (chunk) => chunks.push(chunk) });
    expect(result.output).toMatch(/^exit code 3/);
    expect(result.output).toContain('hi');
    expect(result.output).toContain('oops');
    expect(result).toMatchObject({ exitCode: 3, status: 'error' });
    expect(chunks.join('')).toContain('hi\n');
  });

  it('allows everything once the session is approved or with autoApprove', async () => {
    const write = call('write_file', { path: 'a.txt', content: 'x' });
    const runtime = tools();
    expect((await runtime.decide(write)).kind).toBe('ask');
    runtime.rememberApproval(write);
    expect(await runtime.decide(call('shell', { command: 'ls' }))).toEqual({ kind: 'allow' });
    expect(await tools(true).decide(write)).toEqual({ kind: 'allow' });
    expect(await tools(true).decide(call('nope', {}))).toMatchObject({ kind: 'deny' });
  });

  it('edits only an exact single match', async () => {
    await writeFile(join(cwd, 'a.txt'), 'alpha beta alpha');
    const runtime = tools(true);
    const edit = (old_text: string, new_text: string) =>
      runtime.run(call('edit_file', { path: 'a.txt', old_text, new_text }), {});
    expect((await edit('alpha', 'A')).output).toMatch(/occurs 2 times/);
    expect((await edit('beta', 'B')).output).toBe('Edited a.txt.');
    expect(await readFile(join(cwd, 'a.txt'), 'utf8')).toBe('alpha B alpha');
  });

  it('reports errors as text instead of throwing', async () => {
    const runtime = tools(true);
    expect(await runtime.run(call('read_file', { path: 'missing.txt' }), {})).toMatchObject({
      output: expect.stringMatching(/^Error: ENOENT/),
      status: 'error',
    });
    const bad: FunctionCallItem = {
      type: 'function_call',
      name: 'read_file',
      arguments: 'not json',
      call_id: 'c',
    };
    expect((await runtime.run(bad, {})).output).toMatch(/not a JSON object/);
  });
});
