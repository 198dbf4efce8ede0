/** What OpenAI's models count: images by OpenAI's rule, text by the o200k or cl100k encoding. */
import type { ExactEncoding, ImageEstimateRequest } from '../definition.js';

/** OpenAI's flat price at `low` detail. */
export const OPENAI_LOW_DETAIL_TOKENS = 85;

/** OpenAI (high/auto): fit in 2048², shortest side to 768, then 85 + 170 per 512-px tile. */
export function openAIImageTokens({ width, height }: { width: number; height: number }): number {
  let scale = Math.min(1, 2048 / Math.max(width, height));
  scale *= Math.min(1, 768 / (Math.min(width, height) * scale));
  const tiles = Math.ceil((width * scale) / 512) * Math.ceil((height * scale) / 512);
  return 85 + 170 * tiles;
}

/** An image on an OpenAI API: `low` detail is flat, else by its size (unknown size: undefined). */
export function openAIImageEstimate(image: ImageEstimateRequest): number | undefined {
  if (image.detail === 'low') return OPENAI_LOW_DETAIL_TOKENS;
  return image.size ? openAIImageTokens(image.size) : undefined;
}

/**
 * The encoding an OpenAI model uses: o200k for the GPT-4o, 4.1, 4.5, 5.x, o-series, codex and
 * gpt-oss families; cl100k for GPT-4 and GPT-3.5. `undefined` for unknown models (a local model behind
 * an OpenAI-compatible server has its own tokenizer). Accepts `vendor/` and `ft:` prefixes.
 */
export function openAIEncoding(model: string): ExactEncoding | undefined {
  const bare = model
    .toLowerCase()
    .replace(/^ft:/, '')
    .replace(/^[\w.-]+\//, '');
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|chatgpt-|o\d|codex|gpt-oss)/.test(bare)) return 'o200k';
  if (/^(gpt-4|gpt-3\.5)/.test(bare)) return 'cl100k';
  return undefined;
}
