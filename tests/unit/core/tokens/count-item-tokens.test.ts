import { describe, expect, it } from 'vitest';
import type { ResponseItem } from '../../../../src/protocol/index.js';
import {
  countItemTokens,
  countItemsTokens,
  encryptedReasoningTokens,
  heuristicEstimator,
  IMAGE_TOKENS,
  ITEM_OVERHEAD_TOKENS,
  LOW_DETAIL_IMAGE_TOKENS,
} from '../../../../src/core/tokens/index.js';

/** One token per character, so each expectation reads off the item. */
const countText = (text: string): number => text.length;
const O = ITEM_OVERHEAD_TOKENS;

describe('countItemTokens', () => {
  it.each<[string, ResponseItem, number]>([
    [
      'a user message',
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] },
      O + 5,
    ],
    [
      'an assistant message of two parts',
      {
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'output_text', text: 'ab' },
          { type: 'output_text', text: 'cde' },
        ],
      },
      O + 5,
    ],
    [
      'an image at high detail',
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_image', image_url: 'https://x/y.png', detail: 'high' }],
      },
      O + IMAGE_TOKENS,
    ],
    [
      'an image at auto detail',
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_image', image_url: 'data:image/png;base64,AAAA' }],
      },
      O + IMAGE_TOKENS,
    ],
    [
      'an image at low detail',
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_image', image_url: 'https://x/y.png', detail: 'low' }],
      },
      O + LOW_DETAIL_IMAGE_TOKENS,
    ],
    [
      'a function call: name and arguments',
      { type: 'function_call', name: 'shell', arguments: '{"a":1}', call_id: 'call_123456789' },
      O + 5 + 7,
    ],
    ['a text tool output', { type: 'function_call_output', call_id: 'c', output: 'result' }, O + 6],
    [
      'a tool output of parts',
      {
        type: 'function_call_output',
        call_id: 'c',
        output: [
          { type: 'input_text', text: 'abc' },
          { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
        ],
      },
      O + 3 + IMAGE_TOKENS,
    ],
    [
      'reasoning: summary and raw text',
      {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: 'abcd' }],
        content: [{ type: 'reasoning_text', text: 'ef' }],
      },
      O + 6,
    ],
    [
      'encrypted reasoning, by its length, not its characters',
      { type: 'reasoning', summary: [], encrypted_content: 'x'.repeat(4_000) },
      O + encryptedReasoningTokens('x'.repeat(4_000)),
    ],
    ['a ghost snapshot: never sent', { type: 'ghost_snapshot', ghost_commit: { id: 'abc' } }, 0],
    ['an opaque item: never sent', { type: 'opaque', raw: { type: 'web_search_call', text: 'long' } }, 0],
  ])('%s', (_name, item, expected) => {
    expect(countItemTokens(item, countText)).toBe(expected);
  });
});

describe('encryptedReasoningTokens', () => {
  it.each<[number, number]>([
    [0, 0],
    [800, 0], // 600 bytes decoded: all envelope
    [4_000, 588], // 3,000 bytes − 650, / 4
    [40_000, 7_338],
  ])('a %i-character blob stands for %i tokens', (length, expected) => {
    expect(encryptedReasoningTokens('A'.repeat(length))).toBe(expected);
  });
});

describe('countItemsTokens', () => {
  it('sums the estimator over the items', () => {
    const items: ResponseItem[] = [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'one two three' }] },
      { type: 'ghost_snapshot', ghost_commit: {} },
      { type: 'function_call_output', call_id: 'c', output: 'four' },
    ];
    const estimator = heuristicEstimator();
    const expected = items.reduce((sum, item) => sum + estimator.countItem(item), 0);
    expect(countItemsTokens(items, estimator)).toBe(expected);
    expect(countItemsTokens([], estimator)).toBe(0);
  });
});
