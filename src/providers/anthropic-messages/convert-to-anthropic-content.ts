/** Canonical content parts → Anthropic `text` and `image` blocks. */
import type {
  Base64ImageSource,
  ImageBlockParam,
  TextBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type { ContentPart } from '../../protocol/index.js';

/** A block of user, assistant or tool-result content. */
export type AnthropicContentBlock = TextBlockParam | ImageBlockParam;

type ImageMediaType = Base64ImageSource['media_type'];

/** The base64 image types Anthropic accepts, by the media type a `data:` URL may spell them with. */
const IMAGE_MEDIA_TYPES: Readonly<Record<string, ImageMediaType>> = {
  'image/jpeg': 'image/jpeg',
  'image/jpg': 'image/jpeg',
  'image/png': 'image/png',
  'image/gif': 'image/gif',
  'image/webp': 'image/webp',
};

/** An `image` block for a `data:` URL (base64 source) or an `https:` URL (url source); else undefined. */
export function convertToAnthropicImage(url: string): ImageBlockParam | undefined {
  const dataUrl = /^data:([^;,]+)(?:;[^,;]+)*;base64,(.*)$/s.exec(url);
  if (dataUrl) {
    const mediaType = IMAGE_MEDIA_TYPES[(dataUrl[1] ?? '').toLowerCase()];
    if (!mediaType) return undefined;
    return { type: 'image', source: { type: 'base64', media_type: mediaType, data: dataUrl[2] ?? '' } };
  }
  if (/^https:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  return undefined;
}

/**
 * Text and image blocks for some content parts. Empty text is left out (Anthropic rejects empty text
 * blocks); so are images Anthropic cannot take, and any image in assistant content (only user turns and
 * tool results may hold images), each with a warning.
 */
export function convertToAnthropicContent(
  parts: readonly ContentPart[],
  role: 'user' | 'assistant',
  warnings: string[],
): AnthropicContentBlock[] {
  const blocks: AnthropicContentBlock[] = [];
  for (const part of parts) {
    switch (part.type) {
      case 'input_text':
      case 'output_text':
        if (part.text !== '') blocks.push({ type: 'text', text: part.text });
        break;
      case 'input_image': {
        if (role === 'assistant') {
          warnings.push(
            'An image in an assistant message was left out: Anthropic takes images only from the user.',
          );
          break;
        }
        const image = convertToAnthropicImage(part.image_url);
        if (image) blocks.push(image);
        else
          warnings.push(
            'An image was left out: Anthropic takes jpeg, png, gif or webp as a base64 data: URL, or an https: URL.',
          );
        break;
      }
      default: {
        const exhaustive: never = part;
        throw new Error(`unknown content part ${JSON.stringify(exhaustive)}`);
      }
    }
  }
  return blocks;
}
