import { describe, expect, it } from 'vitest';
import type { ResponseItem } from '../../../../src/protocol/index.js';
import { trimOldestForRetry } from '../../../../src/core/compact/index.js';
import { assistant, call, developer, ghost, output, system, user } from './history-builders.js';

const s = system('instructions');
const d = developer('more instructions');
const u1 = user('first');
const u2 = user('second');
const a1 = assistant('reply');
const c1 = call('c1');
const o1 = output('c1');
const c2 = call('c2');
const o2 = output('c2');
const g1 = ghost('g1');

describe('trimOldestForRetry', () => {
  it.each<[string, ResponseItem[], ResponseItem[], number]>([
    ['empty history', [], [], 0],
    ['only instructions', [s, d], [s, d], 0],
    ['only instructions and ghosts', [s, g1], [s, g1], 0],
    ['a single item', [u1], [], 1],
    ['the oldest item after the instructions', [s, d, u1, a1, u2], [s, d, a1, u2], 1],
    ['a call together with its output', [s, c1, o1, u2], [s, u2], 2],
    ['an output together with its call', [s, o1, u2, c1], [s, u2], 2],
    ['a call, leaving a parallel call and output alone', [c1, c2, o1, o2], [c2, o2], 2],
    ['a call without output', [c1, u2], [u2], 1],
    ['skipping ghosts, which are never sent and stay', [s, g1, u1, u2], [s, g1, u2], 1],
    [
      'skipping opaque items',
      [{ type: 'opaque', raw: { type: 'custom' } }, u1, u2],
      [{ type: 'opaque', raw: { type: 'custom' } }, u2],
      1,
    ],
  ])('%s', (_name, history, expected, removed) => {
    const result = trimOldestForRetry(history);
    expect(result.history).toEqual(expected);
    expect(result.removed).toBe(removed);
  });

  it('never leaves a call without its output or an output without its call, trimmed to the end', () => {
    let history: ResponseItem[] = [s, u1, c1, c2, o1, a1, o2, u2, call('c3'), output('c3'), g1];
    for (;;) {
      const calls = new Set(history.flatMap((item) => (item.type === 'function_call' ? [item.call_id] : [])));
      const outputs = new Set(
        history.flatMap((item) => (item.type === 'function_call_output' ? [item.call_id] : [])),
      );
      expect(calls).toEqual(outputs);
      const result = trimOldestForRetry(history);
      if (result.removed === 0) break;
      history = result.history;
    }
    expect(history).toEqual([s, g1]);
  });

  it('does not change its input', () => {
    const history = [s, u1, u2];
    trimOldestForRetry(history);
    expect(history).toEqual([s, u1, u2]);
  });
});
