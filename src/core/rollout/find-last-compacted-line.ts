/**
 * The backward scan behind fast resume: the newest `compacted` line that carries `replacement_history`
 * holds the whole live history, so resume parses only from there. The scan reads the file from the end
 * in chunks and looks for the raw marker bytes; only candidate lines are parsed.
 */
import type { FileHandle } from 'node:fs/promises';

/**
 * Backward read size. 1 MiB holds the last few turns of a typical conversation, so a recent compaction
 * is found in one read, and copying a chunk costs well under a millisecond.
 */
export const SCAN_CHUNK_BYTES = 1 << 20;

const NEWLINE = 0x0a;
/** `JSON.stringify` writes the first form; a hand-edited or pretty-printed writer may add a space. */
const COMPACTED_MARKERS = ['"type":"compacted"', '"type": "compacted"'].map((marker) => Buffer.from(marker));

export interface CompactedLineMatch {
  /** Byte offset where the line starts. */
  start: number;
  /** Byte offset just past its newline (or the end of the file). */
  end: number;
  /** The line, already parsed. */
  line: { timestamp: unknown; type: 'compacted'; payload: { replacement_history: unknown[] } };
}

/**
 * The newest `compacted` line, if it carries a replacement history. Undefined when there is none, or
 * when the newest one is a legacy line without one (its history must be rebuilt from the whole file).
 */
export async function findLastCompactedLine(
  handle: FileHandle,
  size: number,
): Promise<CompactedLineMatch | undefined> {
  let end = size;
  /** Bytes of a line that starts before the current chunk (carried into the next, earlier read). */
  let carry = Buffer.alloc(0);
  while (end > 0) {
    const start = Math.max(0, end - SCAN_CHUNK_BYTES);
    const chunk = Buffer.concat([await readBytes(handle, start, end), carry]);
    let searchBefore = chunk.length;
    for (;;) {
      const found = lastMarker(chunk, searchBefore);
      if (found < 0) break;
      const lineStart = chunk.lastIndexOf(NEWLINE, found) + 1;
      if (lineStart === 0 && start > 0) break; // the line starts in an earlier chunk: read more first
      const newline = chunk.indexOf(NEWLINE, found);
      const lineEnd = newline < 0 ? chunk.length : newline;
      const parsed = parseCandidate(chunk.toString('utf8', lineStart, lineEnd));
      if (parsed === 'legacy') return undefined;
      if (parsed !== undefined) {
        return { start: start + lineStart, end: start + Math.min(chunk.length, lineEnd + 1), line: parsed };
      }
      searchBefore = lineStart;
    }
    const firstNewline = chunk.indexOf(NEWLINE);
    carry = firstNewline < 0 ? chunk : chunk.subarray(0, firstNewline + 1);
    end = start;
  }
  return undefined;
}

function lastMarker(chunk: Buffer, before: number): number {
  let found = -1;
  for (const marker of COMPACTED_MARKERS) {
    if (before >= marker.length) found = Math.max(found, chunk.lastIndexOf(marker, before - marker.length));
  }
  return found;
}

/** The parsed line if it is a compacted line with a history; 'legacy' if it is one without. */
function parseCandidate(text: string): CompactedLineMatch['line'] | 'legacy' | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined; // torn or corrupt: the forward parse reports it (or tolerates a torn last line)
  }
  if (typeof parsed !== 'object' || parsed === null || !('type' in parsed) || parsed.type !== 'compacted') {
    return undefined; // the marker sat inside another line's payload
  }
  const payload = 'payload' in parsed ? parsed.payload : undefined;
  if (typeof payload !== 'object' || payload === null) return undefined;
  const history = 'replacement_history' in payload ? payload.replacement_history : undefined;
  if (!Array.isArray(history)) return 'legacy';
  return {
    timestamp: 'timestamp' in parsed ? parsed.timestamp : undefined,
    type: 'compacted',
    payload: { ...payload, replacement_history: history },
  };
}

/** Bytes `[start, end)` of the file (fewer only if it shrank meanwhile). */
export async function readBytes(handle: FileHandle, start: number, end: number): Promise<Buffer> {
  const buffer = Buffer.alloc(end - start);
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesRead } = await handle.read(buffer, offset, buffer.length - offset, start + offset);
    if (bytesRead === 0) break;
    offset += bytesRead;
  }
  return buffer.subarray(0, offset);
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
