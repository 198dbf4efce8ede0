import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { imageSize, sniffImageType } from '../../../../src/core/images/image-bytes.js';
import { withImagesNamed } from '../../../../src/core/images/image-parts.js';
import { checkImagesFor } from '../../../../src/core/images/attach-images.js';
import {
  anthropicImageTokens,
  geminiImageTokens,
  imageTokens,
  openAIImageTokens,
} from '../../../../src/core/images/image-tokens.js';
import { acceptsImages } from '../../../../src/core/selection/model-catalog.js';
import { attachPastedImages } from '../../../../src/cli/repl-images.js';
import { attachMentions } from '../../../../src/cli/repl-input.js';
import { PNG_1X1, PNG_1X1_BASE64 } from '../../../e2e/image-fixtures.js';

function bytes(...parts: Array<string | number[]>): Uint8Array {
  return Buffer.concat(
    parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))),
  );
}

/** A PNG header claiming `width`×`height`. */
function pngOf(width: number, height: number): Uint8Array {
  const header = Buffer.from(PNG_1X1);
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  return header;
}

describe('image bytes', () => {
  it('knows PNG, JPEG, GIF and WebP by their signature, not their name', () => {
    expect(sniffImageType(PNG_1X1)).toBe('image/png');
    expect(sniffImageType(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImageType(bytes('GIF89a', [1, 0, 2, 0]))).toBe('image/gif');
    expect(sniffImageType(bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '))).toBe('image/webp');
    expect(sniffImageType(bytes('RIFF', [0, 0, 0, 0], 'WAVE'))).toBeUndefined();
    expect(sniffImageType(bytes('%PDF-1.7'))).toBeUndefined();
  });

  it('reads the pixel size of each type', () => {
    expect(imageSize(pngOf(1920, 1080))).toEqual({ width: 1920, height: 1080 });
    expect(imageSize(bytes('GIF89a', [0x20, 0x03, 0x58, 0x02]))).toEqual({ width: 800, height: 600 });
    // SOI, an APP0 segment of 16 bytes, then SOF0 with height 480 and width 640.
    const jpeg = bytes(
      [0xff, 0xd8, 0xff, 0xe0, 0, 16],
      new Array<number>(14).fill(0),
      [0xff, 0xc0, 0, 17, 8, 0x01, 0xe0, 0x02, 0x80, 3],
    );
    expect(imageSize(jpeg)).toEqual({ width: 640, height: 480 });
    const vp8x = bytes(
      'RIFF',
      [0, 0, 0, 0],
      'WEBPVP8X',
      [10, 0, 0, 0, 0, 0, 0, 0],
      [0x1f, 0x03, 0],
      [0x57, 0x02, 0],
    );
    expect(imageSize(vp8x)).toEqual({ width: 800, height: 600 });
  });
});

describe('image tokens', () => {
  it("prices by each API's documented rule", () => {
    // OpenAI: 1920×1080 → 1365×768 → 3×2 tiles.
    expect(openAIImageTokens({ width: 1920, height: 1080 })).toBe(85 + 170 * 6);
    // Anthropic: 1000×1000 / 750.
    expect(anthropicImageTokens({ width: 1000, height: 1000 })).toBe(1334);
    expect(geminiImageTokens({ width: 300, height: 300 })).toBe(258);
    expect(geminiImageTokens({ width: 1920, height: 1080 })).toBe(258 * 3 * 2);
    const part = {
      type: 'input_image' as const,
      image_url: `data:image/png;base64,${Buffer.from(pngOf(1920, 1080)).toString('base64')}`,
    };
    expect(imageTokens(part, 'openai-chat')).toBe(1105);
    expect(imageTokens(part, 'gemini')).toBe(1548);
    expect(imageTokens(part, 'anthropic-messages')).toBe(anthropicImageTokens({ width: 1920, height: 1080 }));
    expect(imageTokens(part)).toBe(anthropicImageTokens({ width: 1920, height: 1080 }));
  });
});

describe('image checks', () => {
  const image = (size: number): { type: 'input_image'; image_url: string } => {
    const data = Buffer.alloc(size);
    Buffer.from(PNG_1X1).copy(data);
    return { type: 'input_image', image_url: `data:image/png;base64,${data.toString('base64')}` };
  };

  it("refuses text-only models and images over an API's own limit", () => {
    expect(acceptsImages('gpt-3.5-turbo')).toBe(false);
    expect(acceptsImages('o3-mini')).toBe(false);
    expect(acceptsImages('gpt-4.1-mini')).toBe(true);
    expect(acceptsImages('gpt-3.5-turbo', { models: { 'gpt-3.5-turbo': { images: true } } })).toBe(true);
    const target = { api: 'anthropic-messages' as const, model: 'claude-sonnet-4-6', acceptsImages: true };
    expect(() => checkImagesFor([image(4 * 1024 * 1024)], target)).toThrow(
      'An image is too large for Anthropic: 5.3 MB encoded (at most 5.0 MB).',
    );
    expect(() => checkImagesFor([image(4 * 1024 * 1024)], { ...target, api: 'openai-chat' })).not.toThrow();
    expect(() =>
      checkImagesFor([image(8 * 1024 * 1024), image(8 * 1024 * 1024)], { ...target, api: 'gemini' }),
    ).toThrow('The images are too large for Gemini: 21.3 MB encoded (at most 20.0 MB a request).');
    expect(() => checkImagesFor([image(10)], { ...target, acceptsImages: false })).toThrow(
      "Model 'claude-sonnet-4-6' does not accept images",
    );
  });

  it('names images as [image: name] for compaction', () => {
    const named = withImagesNamed({
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: 'look' },
        { type: 'input_text', text: '<image name=shot.png>' },
        { type: 'input_image', image_url: `data:image/png;base64,${PNG_1X1_BASE64}` },
        { type: 'input_text', text: '</image>' },
        { type: 'input_image', image_url: 'https://example.com/a.png' },
      ],
    });
    expect(named.content).toEqual([
      { type: 'input_text', text: 'look' },
      { type: 'input_text', text: '[image: shot.png]' },
      { type: 'input_text', text: '[image]' },
    ]);
  });
});

describe('images in a REPL line', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cody-images-'));
    await writeFile(join(dir, 'shot.png'), PNG_1X1);
    await writeFile(join(dir, 'my shot.png'), PNG_1X1);
    await writeFile(join(dir, 'fake.png'), 'text');
    await writeFile(join(dir, 'notes.txt'), 'hello');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('attaches an @mention of an image as an image, other files as text', () => {
    const result = attachMentions('compare @shot.png with @notes.txt', dir);
    expect(result.images).toEqual([join(dir, 'shot.png')]);
    expect(result.message).toContain('notes.txt:\n```\nhello\n```');
    expect(result.message).not.toContain('\u0089PNG');
  });

  it('attaches pasted image paths (quoted, escaped, file://) and takes them out of the text', () => {
    const escaped = join(dir, 'my shot.png').replace(/ /g, '\\ ');
    const result = attachPastedImages(`'${join(dir, 'shot.png')}' ${escaped} what is wrong?`, dir);
    expect(result.images).toEqual([join(dir, 'shot.png'), join(dir, 'my shot.png')]);
    expect(result.message).toBe('what is wrong?');
    const url = attachPastedImages(`file://${join(dir, 'shot.png')}`, dir);
    expect(url.images).toEqual([join(dir, 'shot.png')]);
    const fake = attachPastedImages(join(dir, 'fake.png'), dir);
    expect(fake).toEqual({ message: join(dir, 'fake.png'), images: [], notes: [] });
  });
});
