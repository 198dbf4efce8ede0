/**
 * An attached image as content parts, and back. The image travels as an `input_image` data URL (what
 * Codex records), between an `<image name=…>` and a `</image>` text part as Codex labels local images,
 * so the model and a later compaction know which file it was.
 */
import type { ContentPart, InputImagePart, MessageItem } from '../../protocol/index.js';
import { sniffImageType, type ImageMimeType } from './image-bytes.js';

const OPEN_TAG = /^<image name=(.*)>$/s;
export const IMAGE_CLOSE_TAG = '</image>';

/** An image read and checked: its bytes, its type (from the bytes) and the name it is shown under. */
export interface LoadedImage {
  name: string;
  mimeType: ImageMimeType;
  bytes: Uint8Array;
}

/** The data URL of an image. */
export function imageDataUrl(image: LoadedImage): string {
  return `data:${image.mimeType};base64,${Buffer.from(image.bytes).toString('base64')}`;
}

/** The parts for one image: its name tag, the image, the closing tag. */
export function imageParts(image: LoadedImage): ContentPart[] {
  return [
    { type: 'input_text', text: `<image name=${image.name}>` },
    { type: 'input_image', image_url: imageDataUrl(image) },
    { type: 'input_text', text: IMAGE_CLOSE_TAG },
  ];
}

/** Whether a text part is one of the tags around an image (not something the person wrote). */
export function isImageTag(text: string): boolean {
  return text === IMAGE_CLOSE_TAG || OPEN_TAG.test(text);
}

/** The bytes of a base64 data URL, or undefined for any other URL. */
export function dataUrlBytes(url: string): Uint8Array | undefined {
  const match = /^data:[^;,]*;base64,(.*)$/s.exec(url);
  return match?.[1] !== undefined ? Buffer.from(match[1], 'base64') : undefined;
}

/** The decoded bytes of every data-URL image in `parts` (images by https: URL are not counted). */
export function imagesIn(parts: readonly ContentPart[]): Array<{ part: InputImagePart; bytes: Uint8Array }> {
  return parts.flatMap((part) => {
    if (part.type !== 'input_image') return [];
    const bytes = dataUrlBytes(part.image_url);
    return bytes && sniffImageType(bytes) ? [{ part, bytes }] : [];
  });
}

/**
 * The parts with each image (and its tags) replaced by `[image: name]` text (`[image]` when it had no
 * name). Parts without images are returned as-is.
 */
export function namedImageParts(parts: readonly ContentPart[]): ContentPart[] {
  if (!parts.some((part) => part.type === 'input_image')) return [...parts];
  const content: ContentPart[] = [];
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index];
    if (part === undefined) continue;
    const next = parts[index + 1];
    const tag = part.type === 'input_text' ? OPEN_TAG.exec(part.text) : null;
    if (tag && next?.type === 'input_image') {
      content.push({ type: 'input_text', text: `[image: ${tag[1] ?? ''}]` });
      const close = parts[index + 2];
      index += close?.type === 'input_text' && close.text === IMAGE_CLOSE_TAG ? 2 : 1;
    } else if (part.type === 'input_image') {
      content.push({ type: 'input_text', text: '[image]' });
    } else {
      content.push(part);
    }
  }
  return content;
}

/**
 * The message with each image (and its tags) replaced by `[image: name]` text: what compaction keeps of
 * images before the cut. Messages without images are returned as-is.
 */
export function withImagesNamed(message: MessageItem): MessageItem {
  if (!message.content.some((part) => part.type === 'input_image')) return message;
  return { ...message, content: namedImageParts(message.content) };
}
