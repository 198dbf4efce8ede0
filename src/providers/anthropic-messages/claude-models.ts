/**
 * Claude's models, once for Anthropic's API and for Bedrock (which serves the same models under
 * `anthropic.claude-…` ids): window, output limit, thinking and list price of every model the pinned
 * `@anthropic-ai/sdk` names (its `Model` union; tests/unit/providers/sdk-model-unions.test.ts holds the
 * two together). Where Anthropic's model list (`cody models`, cached) reports a model's limits, those
 * win over these figures.
 *
 * Sources (checked 2026-11-29): each model's page, https://platform.claude.com/docs/en/models/<model>/overview
 * (window, output limit, thinking), and the pricing page, https://platform.claude.com/docs/en/about-claude/pricing
 * (USD per million tokens; cached: "cache hits and refreshes"). Which models refuse a thinking budget:
 * https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-adaptive-thinking.html and
 * https://vercel.com/docs/ai-gateway/models-and-providers/reasoning/anthropic (secondary: "Opus 4.7 and
 * later"). How each adaptive model turns thinking off (checked 2026-11-30): the Opus 5.5 "what's new" and
 * migration pages (Opus 5.5 and Fable 5.1 cannot: `disabled` and `enabled` are both a 400; Opus 5 takes
 * `disabled` at effort high or lower), the Sonnet 5.5 migration guide (`between_tools` replaces
 * `disabled`), the Fable 5 migration guide (Fable 5 and Mythos 5 refuse `disabled`), AWS's page above
 * (Opus 4.7 and Mythos Preview refuse `disabled`) and the Opus 5 "what's new" page (Opus 4.8 does not think
 * unless asked). Every Claude model takes images.
 */
import type { ModelEntry, PriceEntry } from '../definition.js';

/**
 * How a family thinks. `budget`: `thinking: {type: "enabled", budget_tokens}`. `adaptive`: adaptive
 * thinking only, `thinking: {type: "adaptive"}` with `output_config.effort`; a budget is refused (400).
 * `none`: no thinking.
 */
type ClaudeThinking = 'budget' | 'adaptive' | 'none';

/**
 * How `--reasoning off` reaches an adaptive model, as its documentation says. `omit`: it thinks only when
 * asked (Opus 4.7, 4.8), so no thinking parameter. `disabled`: it thinks by default and takes
 * `thinking: {type: "disabled"}`. `between-tools`: `disabled` is refused and `between_tools` (no
 * up-front thinking, only short notes between tool calls) is its lowest setting (Sonnet 5.5). `always`:
 * thinking cannot be turned off (`disabled` is a 400), so adaptive thinking at the lowest effort.
 */
export type ClaudeThinkingOff = 'omit' | 'disabled' | 'between-tools' | 'always';

/** What the Anthropic and Bedrock clients send a Claude model for the reasoning level. */
export type ClaudeThinkingControl =
  { kind: 'budget' } | { kind: 'adaptive'; off: ClaudeThinkingOff } | { kind: 'none' };

interface ClaudeFamily {
  /** The model id after `claude-` (a prefix: dated snapshots share it). */
  id: string;
  contextWindow: number;
  maxOutputTokens: number;
  thinking: ClaudeThinking;
  /** For `adaptive`: how thinking is turned off. */
  off?: ClaudeThinkingOff;
  /** Absent: no published price was found; no cost is shown. */
  price?: { input: number; cachedInput?: number; output: number };
}

const K = 1_000;
const M = 1_000_000;
/** Claude 4.6 and later: a 1M window and 128K output, thinking adaptively. */
const LATEST = { contextWindow: M, maxOutputTokens: 128 * K, thinking: 'adaptive' } as const;
/** Thinking always on: `off` is the lowest effort. */
const ALWAYS = { ...LATEST, off: 'always' } as const;
/** Thinking on by default, `disabled` accepted. */
const DISABLES = { ...LATEST, off: 'disabled' } as const;
const CLAUDE_4 = { contextWindow: 200 * K, maxOutputTokens: 64 * K, thinking: 'budget' } as const;
const OPUS_5 = { input: 5, cachedInput: 0.5, output: 25 };
const OPUS_4 = { input: 15, cachedInput: 1.5, output: 75 };
const SONNET_4 = { input: 3, cachedInput: 0.3, output: 15 };

/** Most specific first: `opus-5` would also match `opus-5-5`. */
export const CLAUDE_FAMILIES: readonly ClaudeFamily[] = [
  // Adaptive thinking always on (effort default medium); cache hits at 0.05x.
  { id: 'opus-5-5', ...ALWAYS, price: { input: 4, cachedInput: 0.2, output: 20 } },
  { id: 'opus-5', ...DISABLES, price: OPUS_5 },
  // The Sonnet 5.5 cache-hit price fell from $0.20 to $0.10 on 2026-10-07 (the pricing page; the model
  // page's snapshot still read $0.20; the date from secondary trackers, e.g. kurofune/claudit v1.9.2).
  { id: 'sonnet-5-5', ...LATEST, off: 'between-tools', price: { input: 2, cachedInput: 0.1, output: 10 } },
  { id: 'sonnet-5', ...DISABLES, price: { input: 2, cachedInput: 0.2, output: 10 } },
  // Haiku 5.5 is priced by prompt length: these are the rates up to 100,000 prompt tokens; a longer
  // prompt pays $0.50 / $0.05 cached / $2.50 on the whole request.
  { id: 'haiku-5-5', ...DISABLES, price: { input: 0.1, cachedInput: 0.01, output: 0.5 } },
  // Fable and Mythos (Mythos by invitation, same specifications and price as the Fable of its version);
  // none of them turns thinking off (5.2 assumed as 5 and 5.1: its page was not found).
  // 5.2 at $8 / $40 is from the models pages' comparison table; its cache-hit price was not found.
  ...['fable-5-2', 'mythos-5-2'].map((id) => ({ id, ...ALWAYS, price: { input: 8, output: 40 } })),
  ...['fable-5-1', 'mythos-5-1'].map((id) => ({
    id,
    ...ALWAYS,
    price: { input: 10, cachedInput: 0.25, output: 50 },
  })),
  ...['fable-5', 'mythos-5'].map((id) => ({
    id,
    ...ALWAYS,
    price: { input: 10, cachedInput: 1, output: 50 },
  })),
  // Mythos Preview (gated): adaptive only, always on (AWS's page); window, output limit and price unverified.
  {
    id: 'mythos-preview',
    contextWindow: 200 * K,
    maxOutputTokens: 64 * K,
    thinking: 'adaptive',
    off: 'always',
  },
  // Opus 4.7 and 4.8 think only when asked (4.7 refuses `disabled`).
  { id: 'opus-4-8', ...LATEST, off: 'omit', price: OPUS_5 },
  { id: 'opus-4-7', ...LATEST, off: 'omit', price: OPUS_5 },
  // 4.6 takes a budget still (deprecated in favour of adaptive thinking).
  { id: 'opus-4-6', ...LATEST, thinking: 'budget', price: OPUS_5 },
  { id: 'opus-4-5', ...CLAUDE_4, price: OPUS_5 },
  // Opus 4 and 4.1 (retired on Anthropic's API; Bedrock and Google Cloud still serve 4.1).
  { id: 'opus-4', ...CLAUDE_4, maxOutputTokens: 32 * K, price: OPUS_4 },
  // Sonnet 4.6: 1M window, 64K output (models.dev, secondary; the model page was not found).
  { id: 'sonnet-4-6', ...CLAUDE_4, contextWindow: M, price: SONNET_4 },
  { id: 'sonnet-4', ...CLAUDE_4, price: SONNET_4 },
  { id: 'haiku-4-5', ...CLAUDE_4, price: { input: 1, cachedInput: 0.1, output: 5 } },
  { id: '3-7-sonnet', ...CLAUDE_4, price: SONNET_4 },
  {
    id: '3-5-haiku',
    contextWindow: 200 * K,
    maxOutputTokens: 8_192,
    thinking: 'none',
    price: { input: 0.8, cachedInput: 0.08, output: 4 },
  },
  { id: '3-5-sonnet', contextWindow: 200 * K, maxOutputTokens: 8_192, thinking: 'none', price: SONNET_4 },
];

const REASONING: Record<ClaudeThinking, Pick<ModelEntry, 'reasoning' | 'effort'>> = {
  budget: { reasoning: true, effort: true },
  adaptive: { reasoning: true, effort: true },
  none: {},
};

/** Catalogue entries for ids matching `prefix` + `claude-` + the family (`^` or `anthropic\.`). */
export function claudeModelEntries(prefix: string): ModelEntry[] {
  return CLAUDE_FAMILIES.map((family) => ({
    pattern: new RegExp(`${prefix}claude-${family.id}`),
    contextWindow: family.contextWindow,
    maxOutputTokens: family.maxOutputTokens,
    ...REASONING[family.thinking],
  }));
}

/** The family's id patterns, matched anywhere a Claude id may sit (`claude-…`, `anthropic.claude-…`, ARNs). */
const FAMILY_PATTERNS = CLAUDE_FAMILIES.map((family) => ({
  family,
  pattern: new RegExp(`(^|[./])claude-${family.id}`),
}));

/**
 * How `model` takes the reasoning level (Anthropic's ids, Bedrock's, dated snapshots, inference profiles);
 * a Claude model the catalogue does not know takes a budget, as every Claude model before 4.6 did.
 */
export function claudeThinkingControl(model: string): ClaudeThinkingControl {
  const id = model.toLowerCase();
  const family = FAMILY_PATTERNS.find(({ pattern }) => pattern.test(id))?.family;
  if (family?.thinking === 'adaptive') return { kind: 'adaptive', off: family.off ?? 'always' };
  return { kind: family?.thinking ?? 'budget' };
}

/** Price entries likewise. */
export function claudePriceEntries(prefix: string): PriceEntry[] {
  return CLAUDE_FAMILIES.flatMap((family) =>
    family.price ? [{ pattern: new RegExp(`${prefix}claude-${family.id}`), ...family.price }] : [],
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
