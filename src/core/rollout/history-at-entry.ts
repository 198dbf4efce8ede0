/**
 * The history as it stood after the turn of one typed user message of the transcript, also one a
 * compaction has since summarised away: the rollout is append-only, so replaying its lines up to the
 * next typed user message rebuilds it exactly (the live history resume would have built then). The
 * entry is named by its transcript cursor (transcript-page.ts: its position from 1). A message still in
 * the live history is answered with its user-turn number instead, so both ways of naming it give one
 * fork. Reads the whole file, as the transcript does.
 */
import type { MessageItem, ResponseItem } from '../../protocol/index.js';
import { errorMessage, isErrno, StorageError, UsageError } from '../errors.js';
import { isTypedUserMessage } from './definitions.js';
import { readWholeRollout } from './read-bytes.js';
import { messageText } from './message-text.js';
import { parseMetaLine, parseRolloutLine, type ParsedLine, RolloutReplay } from './rollout-replay.js';
import { TranscriptBuilder, type TranscriptEntry } from './transcript.js';

export type HistoryAtEntry =
  /**
   * A message still in the live history: its user-turn number there, so a fork at it is exactly the fork
   * `atUserTurn` gives (one fork per message, whichever way it is named).
   */
  | { userTurn: number }
  | {
      /** The live history right before the next typed user message (the whole history when there is none). */
      items: ResponseItem[];
      /** That next typed user message's text: where a fork from here branches off. */
      message?: string;
    };

export async function readHistoryAtEntry(filePath: string, cursor: string): Promise<HistoryAtEntry> {
  const position = /^[1-9][0-9]{0,9}$/.test(cursor) ? Number(cursor) : Number.NaN;
  const lines = await parsedLines(filePath);
  const first = lines[0];
  if (!first) throw new StorageError(`${filePath} holds no conversation.`);
  const meta = parseMetaLine(filePath, first.line);
  const builder = new TranscriptBuilder(meta);
  // Where each line after line 1 starts in the transcript's entries.
  const firstEntryOf: number[] = [];
  for (const { line } of lines.slice(1)) {
    firstEntryOf.push(builder.entries.length);
    builder.add(line);
  }
  const entry = builder.entries[position - 1];
  refuseUnlessForkable(cursor, entry);
  builder.userTurns.number();
  if (entry.userTurn !== undefined) return { userTurn: entry.userTurn };
  // Cut at the line of the next typed user message after the entry (its index in `lines`).
  const nextIndex = builder.entries.findIndex((later, index) => index >= position && isTypedUserEntry(later));
  const next = builder.entries[nextIndex];
  const cut = next ? firstEntryOf.findLastIndex((start) => start <= nextIndex) + 1 : lines.length;
  const replay = new RolloutReplay(filePath, meta);
  for (const { line, number } of lines.slice(1, cut)) replay.apply(line, number);
  const message = next && isTypedUserEntry(next) ? messageText(next.item) : undefined;
  return { items: replay.finish().history, ...(message !== undefined ? { message } : {}) };
}

/** Only a typed user message that no undo took back can be forked from. */
function refuseUnlessForkable(
  cursor: string,
  entry: TranscriptEntry | undefined,
): asserts entry is { kind: 'item'; item: MessageItem; undone?: boolean; userTurn?: number } {
  if (!entry) {
    throw new UsageError(
      `Cannot fork at entry '${cursor}': the transcript has no such entry (count from 1).`,
    );
  }
  if (!isTypedUserEntry(entry)) {
    throw new UsageError(`Cannot fork at entry '${cursor}': it is not a message the person typed.`);
  }
  if (entry.undone === true) {
    throw new UsageError(`Cannot fork at entry '${cursor}': an undo took that message back.`);
  }
}

function isTypedUserEntry(
  entry: TranscriptEntry,
): entry is { kind: 'item'; item: MessageItem; undone?: boolean } {
  return entry.kind === 'item' && entry.item.type === 'message' && isTypedUserMessage(entry.item);
}

/** Every line of the file, parsed and numbered; a torn last line is left out (as resume does). */
async function parsedLines(filePath: string): Promise<Array<{ line: ParsedLine; number: number }>> {
  let text: string;
  try {
    text = (await readWholeRollout(filePath)).toString('utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) throw new StorageError(`${filePath} does not exist.`, { cause: error });
    throw new StorageError(`Cannot read ${filePath}: ${errorMessage(error)}`, { cause: error });
  }
  const texts = text.split('\n');
  const lines: Array<{ line: ParsedLine; number: number }> = [];
  for (const [index, lineText] of texts.entries()) {
    if (lineText.trim() === '') continue;
    const line = parseRolloutLine(filePath, lineText, index + 1, index === texts.length - 1);
    if (line) lines.push({ line, number: index + 1 });
  }
  return lines;
}
