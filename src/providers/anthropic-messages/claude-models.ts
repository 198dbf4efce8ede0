/**
 * Claude's models, once for Anthropic's API and for Bedrock (which serves the same models under
 * `anthropic.claude-…` ids): window, output limit, thinking and list price of every model the pinned
 * `@anthropic-ai/sdk` names (its `Model` union; tests/unit/providers/sdk-model-unions.test.ts holds the
 * two together). Source: https://docs.claude.com/en/docs/about-claude/models/overview and
 * https://docs.claude.com/en/docs/about-claude/pricing (USD per million tokens; cached: cache reads).
 * Every Claude model takes images and, since 3.7, thinks with a budget. Where Anthropic's model list
 * (`cody models`, cached) reports a model's limits, those win over these figures.
 */
import type { ModelEntry, PriceEntry } from '../definition.js';

interface ClaudeFamily {
  /** The model id after `claude-` (a prefix: dated snapshots share it). */
  id: string;
  contextWindow: number;
  maxOutputTokens: number;
  thinks: boolean;
  /** Absent: the line's price has not been published where Cody's authors could read it; no cost is shown. */
  price?: { input: number; output: number };
}

const OPUS = { input: 5, output: 25 };
const SONNET = { input: 3, output: 15 };
const HAIKU = { input: 1, output: 5 };

/** Most specific first. The 5.x lines are priced as their line's 4.x (Anthropic keeps a line's price). */
export const CLAUDE_FAMILIES: readonly ClaudeFamily[] = [
  ...['opus-5-5', 'opus-5', 'opus-4-8', 'opus-4-7', 'opus-4-6', 'opus-4-5'].map((id) => ({
    id,
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    thinks: true,
    price: OPUS,
  })),
  {
    id: 'opus-4',
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    thinks: true,
    price: { input: 15, output: 75 },
  },
  ...['sonnet-5-5', 'sonnet-5', 'sonnet-4'].map((id) => ({
    id,
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    thinks: true,
    price: SONNET,
  })),
  ...['haiku-5-5', 'haiku-4-5'].map((id) => ({
    id,
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    thinks: true,
    price: HAIKU,
  })),
  // Fable and Mythos: lines whose figures Anthropic's list reports (`cody models`); no price is guessed.
  ...['fable-5', 'mythos-5', 'mythos-preview'].map((id) => ({
    id,
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    thinks: true,
  })),
  { id: '3-7-sonnet', contextWindow: 200_000, maxOutputTokens: 8_192, thinks: true, price: SONNET },
  {
    id: '3-5-haiku',
    contextWindow: 200_000,
    maxOutputTokens: 8_192,
    thinks: false,
    price: { input: 0.8, output: 4 },
  },
  { id: '3-5-sonnet', contextWindow: 200_000, maxOutputTokens: 8_192, thinks: false, price: SONNET },
];

/** Catalogue entries for ids matching `prefix` + `claude-` + the family (`^` or `anthropic\.`). */
export function claudeModelEntries(prefix: string): ModelEntry[] {
  return CLAUDE_FAMILIES.map((family) => ({
    pattern: new RegExp(`${prefix}claude-${family.id}`),
    contextWindow: family.contextWindow,
    maxOutputTokens: family.maxOutputTokens,
    ...(family.thinks ? { reasoning: true as const, effort: true as const } : {}),
  }));
}

/** Price entries likewise; a cache read costs a tenth of the input price. */
export function claudePriceEntries(prefix: string): PriceEntry[] {
  return CLAUDE_FAMILIES.flatMap((family) =>
    family.price
      ? [
          {
            pattern: new RegExp(`${prefix}claude-${family.id}`),
            input: family.price.input,
            cachedInput: family.price.input / 10,
            output: family.price.output,
          },
        ]
      : [],
  );
}

/** The ids Anthropic publishes now (aliases; dated snapshots of these pass the typo check as well). */
export const CLAUDE_KNOWN_MODELS: readonly string[] = [
  'claude-opus-5-5',
  'claude-sonnet-5-5',
  'claude-haiku-5-5',
  'claude-opus-5',
  'claude-sonnet-5',
  'claude-fable-5-2',
  'claude-fable-5-1',
  'claude-fable-5',
  'claude-mythos-5-2',
  'claude-mythos-5-1',
  'claude-mythos-5',
  'claude-mythos-preview',
  'claude-opus-4-8',
  'claude-opus-4-7',
  'claude-opus-4-6',
  'claude-sonnet-4-6',
  'claude-opus-4-5',
  'claude-sonnet-4-5',
  'claude-haiku-4-5',
  'claude-opus-4-1',
  'claude-opus-4-0',
  'claude-sonnet-4-0',
  'claude-3-7-sonnet-latest',
  'claude-3-5-haiku-latest',
];
