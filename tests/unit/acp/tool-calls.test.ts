/**
 * How Cody's tool calls look to an ACP editor: kind, title, absolute locations, the files a patch changes.
 */
import { describe, expect, it } from 'vitest';
import { fileChanges, patchChanges, toolCallView } from '../../../src/acp/tool-calls.js';

const call = (name: string, args: unknown) => ({
  type: 'function_call' as const,
  name,
  call_id: 'c1',
  arguments: JSON.stringify(args),
});

describe('toolCallView', () => {
  it('gives each built-in tool its ACP kind', () => {
    const kinds = Object.fromEntries(
      [
        'read_file',
        'list_directory',
        'grep',
        'glob',
        'shell',
        'write_file',
        'edit_file',
        'update_plan',
        'web_fetch',
        'mcp__x__y',
      ].map((name) => [name, toolCallView(call(name, {}), '/w').kind]),
    );
    expect(kinds).toEqual({
      read_file: 'read',
      list_directory: 'read',
      grep: 'search',
      glob: 'search',
      shell: 'execute',
      write_file: 'edit',
      edit_file: 'edit',
      update_plan: 'think',
      web_fetch: 'fetch',
      mcp__x__y: 'other',
    });
  });

  it('makes locations absolute, and a patch that only deletes or moves is a delete or a move', () => {
    expect(toolCallView(call('read_file', { path: 'src/a.ts' }), '/w').locations).toEqual([
      { path: '/w/src/a.ts' },
    ]);
    const remove = '*** Begin Patch\n*** Delete File: old.txt\n*** End Patch';
    expect(toolCallView(call('apply_patch', { input: remove }), '/w')).toMatchObject({
      kind: 'delete',
      locations: [{ path: '/w/old.txt' }],
    });
    const move = '*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-x\n+y\n*** End Patch';
    expect(toolCallView(call('apply_patch', { input: move }), '/w')).toMatchObject({
      kind: 'move',
      title: 'Edit b.txt',
      locations: [{ path: '/w/b.txt' }],
    });
  });

  it('keeps control characters the model wrote out of the title', () => {
    const view = toolCallView(call('shell', { command: 'ls\n\u001b[2Jrm -rf /' }), '/w');
    expect(view.title).toBe('Run ls [2Jrm -rf /');
    expect(view.rawInput).toEqual({ command: 'ls\n\u001b[2Jrm -rf /' });
  });

  it('takes arguments that are not a JSON object as none', () => {
    expect(toolCallView({ ...call('read_file', {}), arguments: '[1,2' }, '/w')).toMatchObject({
      title: 'Read a file',
      rawInput: {},
      locations: [],
    });
  });
});

describe('fileChanges', () => {
  it('lists what a patch adds, deletes, updates and moves, and what write_file and edit_file change', () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: new.txt',
      '+x',
      '*** Delete File: gone.txt',
      '*** Update File: a.txt',
      '*** Move to: b.txt',
      '*** End Patch',
    ].join('\n');
    expect(patchChanges(patch)).toEqual([
      { to: 'new.txt' },
      { from: 'gone.txt' },
      { from: 'a.txt', to: 'b.txt' },
    ]);
    expect(fileChanges(call('write_file', { path: 'w.txt', content: '' }))).toEqual([
      { from: 'w.txt', to: 'w.txt' },
    ]);
    expect(fileChanges(call('read_file', { path: 'r.txt' }))).toEqual([]);
  });
});
