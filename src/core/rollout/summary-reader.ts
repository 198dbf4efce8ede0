/**
 * What `cody list` shows of a conversation, from the first and last few KiB of its rollout only. Kept free
 * of zod and of the full reader (every field is checked by hand and a bad value is simply not shown), and
 * synchronous: thousands of tiny reads cost more through the thread pool than they take, so listing a
 * thousand large conversations stays a start-up-sized cost.
 */
import * as fs from 'node:fs';
import { basename } from 'node:path';
import { codyEventOf } from './codex-lines.js';
import { generateTitle, isCountedMessage, previewText, typedUserText } from './definitions.js';
import { lineOrUndefined, payloadRecord, type RolloutLine } from './line.js';

export interface ConversationSummary {
  id: string;
  provider: string;
  api: string;
  model: string;
  /** ISO-8601: the session_meta timestamp. */
  createdAt: string;
  /** ISO-8601: the last line's timestamp. */
  updatedAt: string;
  /** User and assistant messages so far (from the last `turn_complete`), when known. */
  messageCount?: number;
  /** The first user message, shortened. */
  preview?: string;
  /**
   * What `cody list` shows: the title set with `cody rename` where the listing applies those, else one
   * generated from the first message (and kept in the list cache, so a listing does not make it again).
   */
  title?: string;
  compactionCount: number;
  /** The working directory the conversation was started in (session_meta `cwd`), when recorded. */
  cwd?: string;
  /** The conversation this one was forked from (session_meta `forked_from_id`), when it is a fork. */
  parentId?: string;
  filePath: string;
  /** Why the file could not be read properly (it is listed anyway). */
  problem?: string;
}

/** Opening never waits: a FIFO named like a rollout is listed as not a regular file (issue 36.5). */
const READ_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK;

/** The synchronous reads listing makes; tests wrap them to count the bytes read. */
export interface SummaryFileSystem {
  openSync(path: string, flags: number): number;
  fstatSync(descriptor: number): { size: number; mtime: Date; isFile(): boolean };
  readSync(descriptor: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  closeSync(descriptor: number): void;
}

/**
 * First read at each end. 4 KiB holds Cody's meta line, its system prompt and the first user message, and
 * at the end the last `turn_complete`; a window that does not is doubled, up to `DEFAULT_TAIL_BYTES` at
 * the end and `MAX_HEAD_BYTES` at the start (Codex's first line alone can be tens of KiB of instructions).
 * Listing a thousand unlisted conversations is mostly these reads: 4 KiB windows take ~20% less than 8.
 */
const FIRST_WINDOW = 4 * 1024;
/** The tail a turn ends with (its `turn_complete` is the last line) fits easily; more is not looked at. */
export const DEFAULT_TAIL_BYTES = 64 * 1024;
const MAX_HEAD_BYTES = 256 * 1024;

type Json = Record<string, unknown>;

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Where a fork came from: Codex's `forked_from_id` (Cody writes it and `parent_id` alike). */
function parentOf(meta: Json): string | undefined {
  return text(meta.forked_from_id) ?? text(meta.parent_id);
}

/** One buffer for every read: listing is synchronous, and a thousand fresh buffers mostly feed the GC. */
const scratch = Buffer.allocUnsafe(MAX_HEAD_BYTES);
const NEWLINE = 0x0a;
const USER_ROLE = Buffer.from('"role":"user"');
const USER_ROLE_SPACED = Buffer.from('"role": "user"');

/** Reads `length` bytes at `start` into the scratch buffer; returns how many arrived. */
function readAt(fileSystem: SummaryFileSystem, descriptor: number, start: number, length: number): number {
  return fileSystem.readSync(descriptor, scratch, 0, Math.min(length, scratch.length), start);
}

/** The line of `view` that contains byte `index`, decoded (only that line is decoded). */
function lineAround(view: Buffer, index: number): { text: string; start: number; end: number } {
  const start = view.lastIndexOf(NEWLINE, index) + 1;
  const newline = view.indexOf(NEWLINE, index);
  const end = newline < 0 ? view.length : newline;
  return { text: view.toString('utf8', start, end), start, end };
}

export interface RolloutHead {
  /** The first line, when it is a `session_meta` line. */
  meta?: RolloutLine;
  /** The first user message the person typed. */
  preview?: string;
}

export interface RolloutTail {
  /** The last complete line's timestamp. */
  updatedAt?: string;
  messageCount?: number;
  firstUserMessage?: string;
  compactionCount?: number;
  /** What the last turn ran with. */
  turn?: { provider: string; api: string; model: string };
}

function withFile<T>(
  filePath: string,
  fileSystem: SummaryFileSystem,
  read: (descriptor: number, size: number) => T,
): T {
  const descriptor = fileSystem.openSync(filePath, READ_FLAGS);
  try {
    const stats = fileSystem.fstatSync(descriptor);
    if (!stats.isFile()) throw new Error(`${filePath} is not a regular file`);
    return read(descriptor, stats.size);
  } finally {
    fileSystem.closeSync(descriptor);
  }
}

/** The session_meta line and the first user message, reading no more of the head than needed. */
export function readRolloutHead(filePath: string, fileSystem: SummaryFileSystem = fs): RolloutHead {
  return withFile(filePath, fileSystem, (descriptor, size) => headOf(fileSystem, descriptor, size));
}

/**
 * The last timestamp, `turn_complete`, `compacted` and `turn_context`, from at most `bytes` of the end.
 * A compaction older than the window (and not counted in the last `turn_complete`) is not seen.
 */
export function readRolloutTail(
  filePath: string,
  bytes: number = DEFAULT_TAIL_BYTES,
  fileSystem: SummaryFileSystem = fs,
): RolloutTail {
  return withFile(filePath, fileSystem, (descriptor, size) => tailOf(fileSystem, descriptor, size, bytes));
}

function headOf(fileSystem: SummaryFileSystem, descriptor: number, size: number): RolloutHead {
  for (let window = FIRST_WINDOW; ; window *= 2) {
    const length = readAt(fileSystem, descriptor, 0, Math.min(size, window));
    // Every search stays inside the bytes just read: the scratch buffer is far larger than the window.
    const view = scratch.subarray(0, length);
    const whole = length >= size;
    const firstNewline = view.indexOf(NEWLINE);
    const firstEnd = firstNewline < 0 || firstNewline >= length ? length : firstNewline;
    const head: RolloutHead = {};
    if (firstNewline >= 0 && firstNewline < length) {
      const first = lineOrUndefined(scratch.toString('utf8', 0, firstEnd));
      if (first?.type === 'session_meta') head.meta = first;
    } else if (whole) {
      const first = lineOrUndefined(scratch.toString('utf8', 0, length));
      if (first?.type === 'session_meta') head.meta = first;
    }
    // Look only at lines that mention a user role; decode and parse just those.
    let from = firstEnd;
    while (head.preview === undefined && from < length) {
      const hit = firstOf(view.indexOf(USER_ROLE, from), view.indexOf(USER_ROLE_SPACED, from));
      if (hit < 0) break;
      const line = lineAround(view, hit);
      if (line.end === length && !whole) break; // cut mid-line: a larger window will see it whole
      const parsed = lineOrUndefined(line.text);
      const typed = parsed?.type === 'response_item' ? typedUserText(payloadRecord(parsed)) : undefined;
      if (typed !== undefined) head.preview = typed;
      from = line.end + 1;
    }
    if (head.preview !== undefined || whole || window >= MAX_HEAD_BYTES) return head;
  }
}

/** The smaller of two `indexOf` results, -1 meaning absent. */
function firstOf(a: number, b: number): number {
  return a < 0 ? b : b < 0 ? a : Math.min(a, b);
}

function turnOf(payload: Json): RolloutTail['turn'] {
  const model = text(payload.model);
  return model === undefined
    ? undefined
    : { provider: text(payload.provider) ?? '', api: text(payload.api) ?? '', model };
}

function tailOf(fileSystem: SummaryFileSystem, descriptor: number, size: number, bytes: number): RolloutTail {
  for (let window = Math.min(FIRST_WINDOW, bytes); ; window = Math.min(window * 2, bytes)) {
    const start = Math.max(0, size - window);
    const length = readAt(fileSystem, descriptor, start, size - start);
    // The first line of a window that does not start the file is cut mid-line: skip it.
    const view = scratch.subarray(0, length);
    const floor = start > 0 ? view.indexOf(NEWLINE) + 1 : 0;
    const tail: RolloutTail = {};
    /** Counted messages recorded after the last turn_complete (a failed or interrupted turn's). */
    let recordedSince = 0;
    // Back to the last turn_complete; past it, only a `compacted` line is still of interest (sessions that
    // record the count in turn_complete make that scan stop at once). Lines are decoded one at a time.
    let end = length;
    while (end > floor) {
      const complete = tail.messageCount !== undefined;
      if (complete && tail.compactionCount !== undefined) break;
      if (view[end - 1] === NEWLINE) end -= 1;
      const lineStart = Math.max(floor, view.lastIndexOf(NEWLINE, end - 1) + 1);
      const line = view.toString('utf8', lineStart, end);
      end = lineStart;
      const wanted =
        tail.updatedAt === undefined ||
        // Matches `"turn_complete"` (older files) and `"cody_turn_complete"`.
        (!complete && line.includes('turn_complete"')) ||
        (tail.compactionCount === undefined && line.includes('"compacted"')) ||
        (!complete && tail.turn === undefined && line.includes('"turn_context"')) ||
        (!complete && line.includes('"message"'));
      const parsed = wanted ? lineOrUndefined(line) : undefined;
      if (!parsed) continue; // not wanted, or a torn last line
      tail.updatedAt ??= text(parsed.timestamp);
      const payload = payloadRecord(parsed);
      const event = codyEventOf(parsed.type, payload);
      if (event?.kind === 'turn_complete' && !complete) {
        if (typeof payload.message_count === 'number')
          tail.messageCount = payload.message_count + recordedSince;
        tail.firstUserMessage = text(payload.first_user_message);
        tail.turn ??= turnOf(payload);
        if (typeof payload.compaction_count === 'number') tail.compactionCount ??= payload.compaction_count;
      } else if (parsed.type === 'compacted' && tail.compactionCount === undefined) {
        tail.compactionCount = typeof payload.compaction_count === 'number' ? payload.compaction_count : 1;
      } else if (parsed.type === 'turn_context' && !complete) {
        tail.turn ??= turnOf(payload);
      } else if (parsed.type === 'response_item' && !complete && isCountedMessage(payload)) {
        recordedSince += 1;
      }
    }
    // The last turn_complete carries the count and what the turn ran with: nothing more is needed.
    if (tail.messageCount !== undefined || start === 0 || window >= bytes) return cleaned(tail);
  }
}

/** Without the fields left undefined (a plain loop: this runs once per listed file). */
function cleaned(tail: RolloutTail): RolloutTail {
  const result: RolloutTail = {};
  if (tail.updatedAt !== undefined) result.updatedAt = tail.updatedAt;
  if (tail.messageCount !== undefined) result.messageCount = tail.messageCount;
  if (tail.firstUserMessage !== undefined) result.firstUserMessage = tail.firstUserMessage;
  if (tail.compactionCount !== undefined) result.compactionCount = tail.compactionCount;
  if (tail.turn !== undefined) result.turn = tail.turn;
  return result;
}

/** A conversation's list entry; never throws (an unreadable file is listed with a `problem`). */
export function readConversationSummary(
  filePath: string,
  fileSystem: SummaryFileSystem = fs,
  id: string = basename(filePath, '.jsonl'),
): ConversationSummary {
  // The fallbacks are built only when needed: this runs for every file of an unlisted directory, and
  // what it allocates per file is most of that listing's garbage collection.
  const unknown = (createdAt: string, problem: string): ConversationSummary => ({
    id,
    provider: '?',
    api: '?',
    model: '?',
    createdAt,
    updatedAt: createdAt,
    compactionCount: 0,
    filePath,
    problem,
  });
  let descriptor: number;
  try {
    descriptor = fileSystem.openSync(filePath, READ_FLAGS);
  } catch (error) {
    return unknown('', `unreadable: ${(error as Error).message}`);
  }
  try {
    const stats = fileSystem.fstatSync(descriptor);
    const { size, mtime } = stats;
    if (!stats.isFile()) return unknown(mtime.toISOString(), 'not a regular file');
    if (size === 0) return unknown(mtime.toISOString(), 'empty file');
    const head = headOf(fileSystem, descriptor, size);
    if (head.meta === undefined) return unknown(mtime.toISOString(), 'the first line is not session_meta');
    const meta = payloadRecord(head.meta);
    const tail = tailOf(fileSystem, descriptor, size, DEFAULT_TAIL_BYTES);
    const createdAt = text(meta.timestamp) ?? text(head.meta.timestamp) ?? mtime.toISOString();
    const first = head.preview ?? tail.firstUserMessage;
    const preview = first !== undefined ? previewText(first) : undefined;
    const title = generateTitle(preview);
    return {
      id,
      provider: tail.turn?.provider || text(meta.provider) || text(meta.model_provider) || '?',
      api: tail.turn?.api || text(meta.api) || '?',
      model: tail.turn?.model ?? text(meta.model) ?? '?',
      createdAt,
      updatedAt: tail.updatedAt ?? createdAt,
      ...(tail.messageCount !== undefined ? { messageCount: tail.messageCount } : {}),
      ...(preview !== undefined ? { preview } : {}),
      ...(title !== undefined ? { title } : {}),
      compactionCount: tail.compactionCount ?? 0,
      ...(text(meta.cwd) !== undefined ? { cwd: text(meta.cwd) } : {}),
      ...(parentOf(meta) !== undefined ? { parentId: parentOf(meta) } : {}),
      filePath,
    };
  } catch (error) {
    return unknown('', `unreadable: ${(error as Error).message}`);
  } finally {
    fileSystem.closeSync(descriptor);
  }
}
