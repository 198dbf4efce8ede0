import { describe, expect, it } from 'vitest';
import { truncateMiddle, truncateToolOutput, truncationMarker } from '../../../../src/core/compact/index.js';
import { heuristicEstimator, type TokenEstimator } from '../../../../src/core/tokens/index.js';
import { codePointEstimator, wordEstimator, words } from './history-builders.js';

/** True when `text` holds a lone surrogate, i.e. a character was cut in half. */
function hasLoneSurrogate(text: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

const markerPattern = /…(\d+) tokens truncated…/;

describe('truncateMiddle', () => {
  it.each<[string, string, number]>([
    ['empty text', '', 0],
    ['text exactly at the budget', 'abcdef', 6],
    ['text under the budget', 'short', 100],
  ])('returns %s unchanged', (_name, text, maxTokens) => {
    expect(truncateMiddle(text, maxTokens, codePointEstimator())).toBe(text);
  });

  it('keeps the head and the tail around a marker that counts what was cut', () => {
    const text = words(200);
    const result = truncateMiddle(text, 60, wordEstimator());
    expect(result.startsWith('w0 w1 w2')).toBe(true);
    expect(result.endsWith('w197 w198 w199')).toBe(true);
    const removed = Number(markerPattern.exec(result)?.[1]);
    const kept = result.replace(markerPattern, ' ').split(/\s+/).filter(Boolean).length;
    expect(removed + kept).toBeGreaterThanOrEqual(199); // a word may be split by the cut
    expect(removed).toBeGreaterThan(100);
    expect(wordEstimator().countText(result)).toBeLessThanOrEqual(60);
  });

  it.each<[string, TokenEstimator]>([
    ['one token per code point', codePointEstimator()],
    ['the heuristic', heuristicEstimator()],
  ])('fits the budget, counted by %s', (_name, estimator) => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(80);
    for (const maxTokens of [30, 64, 100, 250]) {
      expect(estimator.countText(truncateMiddle(text, maxTokens, estimator))).toBeLessThanOrEqual(maxTokens);
    }
  });

  it.each<[string, string]>([
    ['emoji', '😀🎉👍🏽🚀'.repeat(60)],
    ['CJK', '東京駅の近くに泊まるのが便利です。'.repeat(30)],
    ['astral CJK', '𠀀𠀁𠀂𠀃'.repeat(50)],
    ['mixed', 'naïve café 😀 中文 ✈️ '.repeat(40)],
  ])('never splits a character (%s) at any budget', (_name, text) => {
    for (const estimator of [codePointEstimator(), heuristicEstimator()]) {
      for (let maxTokens = 12; maxTokens <= 80; maxTokens += 1) {
        const result = truncateMiddle(text, maxTokens, estimator);
        expect(result).toMatch(markerPattern);
        expect(hasLoneSurrogate(result)).toBe(false);
        expect(Buffer.from(result, 'utf8').toString('utf8')).toBe(result);
      }
    }
  });

  it('returns the marker alone when not even the marker fits', () => {
    expect(truncateMiddle(words(50), 2, wordEstimator())).toBe(truncationMarker(50));
  });
});

describe('truncateToolOutput', () => {
  it('keeps outputs within the default 10,000 tokens untouched', () => {
    const output = words(9_000);
    expect(truncateToolOutput(output, undefined, wordEstimator())).toBe(output);
  });

  it('cuts longer ones to the default, head and tail kept', () => {
    const result = truncateToolOutput(words(12_000), undefined, wordEstimator());
    expect(wordEstimator().countText(result)).toBeLessThanOrEqual(10_000);
    expect(result.startsWith('w0 ')).toBe(true);
    expect(result.endsWith(' w11999')).toBe(true);
    expect(result).toMatch(markerPattern);
  });

  it('honours a configured limit', () => {
    expect(
      wordEstimator().countText(truncateToolOutput(words(500), 100, wordEstimator())),
    ).toBeLessThanOrEqual(100);
  });
});
