import { describe, expect, it } from 'vitest';
import type { ResponseItem } from '../../../src/protocol/index.js';
import { normalizeItems } from '../../../src/providers/index.js';

const user = (text: string): ResponseItem => ({
  type: 'message',
  role: 'user',
  content: [{ type: 'input_text', text }],
});
const call = (id: string): ResponseItem => ({
  type: 'function_call',
  name: 'shell',
  arguments: '{}',
  call_id: id,
});
const output = (id: string, text = 'ok'): ResponseItem => ({
  type: 'function_call_output',
  call_id: id,
  output: text,
});

describe('normalizeItems', () => {
  it.each<[string, ResponseItem[], ResponseItem[]]>([
    [
      'keeps a complete history as it is',
      [user('a'), call('1'), output('1')],
      [user('a'), call('1'), output('1')],
    ],
    [
      'adds an aborted output to a call without one',
      [user('a'), call('1'), user('b')],
      [user('a'), call('1'), output('1', 'aborted'), user('b')],
    ],
    ['adds it at the end too', [user('a'), call('1')], [user('a'), call('1'), output('1', 'aborted')]],
    ['drops an output without a call', [user('a'), output('9')], [user('a')]],
    [
      'keeps parallel calls with their outputs',
      [call('1'), call('2'), output('1'), output('2')],
      [call('1'), call('2'), output('1'), output('2')],
    ],
    [
      'completes the missing one of parallel calls',
      [call('1'), call('2'), output('2'), user('b')],
      [call('1'), call('2'), output('2'), output('1', 'aborted'), user('b')],
    ],
    [
      'drops duplicate outputs',
      [call('1'), output('1', 'first'), output('1', 'second')],
      [call('1'), output('1', 'first')],
    ],
    [
      'removes ghost snapshots and opaque items',
      [
        user('a'),
        { type: 'ghost_snapshot', ghost_commit: { id: 'abc' } },
        { type: 'opaque', raw: { type: 'web_search_call' } },
      ],
      [user('a')],
    ],
    ['handles an empty history', [], []],
    [
      'keeps outputs that follow assistant text between calls',
      [
        call('1'),
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'and also' }] },
        call('2'),
        output('1'),
        output('2'),
      ],
      [
        call('1'),
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'and also' }] },
        call('2'),
        output('1'),
        output('2'),
      ],
    ],
  ])('%s', (_name, input, expected) => {
    expect(normalizeItems(input)).toEqual(expected);
  });
});
