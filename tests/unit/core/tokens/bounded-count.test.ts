/**
 * Token counting is bounded whatever the text (issue 7.4): the exact tokenizer never sees a run
 * without a break longer than MAX_EXACT_RUN, never sees a text over MAX_EXACT_TEXT, and the heuristic
 * never prices more than a bounded sample of a huge text — while ordinary text is counted exactly as
 * before. Timing lives in bench/tokenizer-bounds.bench.js; these tests assert what reaches the counter.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import {
  boundedExactCount,
  longRuns,
  MAX_COUNTED_TEXT,
  MAX_EXACT_RUN,
  MAX_EXACT_TEXT,
  sampledCount,
} from '../../../../src/core/tokens/bounded-count.js';
import { exactEstimator, heuristicCountText, heuristicEstimator } from '../../../../src/core/tokens/index.js';

const PLAIN = { disallowedSpecial: new Set<string>() };
const o200k = (text: string): number => countTokens(text, PLAIN);

/** A counter that records every text it is handed (and prices each character as a token). */
function spy(): { count: (text: string) => number; seen: string[] } {
  const seen: string[] = [];
  return { seen, count: (text) => (seen.push(text), text.length) };
}

const PATHOLOGICAL: Array<[string, string]> = [
  ['one letter', 'H'.repeat(50_000)],
  ['spaces', ' '.repeat(50_000)],
  ['newlines', '\n'.repeat(50_000)],
  ['punctuation', '-'.repeat(50_000)],
  ['CJK without punctuation', '中'.repeat(50_000)],
  ['emoji', '😀'.repeat(20_000)],
  ['accented letters', 'é'.repeat(50_000)],
];

describe('boundedExactCount', () => {
  it.each(PATHOLOGICAL)('never hands the tokenizer a run of %s longer than the bound', (_name, run) => {
    const text = `before ${run} after`;
    const counter = spy();
    boundedExactCount(text, counter.count, () => 0);
    expect(Math.max(...counter.seen.map((piece) => piece.length))).toBeLessThanOrEqual(MAX_EXACT_RUN + 7);
    // Every character is counted once: nothing lost, nothing counted twice.
    expect(counter.seen.join('')).toBe(text);
  });

  it('counts ordinary text in one piece, exactly as the tokenizer does', () => {
    const text = 'The quick brown fox jumps over the lazy dog; {"path": "src/index.ts"}\n'.repeat(500);
    const counter = spy();
    boundedExactCount(text, counter.count, () => 0);
    expect(counter.seen).toEqual([text]);
    expect(exactEstimator('o200k', o200k).countText(text)).toBe(o200k(text));
  });

  it.each([
    ['one letter', 'H'.repeat(6_000)],
    ['spaces', `a${' '.repeat(3_000)}b`],
    ['CJK', '中'.repeat(3_000)],
    ['a run inside prose', `Some prose, then ${'x'.repeat(5_000)} and more prose.`],
  ])('stays within 1%% of the exact count on %s', (_name, text) => {
    const exact = o200k(text);
    const bounded = exactEstimator('o200k', o200k).countText(text);
    expect(Math.abs(bounded - exact)).toBeLessThanOrEqual(Math.max(2, exact * 0.01));
  });

  it('prices a text over MAX_EXACT_TEXT with the fallback, never the tokenizer', () => {
    const counter = spy();
    const fallback = spy();
    boundedExactCount('a'.repeat(MAX_EXACT_TEXT + 1), counter.count, fallback.count);
    expect(counter.seen).toEqual([]);
    expect(fallback.seen.length).toBe(1);
  });

  it('never cuts a surrogate pair', () => {
    const counter = spy();
    boundedExactCount(`x${'😀'.repeat(1_000)}`, counter.count, () => 0);
    for (const piece of counter.seen) expect(piece).toBe(Buffer.from(piece, 'utf8').toString('utf8'));
  });
});

describe('longRuns', () => {
  it('finds runs of one class and nothing in mixed text', () => {
    expect(longRuns('ab cd ef', 2)).toEqual([
      [0, 2],
      [3, 5],
      [6, 8],
    ]);
    expect(longRuns('a1b2c3d4', 2)).toEqual([]);
    expect(longRuns(`x ${'y'.repeat(10)} z`, 5)).toEqual([[2, 12]]);
  });
});

describe('sampledCount', () => {
  it('prices a text up to MAX_COUNTED_TEXT whole', () => {
    const counter = spy();
    expect(sampledCount('abc', counter.count)).toBe(3);
    expect(counter.seen).toEqual(['abc']);
  });

  it('prices a huge text from bounded samples, scaled to its length', () => {
    const counter = spy();
    const text = 'word '.repeat(MAX_COUNTED_TEXT); // 5× the limit
    expect(sampledCount(text, counter.count)).toBe(text.length);
    const priced = counter.seen.reduce((sum, piece) => sum + piece.length, 0);
    expect(priced).toBeLessThanOrEqual(600_000);
  });

  it('keeps the heuristic estimate of a huge text within 5% of pricing it whole', () => {
    const text = 'Cody keeps every message; it never loses one. '.repeat(60_000) + 'x'.repeat(500_000);
    const whole = heuristicCountText(text);
    const sampled = heuristicEstimator().countText(text);
    expect(Math.abs(sampled - whole) / whole).toBeLessThan(0.05);
  });
});
