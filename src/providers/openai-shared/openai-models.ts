/**
 * OpenAI's models: window, output limit, reasoning control, images and list price of every model the
 * pinned `openai` SDK names (its `ChatModel` and `ResponsesModel` unions; tests/unit/providers/
 * sdk-model-unions.test.ts holds the two together), standard tier, USD per million tokens, prompts under
 * any long-context surcharge (GPT-5.4 and 5.5: over 272K input tokens, 2x input and 1.5x output).
 * Sources (checked 2026-11-29): OpenAI's model pages, https://developers.openai.com/api/docs/models/<id>
 * (GPT-5.4's read directly: 1,050,000 / 128,000, $2.50 / $0.25 / $15, text and image input, effort none
 * to xhigh), and its reasoning guide, https://developers.openai.com/api/docs/guides/reasoning. The other
 * figures were checked against models.dev's copy of those pages (secondary: anomalyco/models.dev,
 * providers/openai, July 2026) and agree with it unless a comment says otherwise. Most specific first.
 */
import type { ModelEntry, PriceEntry } from '../definition.js';

const REASONS = { reasoning: true, effort: true } as const;

/** Window and output limit of each family. */
export const OPENAI_MODELS: readonly ModelEntry[] = [
  // The 5.4 and 5.5 Pro models take only medium, high and xhigh: no effort Cody's levels map onto.
  { pattern: /^gpt-5\.[45]-pro/, contextWindow: 1_050_000, maxOutputTokens: 128_000, reasoning: true },
  { pattern: /^gpt-5\.4-(mini|nano)/, contextWindow: 400_000, maxOutputTokens: 128_000, ...REASONS },
  { pattern: /^gpt-5\.[45]/, contextWindow: 1_050_000, maxOutputTokens: 128_000, ...REASONS },
  // The `-chat` snapshots do not reason and have ChatGPT's smaller window.
  { pattern: /^gpt-5(\.\d+)?-chat/, contextWindow: 128_000, maxOutputTokens: 16_384 },
  { pattern: /^gpt-5(\.\d+)?-codex/, contextWindow: 400_000, maxOutputTokens: 128_000, ...REASONS },
  // The Pro models think at `high` only: they reason, but take no effort setting.
  { pattern: /^gpt-5-pro/, contextWindow: 400_000, maxOutputTokens: 272_000, reasoning: true },
  { pattern: /^gpt-5(\.\d+)?-pro/, contextWindow: 400_000, maxOutputTokens: 128_000, reasoning: true },
  { pattern: /^gpt-5/, contextWindow: 400_000, maxOutputTokens: 128_000, ...REASONS },
  { pattern: /^gpt-4\.1/, contextWindow: 1_047_576, maxOutputTokens: 32_768 },
  { pattern: /^gpt-4o-2024-05-13/, contextWindow: 128_000, maxOutputTokens: 4_096 },
  // Audio and search previews take text (and audio), not images.
  {
    pattern: /^gpt-4o(-mini)?-(audio|search)/,
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    noImages: true,
  },
  { pattern: /^(gpt-4o|chatgpt-4o)/, contextWindow: 128_000, maxOutputTokens: 16_384 },
  { pattern: /^gpt-4-(turbo(-\d|$)|vision)/, contextWindow: 128_000, maxOutputTokens: 4_096 },
  {
    pattern: /^gpt-4-(\d{4}-preview|turbo-preview)/,
    contextWindow: 128_000,
    maxOutputTokens: 4_096,
    noImages: true,
  },
  { pattern: /^gpt-4-32k/, contextWindow: 32_768, maxOutputTokens: 32_768, noImages: true },
  { pattern: /^gpt-4(-\d|$)/, contextWindow: 8_192, maxOutputTokens: 8_192, noImages: true },
  { pattern: /^gpt-3\.5-turbo-(0301|0613)$/, contextWindow: 4_096, maxOutputTokens: 4_096, noImages: true },
  { pattern: /^gpt-3\.5-turbo/, contextWindow: 16_385, maxOutputTokens: 4_096, noImages: true },
  { pattern: /^o1-mini/, contextWindow: 128_000, maxOutputTokens: 65_536, reasoning: true, noImages: true },
  {
    pattern: /^o1-preview/,
    contextWindow: 128_000,
    maxOutputTokens: 32_768,
    reasoning: true,
    noImages: true,
  },
  { pattern: /^o3-mini/, contextWindow: 200_000, maxOutputTokens: 100_000, ...REASONS, noImages: true },
  // o1-pro and o3-pro, like the deep-research models, think at their own fixed effort.
  { pattern: /^o\d-pro|deep-research/, contextWindow: 200_000, maxOutputTokens: 100_000, reasoning: true },
  { pattern: /^o(1|3|4)(-|$)/, contextWindow: 200_000, maxOutputTokens: 100_000, ...REASONS },
  { pattern: /^codex-mini/, contextWindow: 200_000, maxOutputTokens: 100_000, ...REASONS },
  { pattern: /^computer-use-preview/, contextWindow: 8_192, maxOutputTokens: 1_024 },
];

/** USD per million tokens (cached: prompt-cache reads). */
export const OPENAI_PRICES: readonly PriceEntry[] = [
  { pattern: /^gpt-5\.[45]-pro/, input: 30, output: 180 },
  { pattern: /^gpt-5\.4-mini/, input: 0.75, cachedInput: 0.075, output: 4.5 },
  { pattern: /^gpt-5\.4-nano/, input: 0.2, cachedInput: 0.02, output: 1.25 },
  { pattern: /^gpt-5\.5/, input: 5, cachedInput: 0.5, output: 30 },
  { pattern: /^gpt-5\.4/, input: 2.5, cachedInput: 0.25, output: 15 },
  { pattern: /^gpt-5\.[23]-pro/, input: 21, output: 168 },
  { pattern: /^gpt-5\.[23]/, input: 1.75, cachedInput: 0.175, output: 14 },
  { pattern: /^gpt-5-pro/, input: 15, output: 120 },
  { pattern: /^gpt-5(\.1)?(-codex)?-mini/, input: 0.25, cachedInput: 0.025, output: 2 },
  { pattern: /^gpt-5(\.1)?-nano/, input: 0.05, cachedInput: 0.005, output: 0.4 },
  { pattern: /^gpt-5(\.1)?($|-)/, input: 1.25, cachedInput: 0.125, output: 10 },
  { pattern: /^gpt-4\.1-nano/, input: 0.1, cachedInput: 0.025, output: 0.4 },
  { pattern: /^gpt-4\.1-mini/, input: 0.4, cachedInput: 0.1, output: 1.6 },
  { pattern: /^gpt-4\.1/, input: 2, cachedInput: 0.5, output: 8 },
  { pattern: /^gpt-4o-mini/, input: 0.15, cachedInput: 0.075, output: 0.6 },
  { pattern: /^(gpt-4o-2024-05-13|chatgpt-4o)/, input: 5, output: 15 },
  { pattern: /^gpt-4o-(audio|search)/, input: 2.5, output: 10 },
  { pattern: /^gpt-4o/, input: 2.5, cachedInput: 1.25, output: 10 },
  { pattern: /^gpt-4-(turbo|\d{4}-preview|vision)/, input: 10, output: 30 },
  { pattern: /^gpt-4-32k/, input: 60, output: 120 },
  { pattern: /^gpt-4(-\d|$)/, input: 30, output: 60 },
  { pattern: /^gpt-3\.5-turbo-16k/, input: 3, output: 4 },
  { pattern: /^gpt-3\.5-turbo-(0301|0613)$/, input: 1.5, output: 2 },
  { pattern: /^gpt-3\.5-turbo-1106/, input: 1, output: 2 },
  { pattern: /^gpt-3\.5-turbo/, input: 0.5, output: 1.5 },
  { pattern: /^o1-pro/, input: 150, output: 600 },
  { pattern: /^o3-pro/, input: 20, output: 80 },
  { pattern: /^o3-deep-research/, input: 10, cachedInput: 2.5, output: 40 },
  { pattern: /^o4-mini-deep-research/, input: 2, cachedInput: 0.5, output: 8 },
  { pattern: /^o1-mini|^o3-mini/, input: 1.1, cachedInput: 0.55, output: 4.4 },
  { pattern: /^o1(-|$)/, input: 15, cachedInput: 7.5, output: 60 },
  { pattern: /^o3(-|$)/, input: 2, cachedInput: 0.5, output: 8 },
  { pattern: /^o4-mini/, input: 1.1, cachedInput: 0.275, output: 4.4 },
  { pattern: /^codex-mini/, input: 1.5, cachedInput: 0.375, output: 6 },
  { pattern: /^computer-use-preview/, input: 3, output: 12 },
];

/** The ids `cody set-provider` and the typo warning know (dated snapshots of these pass as well). */
export const OPENAI_KNOWN_MODELS: readonly string[] = [
  'gpt-5.5',
  'gpt-5.5-pro',
  'gpt-5.4',
  'gpt-5.4-pro',
  'gpt-5.4-mini',
  'gpt-5.4-nano',
  'gpt-5.3-chat-latest',
  'gpt-5.2',
  'gpt-5.2-pro',
  'gpt-5.2-chat-latest',
  'gpt-5.1',
  'gpt-5.1-codex',
  'gpt-5.1-codex-max',
  'gpt-5.1-mini',
  'gpt-5.1-chat-latest',
  'gpt-5',
  'gpt-5-mini',
  'gpt-5-nano',
  'gpt-5-pro',
  'gpt-5-codex',
  'gpt-5-chat-latest',
  'gpt-4.1',
  'gpt-4.1-mini',
  'gpt-4.1-nano',
  'gpt-4o',
  'gpt-4o-mini',
  'chatgpt-4o-latest',
  'o4-mini',
  'o3',
  'o3-mini',
  'o3-pro',
  'o1',
  'o1-mini',
  'o1-pro',
  'codex-mini-latest',
  // Older and special-purpose models the SDK still names.
  'o1-preview',
  'o3-deep-research',
  'o4-mini-deep-research',
  'gpt-4o-audio-preview',
  'gpt-4o-mini-audio-preview',
  'gpt-4o-search-preview',
  'gpt-4o-mini-search-preview',
  'computer-use-preview',
  'gpt-4-turbo',
  'gpt-4-turbo-preview',
  'gpt-4-1106-preview',
  'gpt-4-vision-preview',
  'gpt-4',
  'gpt-4-32k',
  'gpt-3.5-turbo',
  'gpt-3.5-turbo-16k',
  'gpt-3.5-turbo-1106',
];
