/**
 * The catalogue against the figures the providers' own pages give (the sources are cited at the top of
 * each catalogue file; checked 2026-11-29): window, output limit, price per million tokens (input,
 * cached input, output), reasoning control and images, one row per model checked.
 */
import { describe, expect, it } from 'vitest';
import {
  acceptsImages,
  costOf,
  lookupModelLimits,
  reasoningSupport,
} from '../../../src/core/selection/index.js';

interface Row {
  model: string;
  window: number;
  output: number;
  /** USD per million: input, cached input, output. */
  price: [number, number, number];
  effort: boolean;
  images: boolean;
}

const M = 1_000_000;
const ROWS: Row[] = [
  // Anthropic's model pages and pricing page.
  {
    model: 'claude-sonnet-5-5',
    window: M,
    output: 128_000,
    price: [2, 0.1, 10],
    effort: true,
    images: true,
  },
  { model: 'claude-opus-5-5', window: M, output: 128_000, price: [4, 0.2, 20], effort: true, images: true },
  {
    model: 'claude-haiku-5-5',
    window: M,
    output: 128_000,
    price: [0.1, 0.01, 0.5],
    effort: true,
    images: true,
  },
  { model: 'claude-sonnet-5', window: M, output: 128_000, price: [2, 0.2, 10], effort: true, images: true },
  { model: 'claude-opus-5', window: M, output: 128_000, price: [5, 0.5, 25], effort: true, images: true },
  {
    model: 'claude-fable-5-1',
    window: M,
    output: 128_000,
    price: [10, 0.25, 50],
    effort: true,
    images: true,
  },
  { model: 'claude-mythos-5', window: M, output: 128_000, price: [10, 1, 50], effort: true, images: true },
  { model: 'claude-opus-4-7', window: M, output: 128_000, price: [5, 0.5, 25], effort: true, images: true },
  { model: 'claude-opus-4-6', window: M, output: 128_000, price: [5, 0.5, 25], effort: true, images: true },
  {
    model: 'claude-opus-4-5',
    window: 200_000,
    output: 64_000,
    price: [5, 0.5, 25],
    effort: true,
    images: true,
  },
  {
    model: 'claude-opus-4-1',
    window: 200_000,
    output: 32_000,
    price: [15, 1.5, 75],
    effort: true,
    images: true,
  },
  {
    model: 'claude-haiku-4-5',
    window: 200_000,
    output: 64_000,
    price: [1, 0.1, 5],
    effort: true,
    images: true,
  },
  {
    model: 'claude-3-7-sonnet-latest',
    window: 200_000,
    output: 64_000,
    price: [3, 0.3, 15],
    effort: true,
    images: true,
  },
  // OpenAI's model pages.
  {
    model: 'gpt-5.4',
    window: 1_050_000,
    output: 128_000,
    price: [2.5, 0.25, 15],
    effort: true,
    images: true,
  },
  {
    model: 'gpt-5.4-mini',
    window: 400_000,
    output: 128_000,
    price: [0.75, 0.075, 4.5],
    effort: true,
    images: true,
  },
  {
    model: 'gpt-5.4-pro',
    window: 1_050_000,
    output: 128_000,
    price: [30, 30, 180],
    effort: false,
    images: true,
  },
  { model: 'gpt-5.5', window: 1_050_000, output: 128_000, price: [5, 0.5, 30], effort: true, images: true },
  {
    model: 'gpt-5.1-codex-mini',
    window: 400_000,
    output: 128_000,
    price: [0.25, 0.025, 2],
    effort: true,
    images: true,
  },
  // Google's pricing page and Gemma's page.
  {
    model: 'gemini-3.5-flash',
    window: 1_048_576,
    output: 65_536,
    price: [1.5, 0.15, 9],
    effort: true,
    images: true,
  },
  {
    model: 'gemini-4-argon',
    window: 1_048_576,
    output: 65_536,
    price: [4, 0.2, 20],
    effort: true,
    images: true,
  },
  { model: 'gemma-4-31b-it', window: 262_144, output: 8_192, price: [0, 0, 0], effort: false, images: true },
  // DeepSeek's models and pricing page (peak rates).
  {
    model: 'deepseek-flash',
    window: M,
    output: 384_000,
    price: [0.3, 0.006, 1.2],
    effort: true,
    images: true,
  },
  {
    model: 'deepseek-v4-pro',
    window: M,
    output: 384_000,
    price: [1.32, 0.044, 3.96],
    effort: true,
    images: false,
  },
];

function priceOf(model: string): [number, number, number] {
  const only = (usage: { inputTokens: number; cachedInputTokens: number; outputTokens: number }) =>
    costOf(model, usage) ?? Number.NaN;
  return [
    only({ inputTokens: M, cachedInputTokens: 0, outputTokens: 0 }),
    only({ inputTokens: M, cachedInputTokens: M, outputTokens: 0 }),
    only({ inputTokens: 0, cachedInputTokens: 0, outputTokens: M }),
  ];
}

describe('the catalogue has the providers’ documented figures', () => {
  it.each(ROWS)('$model', (row) => {
    expect(lookupModelLimits(row.model)).toMatchObject({
      contextWindow: row.window,
      maxOutputTokens: row.output,
      source: 'catalog',
    });
    const [input, cached, output] = priceOf(row.model);
    expect(input).toBeCloseTo(row.price[0], 6);
    expect(cached).toBeCloseTo(row.price[1], 6);
    expect(output).toBeCloseTo(row.price[2], 6);
    expect(reasoningSupport(row.model).effort).toBe(row.effort);
    expect(acceptsImages(row.model)).toBe(row.images);
  });
});
