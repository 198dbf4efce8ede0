/**
 * The whole story of a conversation for `cody show`: every item ever recorded (also those a compaction
 * later replaced), with compactions, provider switches and aborted turns marked. Reads the whole file,
 * unlike resume, because a person asked to see all of it.
 */
import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { invalidUtf8Warning } from './rollout/utf8-warning.js';
import type { ResponseItem } from '../protocol/index.js';
import { EmptyConversationError, errorMessage, isErrno, StorageError } from './errors.js';
import { codyEventOf } from './rollout/codex-lines.js';
import { parseMetaLine, parseRolloutLine, tornTailWarning } from './rollout/rollout-replay.js';
import { parseResponseItem, toTurnContext } from './rollout/schema.js';
import { isRealUserMessage } from './compact/is-summary-message.js';
import { messageText } from './compact/message-text.js';
import { isContextualUserText } from './rollout/is-contextual-user-text.js';

export type TranscriptEntry =
  /** `undone`: the item belongs to a turn a later `cody undo` took back (the model no longer sees it). */
  | { kind: 'item'; item: ResponseItem; undone?: boolean }
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
    bytes = await readFile(filePath);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) throw new StorageError(`${filePath} does not exist.`, { cause: error });
    throw new StorageError(`Cannot read ${filePath}: ${errorMessage(error)}`, { cause: error });
  }
  const text = bytes.toString('utf8');
  const lines = text.split('\n');
  const warnings: string[] = [];
  if (!isUtf8(bytes)) warnings.push(invalidUtf8Warning(filePath, firstInvalidLine(bytes)));
  const entries: TranscriptEntry[] = [];
  let meta: TranscriptMeta | undefined;
  let lastTurn = '';
  /** Where each user turn still in the conversation starts, in `entries`. */
  const turnStarts: number[] = [];
  for (const [index, text] of lines.entries()) {
    if (text.trim() === '') continue;
    // The same line validation as resume: a torn last line is skipped, any other bad line names itself.
    const line = parseRolloutLine(filePath, text, index + 1, index === lines.length - 1);
    if (!line) {
      warnings.push(tornTailWarning(filePath));
      continue;
    }
    if (!meta) {
      meta = parseMetaLine(filePath, line);
      continue;
    }
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
        if (isRealUserMessage(item) && !isContextualUserText(messageText(item)))
          turnStarts.push(entries.length);
        entries.push({ kind: 'item', item });
        break;
      }
      case 'turn_context': {
        const context = toTurnContext(line.payload, meta);
        if (!context) break;
        const turn = `${context.provider}|${context.api}|${context.model}`;
        if (turn !== lastTurn) {
          entries.push({
            kind: 'turn-context',
            provider: context.provider,
            api: context.api,
            model: context.model,
          });
        }
        lastTurn = turn;
        break;
      }
      case 'compacted':
        entries.push({ kind: 'compacted', summary: String(payload.message ?? '') });
        break;
      case 'event_msg': {
        // Older files wrote Cody's events here; Codex's own events of those names are read the same way.
        const event = codyEventOf(line.type, payload);
        if (event) addEvent(entries, event.payload);
        else if (payload.type === 'thread_rolled_back') addUndo(entries, turnStarts, payload);
        break;
      }
      default:
        break;
    }
  }
  if (!meta) throw new EmptyConversationError(filePath);
  return { meta, entries, warnings };
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
