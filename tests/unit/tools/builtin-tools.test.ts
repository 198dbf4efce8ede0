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
  const asked: string[] = [];
  beforeEach(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'cody-tools-'));
    asked.length = 0;
  });
  afterEach(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  const tools = (answer: boolean) =>
    createBuiltinTools({
      cwd,
      approve: async (_call, summary) => {
        asked.push(summary);
        return answer;
      },
    });

  it('reads files and lists directories without asking', async () => {
    await writeFile(join(cwd, 'notes.txt'), 'one\ntwo\nthree\n');
    const runtime = tools(false);
    const read = call('read_file', { path: 'notes.txt', offset: 2, limit: 1 });
    expect(await runtime.approve(read)).toBe(true);
    expect(await runtime.run(read)).toBe('two');
    expect(await runtime.run(call('list_directory', {}))).toBe('notes.txt');
    expect(asked).toEqual([]);
  });

  it('asks before running a shell command and reports exit code and output', async () => {
    const runtime = tools(true);
    const shell = call('shell', { command: 'echo hi; echo oops >&2; exit 3' });
    expect(await runtime.approve(shell)).toBe(true);
    expect(asked).toEqual(['run: echo hi; echo oops >&2; exit 3']);
    const output = await runtime.run(shell);
    expect(output).toMatch(/^exit code 3/);
    expect(output).toContain('hi');
    expect(output).toContain('oops');
  });

  it('passes a declined approval through, and edits only an exact single match', async () => {
    expect(await tools(false).approve(call('write_file', { path: 'a.txt', content: 'x' }))).toBe(false);
    await writeFile(join(cwd, 'a.txt'), 'alpha beta alpha');
    const runtime = tools(true);
    expect(await runtime.run(call('edit_file', { path: 'a.txt', old_text: 'alpha', new_text: 'A' }))).toMatch(
      /occurs 2 times/,
    );
    expect(await runtime.run(call('edit_file', { path: 'a.txt', old_text: 'beta', new_text: 'B' }))).toBe(
      'Edited a.txt.',
    );
    expect(await readFile(join(cwd, 'a.txt'), 'utf8')).toBe('alpha B alpha');
  });

  it('reports errors as text instead of throwing', async () => {
    const runtime = tools(true);
    expect(await runtime.run(call('read_file', { path: 'missing.txt' }))).toMatch(/^Error: ENOENT/);
    expect(
      await runtime.run({ type: 'function_call', name: 'read_file', arguments: 'not json', call_id: 'c' }),
    ).toMatch(/not a JSON object/);
  });
});
