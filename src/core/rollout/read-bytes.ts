/** Reads of a rollout file: whole, a byte range, and the first line. */
import type { FileHandle } from 'node:fs/promises';
import { readOwnFile } from '../fs/index.js';

/**
 * The most of a rollout read whole (transcripts, fork points, a Codex import): about the longest string
 * Node can decode (~512 MiB), so a larger file is one clear refusal instead of a failure after reading.
 */
export const MAX_ROLLOUT_READ_BYTES = 512 * 1024 * 1024;

/** The whole file, a regular file only (a FIFO never blocks); a missing one fails with ENOENT. */
export async function readWholeRollout(filePath: string): Promise<Buffer> {
  const file = await readOwnFile(filePath, { maxBytes: MAX_ROLLOUT_READ_BYTES });
  if (file) return file.bytes;
  throw Object.assign(new Error(`${filePath} does not exist`), { code: 'ENOENT' });
}

const NEWLINE = 0x0a;

/** Bytes `[start, end)` of the file (fewer only if it shrank meanwhile). */
export async function readBytes(handle: FileHandle, start: number, end: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(end - start);
  return buffer.subarray(0, await readInto(handle, buffer, start));
}

/** Fills `buffer` with the file's bytes from `position` on; returns how many arrived (fewer at its end). */
export async function readInto(handle: FileHandle, buffer: Buffer, position: number): Promise<number> {
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesRead } = await handle.read(buffer, offset, buffer.length - offset, position + offset);
    if (bytesRead === 0) break;
    offset += bytesRead;
  }
  return offset;
}

/** The first line (without its newline), reading more of the head only while it is not complete. */
export async function readFirstLine(handle: FileHandle, size: number): Promise<string> {
  for (let length = Math.min(size, 64 * 1024); ; length = Math.min(size, length * 4)) {
    const bytes = await readBytes(handle, 0, length);
    const newline = bytes.indexOf(NEWLINE);
    if (newline >= 0) return bytes.toString('utf8', 0, newline);
    if (length >= size) return bytes.toString('utf8');
  }
}
