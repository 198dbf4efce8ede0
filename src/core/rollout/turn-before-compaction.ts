/**
 * Resume starts at the newest compaction and never reads what came before it. A compaction made in the
 * middle of a turn (an automatic one before the turn's request) comes after that turn's `turn_context`,
 * so a process killed after it would leave the turn open with nobody noticing. This looks just far
 * enough back from the compaction to say whether it was inside a turn: the nearest line before it that
 * is a `turn_context` (the turn was open) or a turn's end (it was not).
 */
import type { FileHandle } from 'node:fs/promises';
import { codyEventOf } from './codex-lines.js';
import { lineOrUndefined, payloadRecord } from './line.js';
import { readBytes } from './read-bytes.js';

const NEWLINE = 0x0a;
const STEP_BYTES = 64 * 1024;
/** Lines between a turn's context and its compaction: the user message, a snapshot, a few more. */
const MAX_LINES = 32;
/** How far back to look at most (a huge pasted message may sit between the two). */
const MAX_SCAN_BYTES = 64 * 1024 * 1024;
/** A line longer than this is a message or an output, never a turn's context or its end. */
const MAX_MARKER_BYTES = 64 * 1024;

/** The open turn's `turn_context` line (text and offset) when the compaction at `offset` is inside one. */
export async function openTurnBefore(
  handle: FileHandle,
  offset: number,
): Promise<{ text: string; offset: number } | undefined> {
  if (offset === 0 || (await readBytes(handle, offset - 1, offset))[0] !== NEWLINE) return undefined;
  let lineEnd = offset - 1; // the newline that ends the line before the compaction
  for (let lines = 0; lineEnd > 0 && lines < MAX_LINES && offset - lineEnd < MAX_SCAN_BYTES; lines += 1) {
    const lineStart = (await lastNewlineBefore(handle, lineEnd)) + 1;
    if (lineEnd - lineStart <= MAX_MARKER_BYTES) {
      const text = (await readBytes(handle, lineStart, lineEnd)).toString('utf8');
      const marker = markerOf(text);
      if (marker === 'open') return { text, offset: lineStart };
      if (marker === 'closed') return undefined;
    }
    lineEnd = lineStart - 1;
  }
  return undefined;
}

/** The position of the last newline before `position` (-1 when there is none). */
async function lastNewlineBefore(handle: FileHandle, position: number): Promise<number> {
  for (let end = position; end > 0;) {
    const start = Math.max(0, end - STEP_BYTES);
    const found = (await readBytes(handle, start, end)).lastIndexOf(NEWLINE);
    if (found >= 0) return start + found;
    end = start;
  }
  return -1;
}

function markerOf(text: string): 'open' | 'closed' | undefined {
  const line = lineOrUndefined(text);
  if (!line) return undefined;
  if (line.type === 'turn_context') return 'open';
  const kind = codyEventOf(line.type, payloadRecord(line))?.payload.type;
  return kind === 'turn_complete' || kind === 'turn_aborted' ? 'closed' : undefined;
}
