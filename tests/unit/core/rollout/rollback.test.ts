import { describe, expect, it } from 'vitest';
import { dropLastTurns } from '../../../../src/core/rollout/rollback.js';
import { turnSnapshots } from '../../../../src/core/undo/turn-snapshots.js';
import type { ResponseItem } from '../../../../src/protocol/index.js';

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

  it('numbers each snapshotted turn from 1; a chat-only turn has no snapshot', () => {
    expect(turnSnapshots(history)).toEqual([
      { turn: 1, snapshot: a },
      { turn: 3, snapshot: b },
    ]);
  });

  it('dropping turns cuts the history at the start of the first dropped turn', () => {
    expect(dropLastTurns(history, 1)).toEqual(history.slice(0, 7));
    expect(dropLastTurns(history, 2)).toEqual(history.slice(0, 5));
    expect(dropLastTurns(history, 3)).toEqual([]);
    expect(dropLastTurns(history, 0)).toEqual(history);
  });
});
