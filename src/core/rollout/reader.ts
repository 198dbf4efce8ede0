/**
 * Rebuilds a conversation's live history from its rollout. The newest `compacted` line holds the whole
 * live history, so the file is scanned backwards for it and only what follows is parsed (plus line 1 for
 * the metadata): resume cost grows with the live history, not with the file. Lines before that
 * compaction are not validated on this path; a corrupt line met after it triggers a full forward parse
 * so the error can name the right line number.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { errorMessage, isErrno } from '../errors.js';
import {
  CorruptRolloutError,
  EmptyConversationError,
  StorageError,
  UnknownConversationError,
} from '../errors.js';
import { findLastCompactedLine, readBytes, readFirstLine } from './find-last-compacted-line.js';
import {
  parseMetaLine,
  parseRolloutLine,
  type ParsedLine,
  type ResumedRollout,
  RolloutReplay,
} from './rollout-replay.js';

export type { ResumedRollout } from './rollout-replay.js';

export async function readRolloutForResume(filePath: string): Promise<ResumedRollout> {
  const id = basename(filePath, '.jsonl');
  let handle: FileHandle;
  try {
    handle = await open(filePath, 'r');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) throw new UnknownConversationError(id);
    throw new StorageError(`Cannot read ${filePath}: ${errorMessage(error)}`, { cause: error });
  }
  try {
    const { size } = await handle.stat();
    const compacted = await findLastCompactedLine(handle, size);
    if (compacted !== undefined) {
      try {
        const meta = parseMetaLine(filePath, metaLineOf(filePath, await readFirstLine(handle, size)));
        const replay = new RolloutReplay(filePath, meta);
        replay.apply(compacted.line, 0);
        const rest = (await readBytes(handle, compacted.end, size)).toString('utf8');
        replayText(filePath, replay, rest, undefined);
        return replay.state;
      } catch (error) {
        if (!(error instanceof CorruptRolloutError)) throw error;
        // Fall through: the full parse below names the right line.
      }
    }
    return replayWhole(filePath, id, (await readBytes(handle, 0, size)).toString('utf8'));
  } catch (error) {
    if (error instanceof CorruptRolloutError || error instanceof EmptyConversationError) throw error;
    if (error instanceof StorageError) throw error;
    throw new StorageError(`Cannot read ${filePath}: ${errorMessage(error)}`, { cause: error });
  } finally {
    await handle.close();
  }
}

function metaLineOf(filePath: string, text: string): ParsedLine {
  const line = parseRolloutLine(filePath, text, 1, false);
  if (line === undefined) throw new CorruptRolloutError(filePath, 1, 'the first line is incomplete');
  return line;
}

/** Parses the whole file from line 1. */
function replayWhole(filePath: string, id: string, text: string): ResumedRollout {
  const firstNewline = text.indexOf('\n');
  const first = firstNewline < 0 ? text : text.slice(0, firstNewline);
  const rest = firstNewline < 0 ? '' : text.slice(firstNewline + 1);
  if (first.trim() === '') {
    if (rest.trim() === '') throw new EmptyConversationError(id);
    throw new CorruptRolloutError(filePath, 1, 'the first line is empty (it should be session_meta)');
  }
  const metaLine = parseRolloutLine(filePath, first, 1, firstNewline < 0);
  // Only a torn first line, from a creation that was interrupted: nothing was ever recorded.
  if (metaLine === undefined) throw new EmptyConversationError(id);
  const replay = new RolloutReplay(filePath, parseMetaLine(filePath, metaLine));
  replayText(filePath, replay, rest, 2);
  return replay.state;
}

/**
 * Applies each line of `text` (the file from some line to its end). `firstLineNumber` is undefined on
 * the backward-scan path, where errors carry line 0 and make the caller re-read from the start.
 */
function replayText(
  filePath: string,
  replay: RolloutReplay,
  text: string,
  firstLineNumber: number | undefined,
): void {
  const endsWithNewline = text.endsWith('\n');
  let start = 0;
  for (let index = 0; start < text.length; index += 1) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(start, end);
    start = end + 1;
    if (line.trim() === '') continue;
    const lineNumber = firstLineNumber === undefined ? 0 : firstLineNumber + index;
    const isUnterminatedLast = newline < 0 && !endsWithNewline;
    const parsed = parseRolloutLine(filePath, line, lineNumber, isUnterminatedLast);
    if (parsed === undefined) replay.markTorn();
    else replay.apply(parsed, lineNumber);
  }
}
