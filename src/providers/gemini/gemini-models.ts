/**
 * Gemini's models: window, output limit, thinking and list price of the text models the pinned
 * `@google/genai` names (its `Model` union, less the image, speech, music and robotics models;
 * tests/unit/providers/sdk-model-unions.test.ts holds the two together). Gemini's `models.list` reports
 * each model's input and output token limits: once listed (`cody models`, cached), those win over these.
 *
 * Sources (checked 2026-11-29): https://ai.google.dev/gemini-api/docs/models and
 * https://ai.google.dev/gemini-api/docs/pricing (paid tier, prompts up to 200k tokens, USD per million
 * tokens), read through secondary copies where Google's page itself was not at hand: the pricing page as
 * transcribed verbatim on 2026-10-07 (api-evangelist/deepmind, plans/deepmind-plans-pricing.yml) for
 * 3.5 Flash, 3.5 Flash-Lite, 3.8 Flash and 3.1 Pro; LiteLLM's launch notes (BerriAI/litellm discussions
 * 36799, 39357, 46238) for 3.7 Flash, 3.8 Flash's cache price and 4 Argon; models.dev (anomalyco/models.dev,
 * July 2026) for the 2.x and 3.0-3.1 Flash rows. Gemma 4's window: https://ai.google.dev/gemma/docs/core
 * (the 26B and 31B models: 256K). Where a launch price runs out on a known date, the later price is used.
 */
import type { ModelEntry, PriceEntry } from '../definition.js';

/** Gemini 3 and later (and the `-latest` aliases, which name them) think by level. */
export const GEMINI_LEVEL_THINKING = /^(gemini-([3-9]|\d{2,})|gemini-(pro|flash|flash-lite)-latest)/;

/** A `thinkingLevel` value, least thinking first. */
export type GeminiThinkingLevel = 'minimal' | 'low' | 'medium' | 'high';

/**
 * The `thinkingLevel` values each level-thinking model takes (any other is a 400), most specific first.
 * Sources (checked 2026-11-30): the Gemini 3.5 Flash developer's guide on docs.cloud.google.com (its
 * table: 3.5 Flash and 3.1 Flash-Lite minimal to high, 3.1 Pro low, medium and high); Gemini 3 Pro low
 * and high (as before); 3.7 Flash, 3.8 Flash and 4 Argon without minimal (the provider check of issue
 * 33; simonw/llm-gemini 0.34 for 3.8 Flash). An alias takes what every model it may name takes.
 */
export const GEMINI_THINKING_LEVELS: readonly {
  pattern: RegExp;
  levels: readonly GeminiThinkingLevel[];
}[] = [
  { pattern: /^gemini-3-pro/, levels: ['low', 'high'] },
  { pattern: /^gemini-3\.1-pro/, levels: ['low', 'medium', 'high'] },
  // Flash-Lite keeps minimal; Flash up to 3.6 (3.5 now serves 3.6) and 3 Flash take all four.
  {
    pattern: /^gemini-(\d+(\.\d+)?-flash-lite|flash-lite-latest)/,
    levels: ['minimal', 'low', 'medium', 'high'],
  },
  { pattern: /^gemini-3(\.[0-6])?-flash/, levels: ['minimal', 'low', 'medium', 'high'] },
  // 3.7 Flash and later, the Flash alias (which names one of them) and 4 Argon: no minimal.
  { pattern: /^gemini-(3\.[7-9]-flash|flash-latest|4)/, levels: ['low', 'medium', 'high'] },
  // Pro alias and unknown Pros: what every Pro takes; any other newer model: as the newest Flash.
  { pattern: /-pro/, levels: ['low', 'high'] },
  { pattern: /./, levels: ['low', 'medium', 'high'] },
];

/** The levels `model` (bare id) takes. */
export function geminiThinkingLevels(model: string): readonly GeminiThinkingLevel[] {
  return GEMINI_THINKING_LEVELS.find(({ pattern }) => pattern.test(model))?.levels ?? ['low', 'high'];
}

const THINKS = { reasoning: true, effort: true } as const;

/** Most specific first. */
export const GEMINI_MODELS: readonly ModelEntry[] = [
  {
    pattern: /^gemini-((2\.5|[3-9]|\d{2,})(\.\d+)?-(pro|flash)|(pro|flash|flash-lite)-latest)/,
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    ...THINKS,
  },
  // 4 Argon: 1,048,576 tokens; its output limit (reported as "64K") is unverified.
  { pattern: /^gemini-4/, contextWindow: 1_048_576, maxOutputTokens: 65_536, ...THINKS },
  { pattern: /^gemini-2\.0-flash/, contextWindow: 1_048_576, maxOutputTokens: 8_192 },
  // Gemma 4: 256K for the 26B and 31B models (those the Gemini API serves), 128K for the small ones; the
  // output limit on the Gemini API is unverified.
  { pattern: /^gemma-?4[-:]?(26b|31b)/i, contextWindow: 262_144, maxOutputTokens: 8_192 },
  { pattern: /^gemma-?4/i, contextWindow: 131_072, maxOutputTokens: 8_192 },
  // Gemini models since 1.5 accept at least 1M tokens; newer families fall back here.
  { pattern: /^gemini-/, contextWindow: 1_048_576, maxOutputTokens: 8_192 },
];

/** Models whose price was found; the others (3.6 Flash, the aliases) show no cost. */
export const GEMINI_PRICES: readonly PriceEntry[] = [
  // 4 Argon: $2 / $0.10 / $10 until 2026-11-30, then this.
  { pattern: /^gemini-4-argon/, input: 4, cachedInput: 0.2, output: 20 },
  // 3.8 Flash: $0.75 / $0.075 / $3.75 until 2026-12-31, then this; 3.7 Flash's launch price likewise halves it.
  { pattern: /^gemini-3\.[78]-flash/, input: 1.5, cachedInput: 0.15, output: 7.5 },
  // 3.5 Flash-Lite's cache price was not found (none is assumed); 3.5 Flash's is models.dev's.
  { pattern: /^gemini-3\.5-flash-lite/, input: 0.3, output: 2.5 },
  { pattern: /^gemini-3\.5-flash/, input: 1.5, cachedInput: 0.15, output: 9 },
  { pattern: /^gemini-3(\.1)?-pro/, input: 2, cachedInput: 0.2, output: 12 },
  { pattern: /^gemini-3\.1-flash-lite/, input: 0.25, cachedInput: 0.025, output: 1.5 },
  { pattern: /^gemini-3-flash/, input: 0.5, cachedInput: 0.05, output: 3 },
  { pattern: /^gemini-2\.5-pro/, input: 1.25, cachedInput: 0.31, output: 10 },
  { pattern: /^gemini-2\.5-flash-lite/, input: 0.1, cachedInput: 0.025, output: 0.4 },
  { pattern: /^gemini-2\.5-flash/, input: 0.3, cachedInput: 0.075, output: 2.5 },
  // Gemma on the Gemini API is free of charge.
  { pattern: /^gemma-/, input: 0, output: 0 },
];

/** The text models Google publishes now. */
export const GEMINI_KNOWN_MODELS: readonly string[] = [
  'gemini-3.1-pro-preview',
  'gemini-3.1-pro-preview-customtools',
  'gemini-3-pro-preview',
  'gemini-3.8-flash',
  'gemini-3.7-flash',
  'gemini-3.6-flash',
  'gemini-3.5-flash',
  'gemini-3.5-flash-lite',
  'gemini-3.1-flash-lite',
  'gemini-3-flash-preview',
  'gemini-4-argon',
  'gemini-pro-latest',
  'gemini-flash-latest',
  'gemini-flash-lite-latest',
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'gemini-2.5-flash-lite',
  'gemini-2.0-flash',
  'gemma-4-31b-it',
  'gemma-4-26b-a4b-it',
];
