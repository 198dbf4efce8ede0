import { describe, expect, it } from 'vitest';
import { dropLastTurns, planUndo } from '../../../src/core/undo/rollback.js';
import type { ResponseItem } from '../../../src/protocol/index.js';

const user = (text: string): ResponseItem => ({
  type: 'message',
  role: 'user',
  content: [{ type: 'input_text', text }],
});
const assistant = (text: string): ResponseItem => ({
  type: 'message',
  role: 'assistant',
  content: [{ type: 'output_text', text }],
});
const ghost = (id: string): ResponseItem => ({
  type: 'ghost_snapshot',
  ghost_commit: { id, parent: null, preexisting_untracked_files: [], preexisting_untracked_dirs: [] },
});
const call: ResponseItem = { type: 'function_call', name: 'apply_patch', arguments: '{}', call_id: 'c' };
const output: ResponseItem = { type: 'function_call_output', call_id: 'c', output: 'ok' };

describe('undo planning and rollback', () => {
  const a = 'a'.repeat(40);
  const b = 'b'.repeat(40);
  // Turn 1 changed files, turn 2 only chatted, turn 3 changed files.
  const history: ResponseItem[] = [
    user('one'),
    call,
    ghost(a),
    output,
    assistant('done one'),
    user('two'),
    assistant('chat'),
    user('three'),
    call,
    ghost(b),
    output,
    assistant('done three'),
  ];

  it('undoing one turn restores the last snapshot and drops that turn', () => {
    const plan = planUndo(history, 1);
    expect(plan?.snapshot.ghost_commit.id).toBe(b);
    expect(plan?.turns).toBe(1);
    expect(dropLastTurns(history, plan?.turns ?? 0)).toEqual(history.slice(0, 7));
  });

  it('undoing two turns goes back to the snapshot of the first and drops every later turn', () => {
    const plan = planUndo(history, 2);
    expect(plan?.snapshot.ghost_commit.id).toBe(a);
    expect(plan?.turns).toBe(3);
    expect(dropLastTurns(history, 3)).toEqual([]);
  });

  it('there is nothing to undo past the first snapshot', () => {
    expect(planUndo(history, 3)).toBeUndefined();
    expect(planUndo([user('hi'), assistant('hello')], 1)).toBeUndefined();
  });
});
