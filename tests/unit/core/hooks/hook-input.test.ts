import { describe, expect, it } from 'vitest';
import { claudeToolInput, codyArgumentsFrom, hookInput } from '../../../../src/core/hooks/hook-input.js';

const common = { session_id: 's1', transcript_path: '/h/c/s1.jsonl', cwd: '/w', permission_mode: 'ask' };

describe('hook input', () => {
  it('carries the common fields, the event name and the event’s own', () => {
    expect(hookInput('Stop', common, { stop_hook_active: true })).toEqual({
      session_id: 's1',
      transcript_path: '/h/c/s1.jsonl',
      cwd: '/w',
      permission_mode: 'ask',
      hook_event_name: 'Stop',
      stop_hook_active: true,
    });
  });

  it("adds Claude Code's field names beside Cody's (file paths absolute)", () => {
    expect(claudeToolInput('edit_file', { path: 'src/a.ts', old_text: 'x', new_text: 'y' }, '/w')).toEqual({
      path: 'src/a.ts',
      old_text: 'x',
      new_text: 'y',
      file_path: '/w/src/a.ts',
      old_string: 'x',
      new_string: 'y',
    });
    expect(claudeToolInput('write_file', { path: '/abs/b.md', content: 'hi' }, '/w')).toEqual({
      path: '/abs/b.md',
      content: 'hi',
      file_path: '/abs/b.md',
    });
    expect(claudeToolInput('read_file', { path: 'c' }, '/w')).toMatchObject({ file_path: '/w/c' });
    expect(claudeToolInput('shell', { command: 'ls' }, '/w')).toEqual({ command: 'ls' });
    const patch =
      '*** Begin Patch\n*** Update File: a.js\n@@\n-a\n+b\n*** Add File: lib/b.js\n+x\n*** End Patch';
    expect(claudeToolInput('apply_patch', { input: patch }, '/w')).toMatchObject({
      file_path: '/w/a.js',
      file_paths: ['/w/a.js', '/w/lib/b.js'],
    });
  });

  it("maps updatedInput back to Cody's names, dropping the names added for hooks", () => {
    const original = { path: 'a.ts', content: 'x' };
    const sent = claudeToolInput('write_file', original, '/w');
    // A hook that echoes the input with file_path changed.
    expect(codyArgumentsFrom('write_file', original, sent, { ...sent, file_path: '/w/b.ts' })).toEqual({
      path: '/w/b.ts',
      content: 'x',
    });
    // One that changed only the content.
    expect(codyArgumentsFrom('write_file', original, sent, { content: 'y' })).toEqual({
      path: 'a.ts',
      content: 'y',
    });
    expect(codyArgumentsFrom('shell', { command: 'ls' }, { command: 'ls' }, { command: 'ls -la' })).toEqual({
      command: 'ls -la',
    });
    expect(codyArgumentsFrom('shell', { command: 'ls' }, { command: 'ls' }, 'not an object')).toBeUndefined();
  });
});
