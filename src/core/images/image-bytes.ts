/**
 * What an image file is, read from its bytes (never from its name): PNG, JPEG, GIF or WebP, and its
 * pixel size where the header says it (for the token estimate). Pure; no decoding beyond headers.
 */

/** The image types every wire API Cody speaks accepts. */
export type ImageMimeType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  return signature.every((byte, index) => bytes[offset + index] === byte);
}

function ascii(text: string): number[] {
  return [...text].map((character) => character.charCodeAt(0));
}

/** The type the magic bytes announce, or undefined for anything else. */
export function sniffImageType(bytes: Uint8Array): ImageMimeType | undefined {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
}

/** Width and height in pixels. */
export interface ImageSize {
  width: number;
  height: number;
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function jpegSize(bytes: Uint8Array): ImageSize | undefined {
  const data = view(bytes);
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1] ?? 0;
    const length = data.getUint16(offset + 2);
    // Start-of-frame markers (C0–CF except DHT C4, JPG C8, DAC CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: data.getUint16(offset + 5), width: data.getUint16(offset + 7) };
    }
    offset += 2 + length;
  }
  return undefined;
}

function webpSize(bytes: Uint8Array): ImageSize | undefined {
  const data = view(bytes);
  const chunk = String.fromCharCode(...bytes.subarray(12, 16));
  if (chunk === 'VP8X' && bytes.length >= 30) {
    const uint24 = (at: number): number =>
      (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16);
    return { width: 1 + uint24(24), height: 1 + uint24(27) };
  }
  if (chunk === 'VP8 ' && bytes.length >= 30) {
    return { width: data.getUint16(26, true) & 0x3fff, height: data.getUint16(28, true) & 0x3fff };
  }
  if (chunk === 'VP8L' && bytes.length >= 25) {
    const bits = data.getUint32(21, true);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  return undefined;
}

/** The pixel size the header gives, or undefined when it cannot be read. */
export function imageSize(bytes: Uint8Array): ImageSize | undefined {
  try {
    switch (sniffImageType(bytes)) {
      case 'image/png':
        return bytes.length >= 24
          ? { width: view(bytes).getUint32(16), height: view(bytes).getUint32(20) }
          : undefined;
      case 'image/gif':
        return bytes.length >= 10
          ? { width: view(bytes).getUint16(6, true), height: view(bytes).getUint16(8, true) }
          : undefined;
      case 'image/jpeg':
        return jpegSize(bytes);
      case 'image/webp':
        return webpSize(bytes);
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}
