/**
 * Images a person attaches to a message (`submit(text, { images })`, `cody chat --image`, `@shot.png`):
 * read, checked by their bytes and size, and turned into content parts; and the check, before anything
 * is sent, that the chosen model and API take them.
 */
import { basename, resolve } from 'node:path';
import type { ContentPart, WireApi } from '../../protocol/index.js';
import { definitionOf } from '../../providers/lookup.js';
import { errorMessage, UsageError } from '../errors.js';
import { readOwnFile, RefusedFileError } from '../fs/index.js';
import { sniffImageType } from './image-bytes.js';
import { imageParts, imagesIn, type LoadedImage } from './image-parts.js';

/** An image to attach: a file path (relative to the process's working directory), or its bytes. */
export type ImageInput =
  | string
  | { path: string; name?: string }
  /** The bytes, or them in base64 (as a JSON body carries them). */
  | { data: string | Uint8Array; name?: string };

/** The largest image Cody attaches, whatever the API (OpenAI's own per-image limit). */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

const TYPES = 'PNG, JPEG, GIF or WebP';

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function checked(name: string, bytes: Uint8Array): LoadedImage {
  if (bytes.length > MAX_IMAGE_BYTES)
    throw new UsageError(`${name} is too large to attach: ${megabytes(bytes.length)} (at most 20 MB).`);
  const mimeType = sniffImageType(bytes);
  if (mimeType === undefined) throw new UsageError(`${name} is not a ${TYPES} image (checked by its bytes).`);
  return { name, mimeType, bytes };
}

/** Reads and checks one image; a `UsageError` (one line) when it is missing, too large or no image. */
export async function loadImage(input: ImageInput): Promise<LoadedImage> {
  if (typeof input !== 'string' && 'data' in input) {
    const bytes = typeof input.data === 'string' ? Buffer.from(input.data, 'base64') : input.data;
    return checked(input.name ?? 'image', bytes);
  }
  const path = typeof input === 'string' ? input : input.path;
  const name = (typeof input === 'string' ? undefined : input.name) ?? basename(path);
  // A path the person (or a tool's policy) chose: anywhere, but only a regular file, and never more
  // than the limit read (a 2 GB file is refused before reading; /dev/zero or a FIFO is no image).
  let file;
  try {
    file = await readOwnFile(resolve(path), { maxBytes: MAX_IMAGE_BYTES });
  } catch (error) {
    if (!(error instanceof RefusedFileError))
      throw new UsageError(`Cannot read image ${path}: ${errorMessage(error)}.`);
    if (error.reason === 'too-large')
      throw new UsageError(
        `${name} is too large to attach: ${error.size !== undefined ? megabytes(error.size) : 'over 20 MB'} (at most 20 MB).`,
      );
    throw new UsageError(`${path} ${error.problem}.`);
  }
  if (!file) throw new UsageError(`Cannot read image ${path}: no such file.`);
  return checked(name, file.bytes);
}

/** The message content: the text, then each image with its name tag. */
export async function messageWithImages(
  message: string | ContentPart[],
  images: readonly ImageInput[],
): Promise<ContentPart[]> {
  const content: ContentPart[] =
    typeof message === 'string' ? [{ type: 'input_text', text: message }] : [...message];
  for (const input of images) content.push(...imageParts(await loadImage(input)));
  return content;
}

/**
 * Throws a one-line `UsageError` when the content has images the model or API cannot take: a model the
 * catalogue knows takes none, or an image (or the request's images) over the API's own limit.
 */
export function checkImagesFor(
  content: readonly ContentPart[],
  target: { api: WireApi; model: string; acceptsImages: boolean },
): void {
  const images = imagesIn(content);
  if (images.length === 0 && !content.some((part) => part.type === 'input_image')) return;
  if (!target.acceptsImages)
    throw new UsageError(
      `Model '${target.model}' does not accept images; choose a model with vision or send the message without them.`,
    );
  // What the API takes (its definition's `imageLimits`): Anthropic 5 MB an image, Gemini 20 MB a request.
  const limits = definitionOf(target.api)?.imageLimits ?? { label: target.api };
  let total = 0;
  for (const { bytes } of images) {
    const encoded = Math.ceil(bytes.length / 3) * 4;
    total += encoded;
    if (limits.perImage !== undefined && encoded > limits.perImage)
      throw new UsageError(
        `An image is too large for ${limits.label}: ${megabytes(encoded)} encoded (at most ${megabytes(limits.perImage)}).`,
      );
  }
  if (limits.perRequest !== undefined && total > limits.perRequest)
    throw new UsageError(
      `The images are too large for ${limits.label}: ${megabytes(total)} encoded (at most ${megabytes(limits.perRequest)} a request).`,
    );
}
