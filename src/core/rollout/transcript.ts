/**
 * The whole story of a conversation for `cody show`: every item ever recorded (also those a compaction
 * later replaced), with compactions, provider switches and aborted turns marked. Reads the whole file,
 * unlike resume, because a person asked to see all of it.
 */
import { isUtf8 } from 'node:buffer';

import type { ResponseItem } from '../../protocol/index.js';
import { EmptyConversationError, errorMessage, isErrno, StorageError } from '../errors.js';
import { codyEventOf } from './codex-lines.js';
import { isTypedUserMessage, partsText } from './definitions.js';
import { openOwnFile, RefusedFileError } from '../fs/index.js';
import { readBytes, readFirstLine, readWholeRollout } from './read-bytes.js';
import { parseMetaLine, parseRolloutLine, type ParsedLine, tornTailWarning } from './rollout-replay.js';
import { parseResponseItem, toTurnContext } from './schema.js';
import { invalidUtf8Warning } from './utf8-warning.js';
import { LiveUserTurns } from './live-user-turns.js';

export type TranscriptEntry =
  /**
   * `undone`: the item belongs to a turn a later `cody undo` took back (the model no longer sees it).
   * `userTurn`: on a typed user message still in the live history, its number there: the `atUserTurn`
   * that forks through it (live-user-turns.ts; none for one a compaction dropped or an undo took back).
   */
  | { kind: 'item'; item: ResponseItem; undone?: boolean; userTurn?: number }
  /** An undo: the turns with changes it took back, and what it did to which file. */
  | { kind: 'undo'; turns: number[]; restored: string[]; removed: string[]; kept: string[] }
  | { kind: 'compacted'; summary: string; tokensBefore?: number; tokensAfter?: number }
  | { kind: 'turn-context'; provider: string; api: string; model: string }
  | { kind: 'aborted'; reason: string };

export interface TranscriptMeta {
  id: string;
  timestamp: string;
  provider: string;
  api: string;
  model: string;
}

export interface Transcript {
  meta: TranscriptMeta;
  entries: TranscriptEntry[];
  warnings: string[];
}

export async function readTranscript(filePath: string): Promise<Transcript> {
  let bytes: Buffer;
  try {
    bytes = await readWholeRollout(filePath);
  } catch (error) {
    throw readError(filePath, error);
  }
  const lines = bytes.toString('utf8').split('\n');
  const warnings: string[] = [];
  if (!isUtf8(bytes)) warnings.push(invalidUtf8Warning(filePath, firstInvalidLine(bytes)));
  let builder: TranscriptBuilder | undefined;
  for (const [index, text] of lines.entries()) {
    if (text.trim() === '') continue;
    // The same line validation as resume: a torn last line is skipped, any other bad line names itself.
    const line = parseRolloutLine(filePath, text, index + 1, index === lines.length - 1);
    if (!line) {
      warnings.push(tornTailWarning(filePath));
      continue;
    }
    if (builder) builder.add(line);
    else builder = new TranscriptBuilder(parseMetaLine(filePath, line));
  }
  if (!builder) throw new EmptyConversationError(filePath);
  // Only a transcript read whole can number its user turns (a tail misses the earlier ones).
  builder.userTurns.number();
  return { meta: builder.meta, entries: builder.entries, warnings };
}

/**
 * The transcript of the last `bytes` of the file only (line 1 is read for the metadata): what the REPL's
 * recap shows when it opens on a conversation, at a cost that does not grow with the file. A line it
 * cannot use is skipped, and an undo reaching past the window marks what the window holds.
 */
export async function readTranscriptTail(filePath: string, bytes: number): Promise<Transcript> {
  let text: string;
  let builder: TranscriptBuilder;
  try {
    const handle = await openOwnFile(filePath);
    try {
      const { size } = await handle.stat();
      const first = parseRolloutLine(filePath, await readFirstLine(handle, size), 1, false);
      if (!first) throw new EmptyConversationError(filePath);
      builder = new TranscriptBuilder(parseMetaLine(filePath, first));
      const start = Math.max(0, size - bytes);
      text = (await readBytes(handle, start, size)).toString('utf8');
      // A cut first line is not a line; line 1 (the metadata) was read above.
      text = text.slice(text.indexOf('\n') + 1);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof EmptyConversationError || error instanceof StorageError) throw error;
    throw readError(filePath, error);
  }
  for (const lineText of text.split('\n')) {
    if (lineText.trim() === '') continue;
    try {
      const line = parseRolloutLine(filePath, lineText, 0, true);
      if (line) builder.add(line);
    } catch {
      // Skipped: the recap shows what it can.
    }
  }
  return { meta: builder.meta, entries: builder.entries, warnings: [] };
}

function readError(filePath: string, error: unknown): StorageError {
  if (isErrno(error, 'ENOENT')) return new StorageError(`${filePath} does not exist.`, { cause: error });
  const reason = error instanceof RefusedFileError ? error.problem : errorMessage(error);
  return new StorageError(`Cannot read ${filePath}: ${reason}`, { cause: error });
}

/** Turns lines after line 1 into transcript entries, in order (history-at-entry.ts reuses it). */
export class TranscriptBuilder {
  readonly entries: TranscriptEntry[] = [];
  readonly meta: TranscriptMeta;
  private lastTurn = '';
  /** Where each user turn still in the conversation starts, in `entries`. */
  private readonly turnStarts: number[] = [];
  /** The typed user messages still in the live history, for their fork numbers. */
  readonly userTurns = new LiveUserTurns<{ userTurn?: number }>();

  constructor(meta: TranscriptMeta) {
    this.meta = meta;
  }

  add(line: ParsedLine): void {
    const entries = this.entries;
    const payload = (typeof line.payload === 'object' && line.payload !== null ? line.payload : {}) as Record<
      string,
      unknown
    >;
    switch (line.type) {
      case 'response_item': {
        const event = codyEventOf(line.type, payload);
        if (event) {
          addEvent(entries, event.payload);
          break;
        }
        const item = parseResponseItem(line.payload);
        const entry: TranscriptEntry = { kind: 'item', item };
        if (isTypedUserMessage(item)) {
          this.turnStarts.push(entries.length);
          this.userTurns.added(entry);
        }
        entries.push(entry);
        break;
      }
      case 'turn_context': {
        const context = toTurnContext(line.payload, this.meta);
        if (!context) break;
        const turn = `${context.provider}|${context.api}|${context.model}`;
        if (turn !== this.lastTurn) {
          const { provider, api, model } = context;
          entries.push({ kind: 'turn-context', provider, api, model });
        }
        this.lastTurn = turn;
        break;
      }
      case 'compacted':
        entries.push({ kind: 'compacted', summary: String(payload.message ?? '') });
        this.userTurns.compacted(payload.replacement_history);
        break;
      case 'event_msg': {
        // Older files wrote Cody's events here; Codex's own events of those names are read the same way.
        const event = codyEventOf(line.type, payload);
        if (event) addEvent(entries, event.payload);
        else if (payload.type === 'thread_rolled_back') {
          addUndo(entries, this.turnStarts, payload);
          if (
            typeof payload.num_turns === 'number' &&
            Number.isInteger(payload.num_turns) &&
            payload.num_turns > 0
          )
            this.userTurns.rolledBack(payload.num_turns);
        }
        break;
      }
      default:
        break;
    }
  }
}

/** A Cody event (either on-disk shape): a compaction's figures, or an aborted turn. */
function addEvent(entries: TranscriptEntry[], payload: Record<string, unknown>): void {
  const last = entries.at(-1);
  if (payload.type === 'context_compacted' && last?.kind === 'compacted') {
    if (typeof payload.tokens_before === 'number') last.tokensBefore = payload.tokens_before;
    if (typeof payload.tokens_after === 'number') last.tokensAfter = payload.tokens_after;
  }
  if (payload.type === 'turn_aborted')
    entries.push({ kind: 'aborted', reason: String(payload.reason ?? 'unknown') });
}

/** `thread_rolled_back`: the last `num_turns` turns are marked undone, and what undo did is noted. */
function addUndo(entries: TranscriptEntry[], turnStarts: number[], payload: Record<string, unknown>): void {
  const count = payload.num_turns;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) return;
  const first = turnStarts.splice(Math.max(0, turnStarts.length - count))[0];
  if (first !== undefined)
    for (const entry of entries.slice(first)) if (entry.kind === 'item') entry.undone = true;
  const strings = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
  const undone = Array.isArray(payload.undone_turns)
    ? payload.undone_turns.filter((turn): turn is number => typeof turn === 'number')
    : [];
  entries.push({
    kind: 'undo',
    turns: undone,
    restored: strings(payload.restored),
    removed: strings(payload.removed),
    kept: strings(payload.kept),
  });
}

/** The 1-based number of the first line whose bytes are not valid UTF-8. */
function firstInvalidLine(bytes: Buffer): number {
  let line = 1;
  let start = 0;
  for (let end = bytes.indexOf(0x0a); ; end = bytes.indexOf(0x0a, start)) {
    const stop = end < 0 ? bytes.length : end;
    if (!isUtf8(bytes.subarray(start, stop))) return line;
    if (end < 0) return line;
    start = end + 1;
    line += 1;
  }
}

/** A message of a recap: what the person typed, or a reply. */
export interface RecapMessage {
  role: 'user' | 'assistant';
  text: string;
  /** A later undo took this turn back (`thread_rolled_back`). */
  undone?: boolean;
}

/** The typed user messages and assistant replies of a transcript, in order (parts joined by lines). */
export function recapMessages(transcript: Transcript): RecapMessage[] {
  const messages: RecapMessage[] = [];
  for (const entry of transcript.entries) {
    if (entry.kind !== 'item' || entry.item.type !== 'message') continue;
    const item = entry.item;
    if (item.role !== 'assistant' && !(item.role === 'user' && isTypedUserMessage(item))) continue;
    messages.push({
      role: item.role,
      text: partsText(item.content, '\n'),
      ...(entry.undone === true ? { undone: true } : {}),
    });
  }
  return messages;
}
