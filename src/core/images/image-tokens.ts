/**
 * What an image costs in input tokens, by each API's documented rule, from its pixel size (read from
 * the data URL's header; an image by https: URL or of unknown size costs the common middle figure).
 */
import type { InputImagePart, WireApi } from '../../protocol/index.js';
import { imageSize, type ImageSize } from './image-bytes.js';

/** An image of unknown size (see token-estimator.ts). */
export const UNKNOWN_IMAGE_TOKENS = 765;
/** OpenAI's flat price at `low` detail. */
export const OPENAI_LOW_DETAIL_TOKENS = 85;

/** OpenAI (high/auto): fit in 2048², shortest side to 768, then 85 + 170 per 512-px tile. */
export function openAIImageTokens({ width, height }: ImageSize): number {
  let scale = Math.min(1, 2048 / Math.max(width, height));
  scale *= Math.min(1, 768 / (Math.min(width, height) * scale));
  const tiles = Math.ceil((width * scale) / 512) * Math.ceil((height * scale) / 512);
  return 85 + 170 * tiles;
}

/** Anthropic: width × height / 750, after scaling the long edge to at most 1568 px. */
export function anthropicImageTokens({ width, height }: ImageSize): number {
  const scale = Math.min(1, 1568 / Math.max(width, height));
  return Math.ceil((width * scale * (height * scale)) / 750);
}

/** Gemini: 258 when both sides are at most 384 px, else 258 per 768-px tile. */
export function geminiImageTokens({ width, height }: ImageSize): number {
  if (width <= 384 && height <= 384) return 258;
  return 258 * Math.ceil(width / 768) * Math.ceil(height / 768);
}

/** Base64 characters decoded to read a header: 48 KiB covers the size marker of almost every JPEG. */
const HEADER_CHARACTERS = 64 * 1024;

function sizeOf(url: string): ImageSize | undefined {
  const comma = url.indexOf(',');
  if (!url.startsWith('data:') || comma < 0 || !url.slice(0, comma).endsWith(';base64')) return undefined;
  return imageSize(Buffer.from(url.slice(comma + 1, comma + 1 + HEADER_CHARACTERS), 'base64'));
}

/**
 * Tokens the image costs on `api`; with no API known, the largest of the three (so compaction comes
 * early rather than late). The next usage report corrects any difference.
 */
export function imageTokens(part: InputImagePart, api?: WireApi): number {
  // `low` is OpenAI's hint (the others ignore it); with no API known it is taken at its word.
  const openAI = api === undefined || api === 'openai-responses' || api === 'openai-chat';
  if (part.detail === 'low' && openAI) return OPENAI_LOW_DETAIL_TOKENS;
  const size = sizeOf(part.image_url);
  if (size === undefined || size.width === 0 || size.height === 0) return UNKNOWN_IMAGE_TOKENS;
  switch (api) {
    case 'openai-responses':
    case 'openai-chat':
      return openAIImageTokens(size);
    case 'anthropic-messages':
      return anthropicImageTokens(size);
    case 'gemini':
      return geminiImageTokens(size);
    default:
      return Math.max(openAIImageTokens(size), anthropicImageTokens(size), geminiImageTokens(size));
  }
}
