/**
 * Token estimation. OpenAI models can be counted exactly with the o200k/cl100k encodings (gpt-tokenizer,
 * loaded only when a count matters); everything else uses a heuristic calibrated against o200k.
 */
import type { ContentPart, ResponseItem, WireApi } from '../../protocol/index.js';

export interface TokenEstimator {
  readonly kind: 'o200k' | 'cl100k' | 'heuristic';
  countText(text: string): number;
  countItem(item: ResponseItem): number;
}

/**
 * Heuristic weights, fitted by least squares against gpt-tokenizer's o200k counts over a mixed corpus
 * (TypeScript, Markdown prose, indented JSON, shell output; see bench/estimate-accuracy and DECISIONS.md)
 * and then raised 5% so the estimate errs towards compacting early rather than overflowing.
 * - a letter run costs 1 token per 8 letters, started (most English words are one token);
 * - a digit run 1 token per 3 digits (o200k splits numbers in groups of up to three);
 * - punctuation ~0.35 (common pairs like `":` `();` `=>` merge);
 * - a whitespace run other than a single space ~1.4 (indentation and newlines are their own tokens);
 * - a non-ASCII code point ~1.35 (CJK is about one token per character, emoji more).
 */
const WEIGHTS = { word: 1.25, digits: 1.45, punctuation: 0.35, whitespace: 1.4, nonAscii: 1.35 } as const;

/** Framing tokens every item costs on the wire (role markers, separators): what OpenAI documents per message. */
export const ITEM_OVERHEAD_TOKENS = 4;
/**
 * An image: 765 tokens is OpenAI's cost for a 1024×1024 high-detail image (85 base + 4 tiles × 170),
 * close to Anthropic's ~1.6k/megapixel and Gemini's 258 per tile; a fixed figure keeps estimates cheap.
 */
export const IMAGE_TOKENS = 765;

const PUNCTUATION = /[!-/:-@[-`{-~]/g;
const WHITESPACE_RUN = /\s{2,}|[\t\n\r]/g;
const LETTER_RUN = /[A-Za-z]+/g;
const DIGIT_RUN = /[0-9]+/g;

export function heuristicCountText(text: string): number {
  if (text.length === 0) return 0;
  let words = 0;
  for (const match of text.matchAll(LETTER_RUN)) words += 1 + Math.floor((match[0].length - 1) / 8);
  let digits = 0;
  for (const match of text.matchAll(DIGIT_RUN)) digits += Math.ceil(match[0].length / 3);
  const punctuation = text.match(PUNCTUATION)?.length ?? 0;
  const whitespace = text.match(WHITESPACE_RUN)?.length ?? 0;
  let nonAscii = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code > 127 && (code < 0xdc00 || code > 0xdfff)) nonAscii += 1; // low surrogates are part of a pair
  }
  return Math.ceil(
    words * WEIGHTS.word +
      digits * WEIGHTS.digits +
      punctuation * WEIGHTS.punctuation +
      whitespace * WEIGHTS.whitespace +
      nonAscii * WEIGHTS.nonAscii,
  );
}

function countParts(parts: readonly ContentPart[], countText: (text: string) => number): number {
  let total = 0;
  for (const part of parts) total += part.type === 'input_image' ? IMAGE_TOKENS : countText(part.text);
  return total;
}

/** Tokens an item costs when sent, given a text counter. Ghost snapshots and opaque items are never sent. */
export function countItemWith(item: ResponseItem, countText: (text: string) => number): number {
  switch (item.type) {
    case 'message':
      return ITEM_OVERHEAD_TOKENS + countParts(item.content, countText);
    case 'function_call':
      return ITEM_OVERHEAD_TOKENS + countText(item.name) + countText(item.arguments);
    case 'function_call_output':
      return (
        ITEM_OVERHEAD_TOKENS +
        (typeof item.output === 'string' ? countText(item.output) : countParts(item.output, countText))
      );
    case 'reasoning': {
      let total = ITEM_OVERHEAD_TOKENS;
      for (const part of item.summary) total += countText(part.text);
      for (const part of item.content ?? []) total += countText(part.text);
      // Encrypted reasoning stands for hidden tokens; a quarter of its base64 length is a fair upper guess.
      if (item.encrypted_content) total += Math.ceil(item.encrypted_content.length / 4);
      return total;
    }
    case 'ghost_snapshot':
    case 'opaque':
      return 0;
    default: {
      const exhaustive: never = item;
      throw new Error(`unknown item ${JSON.stringify(exhaustive)}`);
    }
  }
}

export function heuristicEstimator(): TokenEstimator {
  return {
    kind: 'heuristic',
    countText: heuristicCountText,
    countItem: (item) => countItemWith(item, heuristicCountText),
  };
}

/** Which exact encoding an OpenAI model uses, if any. */
export function encodingFor(api: WireApi, model: string): 'o200k' | 'cl100k' | undefined {
  if (api !== 'openai-chat' && api !== 'openai-responses') return undefined;
  const bare = model.replace(/^[\w.-]+\//, '');
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o\d|chatgpt-4o|gpt-oss)/.test(bare)) return 'o200k';
  if (/^(gpt-4|gpt-3\.5)/.test(bare)) return 'cl100k';
  return undefined;
}

/**
 * The exact tokenizer for OpenAI models when `exact` is asked for (it costs ~0.2 s to load, so callers
 * ask only near the limit), the heuristic otherwise.
 */
export async function createTokenEstimator(options: {
  api: WireApi;
  model: string;
  exact: boolean;
}): Promise<TokenEstimator> {
  const encoding = options.exact ? encodingFor(options.api, options.model) : undefined;
  if (encoding === 'o200k') {
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
    return exactEstimator('o200k', countTokens);
  }
  if (encoding === 'cl100k') {
    const { countTokens } = await import('gpt-tokenizer/encoding/cl100k_base');
    return exactEstimator('cl100k', countTokens);
  }
  return heuristicEstimator();
}

function exactEstimator(kind: 'o200k' | 'cl100k', count: (text: string) => number): TokenEstimator {
  const countText = (text: string): number => (text.length === 0 ? 0 : count(text));
  return { kind, countText, countItem: (item) => countItemWith(item, countText) };
}
