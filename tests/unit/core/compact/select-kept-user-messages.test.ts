import { describe, expect, it } from 'vitest';
import type { ResponseItem } from '../../../../src/protocol/index.js';
import {
  selectKeptUserMessages,
  SUMMARY_PREFIX,
  summaryMessage,
} from '../../../../src/core/compact/index.js';
import { ITEM_OVERHEAD_TOKENS } from '../../../../src/core/tokens/index.js';
import {
  assistant,
  call,
  developer,
  output,
  system,
  textOf,
  user,
  wordEstimator,
  words,
} from './history-builders.js';

/** Budget for `wordCounts` whole messages of that many words each. */
const budgetFor = (...wordCounts: number[]): number =>
  wordCounts.reduce((sum, count) => sum + count + ITEM_OVERHEAD_TOKENS, 0);

const texts = (history: ResponseItem[], budget: number): string[] =>
  selectKeptUserMessages(history, budget, wordEstimator()).map(textOf);

describe('selectKeptUserMessages', () => {
  const a = user('alpha one');
  const b = user('bravo two');
  const c = user('charlie three');

  it.each<[string, ResponseItem[], number, string[]]>([
    ['empty history', [], 1_000, []],
    ['a single message', [a], 1_000, ['alpha one']],
    [
      'everything within a large budget, in order',
      [a, assistant('x'), b, c],
      1_000,
      ['alpha one', 'bravo two', 'charlie three'],
    ],
    ['the newest first when the budget is tight', [a, b, c], budgetFor(2, 2), ['bravo two', 'charlie three']],
    ['nothing with no budget', [a, b, c], 0, []],
    [
      'no assistant, tool or instruction messages',
      [system('s'), developer('d'), a, assistant('x'), call('1'), output('1')],
      1_000,
      ['alpha one'],
    ],
    [
      'no earlier summaries',
      [a, summaryMessage('what happened before'), b],
      1_000,
      ['alpha one', 'bravo two'],
    ],
  ])('%s', (_name, history, budget, expected) => {
    expect(texts(history, budget)).toEqual(expected);
  });

  it('returns untouched messages as the original objects', () => {
    const kept = selectKeptUserMessages([a, b], 1_000, wordEstimator());
    expect(kept[0]).toBe(a);
    expect(kept[1]).toBe(b);
  });

  it('truncates the oldest kept message in the middle to the room left, then stops', () => {
    const long = user(words(500, 'old'));
    const history = [user('oldest never reached'), long, user(words(10, 'new'))];
    const budget = budgetFor(10) + 100;
    const kept = selectKeptUserMessages(history, budget, wordEstimator());
    expect(kept).toHaveLength(2);
    const truncated = textOf(kept[0]);
    expect(truncated.startsWith('old0 old1')).toBe(true);
    expect(truncated.endsWith('old498 old499')).toBe(true);
    expect(truncated).toMatch(/…\d+ tokens truncated…/);
    expect(textOf(kept[1])).toBe(words(10, 'new'));
    const used = kept.reduce((sum, item) => sum + wordEstimator().countItem(item), 0);
    expect(used).toBeLessThanOrEqual(budget);
  });

  it('skips the truncated message when the room left is too small to be useful', () => {
    const history = [user(words(500, 'old')), user(words(10, 'new'))];
    expect(texts(history, budgetFor(10) + 5)).toEqual([words(10, 'new')]);
  });

  it('keeps a user message that merely mentions the prefix later in its text', () => {
    const quoting = user(`see this: ${SUMMARY_PREFIX}`);
    expect(selectKeptUserMessages([quoting], 1_000, wordEstimator())).toEqual([quoting]);
  });

  it('drops images from a truncated message and keeps its text', () => {
    const withImage: ResponseItem = {
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: words(300) },
        { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
      ],
    };
    const [kept] = selectKeptUserMessages([withImage], 200, wordEstimator());
    expect(kept?.content.every((part) => part.type === 'input_text')).toBe(true);
  });
});
