/** Canonical content parts → Converse `text` and `image` blocks, and tool-use ids Converse accepts. */
import type { ContentBlock, ImageBlock, ImageFormat } from '@aws-sdk/client-bedrock-runtime';
import type { ContentPart } from '../../protocol/index.js';

/** The image formats Converse takes, by the media type a `data:` URL may spell them with. */
const IMAGE_FORMATS: Readonly<Record<string, ImageFormat>> = {
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/** An image block for a base64 `data:` URL; undefined for anything else (Converse takes bytes or S3). */
export function convertToConverseImage(url: string): ImageBlock | undefined {
  const dataUrl = /^data:([^;,]+)(?:;[^,;]+)*;base64,(.*)$/s.exec(url);
  const format = IMAGE_FORMATS[(dataUrl?.[1] ?? '').toLowerCase()];
  if (!dataUrl || !format) return undefined;
  return { format, source: { bytes: Buffer.from(dataUrl[2] ?? '', 'base64') } };
}

/**
 * Text and image blocks for some content parts. Empty text is left out (Converse rejects blank text
 * blocks); so are images it cannot take and any image in assistant content, each with a warning.
 */
export function convertToConverseContent(
  parts: readonly ContentPart[],
  role: 'user' | 'assistant',
  warnings: string[],
): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  for (const part of parts) {
    switch (part.type) {
      case 'input_text':
      case 'output_text':
        if (part.text !== '') blocks.push({ text: part.text });
        break;
      case 'input_image': {
        if (role === 'assistant') {
          warnings.push(
            'An image in an assistant message was left out: Converse takes images only from the user.',
          );
          break;
        }
        const image = convertToConverseImage(part.image_url);
        if (image) blocks.push({ image });
        else
          warnings.push(
            'An image was left out: Bedrock Converse takes jpeg, png, gif or webp as a base64 data: URL.',
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

/** Tool-use ids Converse accepts: `[a-zA-Z0-9_-]+`, at most 64 characters. */
const VALID_TOOL_ID = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The `toolUseId` for a canonical `call_id`: valid ids pass unchanged (so Bedrock's own `tooluse_…` ids
 * round-trip); others get invalid characters replaced and a hash of the original appended, so the call
 * and its result, converted separately, agree, and two ids differing in a replaced character stay apart.
 */
export function toConverseToolId(callId: string): string {
  if (VALID_TOOL_ID.test(callId)) return callId;
  let hash = 0x811c9dc5;
  for (let index = 0; index < callId.length; index += 1) {
    hash ^= callId.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  const suffix = `_${(hash >>> 0).toString(36)}`;
  const cleaned = callId.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64 - suffix.length);
  return `${cleaned === '' ? 'call' : cleaned}${suffix}`;
}
