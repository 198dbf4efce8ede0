import { describe, expect, it } from 'vitest';
import {
  autoCompactLimit,
  compactionPromptMessage,
  keptMessagesBudget,
  MAX_KEPT_USER_TOKENS,
  SUMMARY_PROMPT_RESERVE,
  summaryMaxOutputTokens,
  type AutoCompactLimitOptions,
} from '../../../../src/core/compact/index.js';
import { heuristicEstimator } from '../../../../src/core/tokens/index.js';

describe('autoCompactLimit', () => {
  it.each<[string, AutoCompactLimitOptions, number]>([
    ['80% of a large window by default', { contextWindow: 128_000, maxOutputTokens: 16_384 }, 102_400],
    [
      'a lower threshold, honoured',
      { contextWindow: 128_000, maxOutputTokens: 16_384, threshold: 0.5 },
      64_000,
    ],
    [
      'a higher threshold, up to the room kept for the reply and the summary prompt',
      { contextWindow: 128_000, maxOutputTokens: 16_384, threshold: 0.95 },
      128_000 - 16_384 - SUMMARY_PROMPT_RESERVE,
    ],
    [
      'an absolute token limit, lower',
      { contextWindow: 200_000, maxOutputTokens: 64_000, tokenLimit: 50_000 },
      50_000,
    ],
    [
      'an absolute token limit above the window, clamped',
      { contextWindow: 200_000, maxOutputTokens: 8_192, tokenLimit: 500_000 },
      200_000 - 8_192 - SUMMARY_PROMPT_RESERVE,
    ],
    [
      'a small local model whose max output equals its window: the reply reserve is capped at a quarter',
      { contextWindow: 4_096, maxOutputTokens: 4_096 },
      4_096 - 1_024 - SUMMARY_PROMPT_RESERVE,
    ],
    [
      'an 8k local model',
      { contextWindow: 8_192, maxOutputTokens: 8_192 },
      8_192 - 2_048 - SUMMARY_PROMPT_RESERVE,
    ],
    ['a tiny window never goes below 30% of it', { contextWindow: 800, maxOutputTokens: 800 }, 240],
    [
      'but a lower wanted limit still wins there',
      { contextWindow: 800, maxOutputTokens: 800, tokenLimit: 100 },
      100,
    ],
  ])('%s', (_name, options, expected) => {
    expect(autoCompactLimit(options)).toBe(expected);
  });

  it('always leaves room for the reply and the summary request on common windows', () => {
    for (const contextWindow of [4_096, 8_192, 32_768, 128_000, 200_000, 1_048_576]) {
      for (const maxOutputTokens of [1_024, 4_096, 32_768]) {
        for (const threshold of [0.5, 0.8, 1, 1.2]) {
          const limit = autoCompactLimit({ contextWindow, maxOutputTokens, threshold });
          const reply = Math.min(maxOutputTokens, contextWindow / 4);
          expect(limit + reply + SUMMARY_PROMPT_RESERVE).toBeLessThanOrEqual(contextWindow);
        }
      }
    }
  });

  it('reserves enough for the compaction prompt and a focus line', () => {
    const prompt = compactionPromptMessage('the database migration and the flaky retry test in charge.ts');
    expect(heuristicEstimator().countItem(prompt)).toBeLessThan(SUMMARY_PROMPT_RESERVE);
  });
});

describe('keptMessagesBudget', () => {
  it.each<[string, number, number, number]>([
    ['Codex’s 20,000 on large windows', 200_000, 160_000, MAX_KEPT_USER_TOKENS],
    ['a quarter of the limit on mid-size windows', 32_768, 26_214, 6_553],
    ['a 4k local model', 4_096, 2_672, 668],
    ['an 8k local model', 8_192, 5_744, 1_436],
    ['the window when the limit is above it', 4_000, 10_000, 1_000],
    ['zero for a zero limit', 4_096, 0, 0],
  ])('%s', (_name, contextWindow, autoLimit, expected) => {
    expect(keptMessagesBudget(contextWindow, autoLimit)).toBe(expected);
  });

  it('keeps the new history well under the limit: kept messages + summary ≤ half the limit or less', () => {
    for (const contextWindow of [4_096, 8_192, 32_768, 128_000, 200_000]) {
      const limit = autoCompactLimit({ contextWindow, maxOutputTokens: contextWindow });
      const newHistory = keptMessagesBudget(contextWindow, limit) + summaryMaxOutputTokens(contextWindow);
      expect(newHistory).toBeLessThan(0.5 * limit);
    }
  });
});

describe('summaryMaxOutputTokens', () => {
  it.each<[string, number, number | undefined, number]>([
    ['15% of a small window', 8_192, undefined, 1_228],
    ['at least 256', 1_000, undefined, 256],
    ['at most 8,192', 1_000_000, undefined, 8_192],
    ['never above the model’s max output', 128_000, 4_096, 4_096],
  ])('%s', (_name, contextWindow, maxOutputTokens, expected) => {
    expect(summaryMaxOutputTokens(contextWindow, maxOutputTokens)).toBe(expected);
  });
});
