/**
 * What an image costs in input tokens, by each API's documented rule, from its pixel size (read from
 * the data URL's header; an image by https: URL or of unknown size costs the common middle figure).
 */
import type { InputImagePart, WireApi } from '../../protocol/index.js';
import { OPENAI_LOW_DETAIL_TOKENS } from '../../providers/openai-shared/openai-tokens.js';
import { definitionOf, definitions } from '../../providers/lookup.js';
import { imageSize, type ImageSize } from './image-bytes.js';

/** An image of unknown size (see token-estimator.ts). */
export const UNKNOWN_IMAGE_TOKENS = 765;
export { OPENAI_LOW_DETAIL_TOKENS, openAIImageTokens } from '../../providers/openai-shared/openai-tokens.js';
export { anthropicImageTokens } from '../../providers/anthropic-messages/image-tokens.js';
export { geminiImageTokens } from '../../providers/gemini/image-tokens.js';

/** Base64 characters decoded to read a header: 48 KiB covers the size marker of almost every JPEG. */
const HEADER_CHARACTERS = 64 * 1024;

function sizeOf(url: string): ImageSize | undefined {
  const comma = url.indexOf(',');
  if (!url.startsWith('data:') || comma < 0 || !url.slice(0, comma).endsWith(';base64')) return undefined;
  return imageSize(Buffer.from(url.slice(comma + 1, comma + 1 + HEADER_CHARACTERS), 'base64'));
}

/**
 * Tokens the image costs on `api`, by its definition's rule (`imageTokens`); with no API known (or one
 * without a rule), the largest of the registered APIs' (so compaction comes early rather than late). The
 * next usage report corrects any difference.
 */
export function imageTokens(part: InputImagePart, api?: WireApi): number {
  const rule = api !== undefined ? definitionOf(api)?.imageTokens : undefined;
  const measured = sizeOf(part.image_url);
  const size = measured && measured.width > 0 && measured.height > 0 ? measured : undefined;
  if (rule)
    return (
      rule({ ...(size ? { size } : {}), ...(part.detail ? { detail: part.detail } : {}) }) ??
      UNKNOWN_IMAGE_TOKENS
    );
  // `low` is OpenAI's hint (the others ignore it); with no API known it is taken at its word.
  if (part.detail === 'low') return OPENAI_LOW_DETAIL_TOKENS;
  if (size === undefined) return UNKNOWN_IMAGE_TOKENS;
  const estimates = definitions().flatMap((definition) => definition.imageTokens?.({ size }) ?? []);
  return estimates.length > 0 ? Math.max(...estimates) : UNKNOWN_IMAGE_TOKENS;
}
