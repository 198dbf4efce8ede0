/**
 * Repairs the end of a rollout before the first append: bytes after the last newline are the remains of
 * an interrupted write. They are saved to a `<file>.torn-<time>` sidecar (never silently lost) and the
 * file is truncated back to its last complete line, so the next line does not glue onto them.
 */
import { RolloutWriteError } from '../errors.js';
import {
  describeWriteError,
  type RecorderFileHandle,
  type RecorderFileSystem,
  ROLLOUT_FILE_MODE,
} from './recorder-file-system.js';

/** Backward read size while looking for the last newline: one read covers any ordinary last line. */
const TAIL_CHUNK = 64 * 1024;
const NEWLINE = 0x0a;

/** Returns the size of the file's complete lines after the repair. */
export async function repairTornTail(
  filePath: string,
  handle: RecorderFileHandle,
  fileSystem: RecorderFileSystem,
  now: Date,
): Promise<number> {
  try {
    const { size } = await handle.stat();
    if (size === 0) return 0;
    const keep = await endOfLastLine(handle, size);
    if (keep === size) return size;
    const torn = await readRange(handle, keep, size);
    if (isCompleteLine(torn)) {
      // Everything but the newline was written: the line is whole, so finish it instead.
      const newline = Buffer.from('\n');
      await handle.write(newline, 0, 1, size);
      await handle.sync();
      return size + 1;
    }
    if (keep === 0) {
      throw new Error('it holds no complete line at all (its creation was interrupted); delete it');
    }
    const sidecar = `${filePath}.torn-${now.toISOString().replace(/[:.]/g, '-')}`;
    await fileSystem.writeFile(sidecar, torn, { mode: ROLLOUT_FILE_MODE, flag: 'wx' });
    await handle.truncate(keep);
    await handle.sync();
    return keep;
  } catch (error) {
    throw new RolloutWriteError(
      filePath,
      `could not set aside its incomplete last line: ${describeWriteError(error)}`,
      { cause: error },
    );
  }
}

/** Offset just past the last newline (0 when there is none). */
async function endOfLastLine(handle: RecorderFileHandle, size: number): Promise<number> {
  const buffer = Buffer.alloc(Math.min(size, TAIL_CHUNK));
  for (let end = size; end > 0;) {
    const start = Math.max(0, end - buffer.length);
    const chunk = buffer.subarray(0, end - start);
    await readInto(handle, chunk, start);
    const newline = chunk.lastIndexOf(NEWLINE);
    if (newline >= 0) return start + newline + 1;
    end = start;
  }
  return 0;
}

async function readRange(handle: RecorderFileHandle, start: number, end: number): Promise<Buffer> {
  const buffer = Buffer.alloc(end - start);
  await readInto(handle, buffer, start);
  return buffer;
}

async function readInto(handle: RecorderFileHandle, buffer: Buffer, position: number): Promise<void> {
  for (let offset = 0; offset < buffer.length;) {
    const { bytesRead } = await handle.read(buffer, offset, buffer.length - offset, position + offset);
    if (bytesRead === 0) throw new Error('the file shrank while it was being repaired');
    offset += bytesRead;
  }
}

function isCompleteLine(bytes: Buffer): boolean {
  try {
    const parsed: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && 'type' in parsed && 'payload' in parsed;
  } catch {
    return false;
  }
}
