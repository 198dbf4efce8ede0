/** Canonical content parts → Gemini `text`, `inlineData` and `fileData` parts. */
import type { Part } from '@google/genai';
import type { ContentPart } from '../../protocol/index.js';

/** Image types by file extension, for `fileData` (Gemini needs a MIME type for a URL it fetches). */
const IMAGE_TYPES_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
};

/** The type assumed for an image URL without a known extension: the most common one on the web. */
const FALLBACK_IMAGE_TYPE = 'image/jpeg';

/** An `inlineData` part for a base64 `data:` URL, a `fileData` part for an `https:` URL; else undefined. */
export function convertToGeminiMedia(url: string): Part | undefined {
  const dataUrl = /^data:([^;,]+)(?:;[^,;]+)*;base64,(.*)$/s.exec(url);
  if (dataUrl) return { inlineData: { mimeType: (dataUrl[1] ?? '').toLowerCase(), data: dataUrl[2] ?? '' } };
  if (/^https:\/\//i.test(url)) {
    const extension = /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(url)?.[1]?.toLowerCase() ?? '';
    return {
      fileData: { fileUri: url, mimeType: IMAGE_TYPES_BY_EXTENSION[extension] ?? FALLBACK_IMAGE_TYPE },
    };
  }
  return undefined;
}

/** Text and media parts; empty text is left out, and so is an image that is no data:/https: URL (warned). */
export function convertToGeminiParts(parts: readonly ContentPart[], warnings: string[]): Part[] {
  const result: Part[] = [];
  for (const part of parts) {
    switch (part.type) {
      case 'input_text':
      case 'output_text':
        if (part.text !== '') result.push({ text: part.text });
        break;
      case 'input_image': {
        const media = convertToGeminiMedia(part.image_url);
        if (media) result.push(media);
        else warnings.push('An image was left out: Gemini takes a base64 data: URL or an https: URL.');
        break;
      }
      default: {
        const exhaustive: never = part;
        throw new Error(`unknown content part ${JSON.stringify(exhaustive)}`);
      }
    }
  }
  return result;
}
