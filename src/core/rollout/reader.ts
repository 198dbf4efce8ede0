/**
 * Rebuilds a conversation's live history from its rollout in one pass over the bytes it needs. The file
 * is read backwards in chunks and each line parsed once, newest first, until the newest `compacted` line
 * that carries `replacement_history` (it holds the whole live history) or the start of the file; then
 * the collected lines are replayed in order. Resume cost follows the live history, not the file, and a
 * file without a compaction is read exactly once, never held whole in memory. Lines before that
 * compaction are not read at all; a corrupt line after it stops with its `file:line`, and an incomplete
 * last line (an interrupted write) is tolerated.
 */
import { isUtf8 } from 'node:buffer';
import type { FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import {
  CorruptRolloutError,
  EmptyConversationError,
  errorMessage,
  isErrno,
  StorageError,
  UnknownConversationError,
} from '../errors.js';
import { openOwnFile, RefusedFileError } from '../fs/index.js';
import { readBytes, readFirstLine, readInto } from './read-bytes.js';
import {
  parseMetaLine,
  parseRolloutLine,
  type ParsedLine,
  type ResumedRollout,
  RolloutReplay,
  withItem,
} from './rollout-replay.js';
import { openTurnBefore } from './turn-before-compaction.js';
import { invalidUtf8Warning } from './utf8-warning.js';
import type { SessionMetaPayload } from './schema.js';

export type { ResumedRollout } from './rollout-replay.js';

/** Backward read size: the last few turns of a typical conversation, so a recent compaction costs one read. */
const CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;
/** Line number handed to the replay while the real one is not known yet (see `relocate`). */
const UNKNOWN_LINE = 0;

interface CollectedLine {
  parsed: ParsedLine;
  /** Byte offset of the line's start, to name its line number should it turn out to be corrupt. */
  offset: number;
}

interface LiveLines {
  /** Oldest first: the compaction line (when `fromCompaction`) or line 2, through the last line. */
  lines: CollectedLine[];
  /** The first collected line is a compaction with the whole history; line 1 was not read. */
  fromCompaction: boolean;
  /** Line 1 when the scan reached the start of the file (undefined: torn, or not reached). */
  first?: { text: string; terminated: boolean };
  /** The last line is incomplete (an interrupted write). */
  tornTail: boolean;
  /** The earliest corrupt line met (reported once line 1 is known to be sound, as a forward read would). */
  corrupt?: { error: CorruptRolloutError; offset: number };
  /** The start of the earliest line read whose bytes are not valid UTF-8 (decoded with U+FFFD). */
  invalidUtf8Offset?: number;
}

export async function readRolloutForResume(filePath: string): Promise<ResumedRollout> {
  const id = basename(filePath, '.jsonl');
  let handle: FileHandle;
  try {
    handle = await openOwnFile(filePath);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) throw new UnknownConversationError(id);
    const reason = error instanceof RefusedFileError ? error.problem : errorMessage(error);
    throw new StorageError(`Cannot read ${filePath}: ${reason}`, { cause: error });
  }
  try {
    const { size } = await handle.stat();
    const live = await collectLiveLines(handle, size, filePath);
    const replay = new RolloutReplay(filePath, await metaOf(handle, size, filePath, id, live));
    const { lines, corrupt } = live;
    // A compaction inside a turn: that turn's context comes first, so an unfinished turn is seen as one.
    const compaction = live.fromCompaction ? lines[0] : undefined;
    const context = compaction ? await openTurnBefore(handle, compaction.offset) : undefined;
    if (context) {
      try {
        const contextLine = parseRolloutLine(filePath, context.text, UNKNOWN_LINE, false);
        if (contextLine) replay.apply(contextLine, UNKNOWN_LINE);
      } catch {
        // A malformed line before the compaction is not part of the live history: ignored, as before.
      }
    }
    for (let index = 0; index < lines.length; index += 1) {
      const line = lines[index]!;
      if (corrupt && line.offset > corrupt.offset) break;
      // Let the raw payload go as soon as it is replayed: only the rebuilt history stays.
      lines[index] = undefined as unknown as CollectedLine;
      try {
        replay.apply(line.parsed, UNKNOWN_LINE);
      } catch (error) {
        if (error instanceof CorruptRolloutError && error.line === UNKNOWN_LINE) {
          throw await relocate(handle, filePath, error, line.offset);
        }
        throw error;
      }
    }
    if (corrupt) throw await relocate(handle, filePath, corrupt.error, corrupt.offset);
    if (live.tornTail) replay.markTorn();
    const resumed = replay.finish();
    if (live.invalidUtf8Offset !== undefined) {
      const line = await lineNumberAt(handle, live.invalidUtf8Offset);
      resumed.warnings.push(invalidUtf8Warning(filePath, line));
    }
    return resumed;
  } catch (error) {
    if (error instanceof CorruptRolloutError || error instanceof EmptyConversationError) throw error;
    if (error instanceof StorageError) throw error;
    throw new StorageError(`Cannot read ${filePath}: ${errorMessage(error)}`, { cause: error });
  } finally {
    await handle.close();
  }
}

/** The session metadata: from line 1 as the scan met it, or read from the head after a compaction. */
async function metaOf(
  handle: FileHandle,
  size: number,
  filePath: string,
  id: string,
  live: LiveLines,
): Promise<SessionMetaPayload> {
  if (live.fromCompaction) {
    const line = parseRolloutLine(filePath, await readFirstLine(handle, size), 1, false);
    if (line === undefined) throw new CorruptRolloutError(filePath, 1, 'the first line is incomplete');
    return parseMetaLine(filePath, line);
  }
  const first = live.first;
  if (first === undefined || first.text.trim() === '') {
    if (live.lines.length === 0 && !live.tornTail) throw new EmptyConversationError(id);
    throw new CorruptRolloutError(filePath, 1, 'the first line is empty (it should be session_meta)');
  }
  const metaLine = parseRolloutLine(filePath, first.text, 1, !first.terminated);
  // Only a torn first line, from a creation that was interrupted: nothing was ever recorded.
  if (metaLine === undefined) throw new EmptyConversationError(id);
  return parseMetaLine(filePath, metaLine);
}

/**
 * Reads backwards from the end, parsing every line once (the envelope only: payloads are checked when the
 * replay uses them), until the newest compaction with a replacement history or the start of the file.
 */
async function collectLiveLines(handle: FileHandle, size: number, filePath: string): Promise<LiveLines> {
  const newestFirst: CollectedLine[] = [];
  let tornTail = false;
  let corrupt: LiveLines['corrupt'];
  let invalidUtf8Offset: number | undefined;
  const chunks = new BackwardChunks(handle);
  /** The next line met is the one after the file's last newline (empty when the file ends with one). */
  let isLastLine = true;
  for (let end = size; end > 0;) {
    const start = Math.max(0, end - CHUNK_BYTES);
    const chunk = await chunks.read(start, end);
    let lineEnd = chunk.length;
    for (;;) {
      const newline = lineEnd > 0 ? chunk.lastIndexOf(NEWLINE, lineEnd - 1) : -1;
      if (newline < 0 && start > 0) {
        chunks.carry(lineEnd);
        break;
      }
      const unterminated = isLastLine;
      isLastLine = false;
      if (newline < 0) {
        if (!isUtf8(chunk.subarray(0, lineEnd))) invalidUtf8Offset = 0;
        const first = { text: chunk.toString('utf8', 0, lineEnd), terminated: !unterminated };
        return collected(newestFirst, false, first, tornTail, corrupt, invalidUtf8Offset);
      }
      const from = newline + 1;
      if (!isUtf8(chunk.subarray(from, lineEnd))) invalidUtf8Offset = start + from;
      if (!isBlank(chunk, from, lineEnd)) {
        let parsed: ParsedLine | undefined;
        try {
          parsed = parseRolloutLine(
            filePath,
            chunk.toString('utf8', from, lineEnd),
            UNKNOWN_LINE,
            unterminated,
          );
        } catch (error) {
          if (!(error instanceof CorruptRolloutError)) throw error;
          // Go on: an earlier corrupt line, or a bad line 1, is the one to report.
          corrupt = { error, offset: start + from };
          lineEnd = newline;
          continue;
        }
        if (parsed === undefined) tornTail = true;
        else {
          newestFirst.push({ parsed: withItem(parsed), offset: start + from });
          if (isFullCompaction(parsed))
            return collected(newestFirst, true, undefined, tornTail, corrupt, invalidUtf8Offset);
        }
      }
      lineEnd = newline;
    }
    end = start;
  }
  return collected(newestFirst, false, undefined, tornTail, corrupt, invalidUtf8Offset);
}

/**
 * The chunks of a backward scan, all read into one buffer: a fresh 1 MiB buffer per chunk (and another to
 * join each with the line it cut) left ~10 MiB more resident after a 50 MB resume, as freed native memory
 * the allocator kept. A line begun in the later chunk (`carry`) is moved up to follow the earlier bytes.
 */
class BackwardChunks {
  private buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  private carried = 0;
  private readonly handle: FileHandle;

  constructor(handle: FileHandle) {
    this.handle = handle;
  }

  /** Bytes `[start, end)` followed by the carried bytes; valid until the next call. */
  async read(start: number, end: number): Promise<Buffer> {
    const length = end - start;
    const needed = length + this.carried;
    if (needed > this.buffer.length) {
      // A line longer than a chunk: grow (doubling) and keep its bytes read so far.
      const larger = Buffer.allocUnsafe(Math.max(needed, this.buffer.length * 2));
      this.buffer.copy(larger, length, 0, this.carried);
      this.buffer = larger;
    } else if (this.carried > 0) {
      this.buffer.copyWithin(length, 0, this.carried);
    }
    const got = await readInto(this.handle, this.buffer.subarray(0, length), start);
    // A file that shrank meanwhile: the carried bytes follow what was read, with no gap.
    if (got < length) this.buffer.copyWithin(got, length, needed);
    const chunk = this.buffer.subarray(0, got + this.carried);
    this.carried = 0;
    return chunk;
  }

  /** The chunk's first `length` bytes start a line that began earlier: keep them for the next read. */
  carry(length: number): void {
    this.carried = length;
  }
}

function collected(
  newestFirst: CollectedLine[],
  fromCompaction: boolean,
  first: LiveLines['first'],
  tornTail: boolean,
  corrupt: LiveLines['corrupt'],
  invalidUtf8Offset: number | undefined,
): LiveLines {
  return {
    lines: newestFirst.reverse(),
    fromCompaction,
    ...(first ? { first } : {}),
    tornTail,
    ...(corrupt ? { corrupt } : {}),
    ...(invalidUtf8Offset !== undefined ? { invalidUtf8Offset } : {}),
  };
}

/** The compaction that holds the whole live history (a legacy one without it needs what came before). */
function isFullCompaction(line: ParsedLine): boolean {
  if (line.type !== 'compacted') return false;
  const payload = line.payload;
  return (
    typeof payload === 'object' &&
    payload !== null &&
    Array.isArray((payload as Record<string, unknown>).replacement_history)
  );
}

function isBlank(chunk: Buffer, from: number, to: number): boolean {
  for (let index = from; index < to; index += 1) {
    const byte = chunk[index];
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  }
  return true;
}

/** The same error naming the line that starts at `offset`: its newlines are counted only on this path. */
async function relocate(
  handle: FileHandle,
  filePath: string,
  error: CorruptRolloutError,
  offset: number,
): Promise<CorruptRolloutError> {
  const line = await lineNumberAt(handle, offset);
  const prefix = `Corrupt rollout ${filePath}:${UNKNOWN_LINE}: `;
  const reason = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  return new CorruptRolloutError(filePath, line, reason);
}

/** The 1-based number of the line that starts at byte `offset` (reads what comes before it). */
async function lineNumberAt(handle: FileHandle, offset: number): Promise<number> {
  let line = 1;
  for (let start = 0; start < offset; start += CHUNK_BYTES) {
    const bytes = await readBytes(handle, start, Math.min(offset, start + CHUNK_BYTES));
    for (let index = bytes.indexOf(NEWLINE); index >= 0; index = bytes.indexOf(NEWLINE, index + 1)) line += 1;
  }
  return line;
}
