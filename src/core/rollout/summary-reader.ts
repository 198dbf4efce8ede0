/**
 * What `cody list` shows of a conversation, from the first and last few KiB of its rollout only. Kept free
 * of zod and of the full reader, and synchronous (thousands of tiny reads cost more through the thread
 * pool than they take), so listing a thousand large conversations stays a start-up-sized cost.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { SUMMARY_PREFIX } from '../compact/summary-prefix.js';

export interface ConversationSummary {
  id: string;
  provider: string;
  api: string;
  model: string;
  createdAt: string;
  updatedAt: string;
  /** User and assistant messages so far (from the last `turn_complete`), when known. */
  messageCount?: number;
  /** The first user message, shortened. */
  preview?: string;
  compactionCount: number;
  filePath: string;
  /** Why the file could not be read properly (it is listed anyway). */
  problem?: string;
}

/**
 * First read from each end. 8 KiB holds the meta line, the system prompt and the first user message,
 * and at the end the last `turn_complete`; a window that does not is doubled up to `MAX_WINDOW`.
 */
const FIRST_WINDOW = 8 * 1024;
const MAX_WINDOW = 256 * 1024;
const PREVIEW_LENGTH = 60;

type Json = Record<string, unknown>;

function parseLine(line: string): Json | undefined {
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Json) : undefined;
  } catch {
    return undefined;
  }
}

function payloadOf(line: Json | undefined): Json {
  const payload = line?.payload;
  return typeof payload === 'object' && payload !== null ? (payload as Json) : {};
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_LENGTH ? `${flat.slice(0, PREVIEW_LENGTH - 1)}…` : flat;
}

function userText(payload: Json): string | undefined {
  if (payload.type !== 'message' || payload.role !== 'user' || !Array.isArray(payload.content))
    return undefined;
  const text = (payload.content as Json[])
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join(' ');
  if (text.startsWith(SUMMARY_PREFIX) || text.startsWith('<')) return undefined; // summaries, harness context
  return text.trim() === '' ? undefined : text;
}

/** One buffer for every read: listing is synchronous, and a thousand fresh buffers mostly feed the GC. */
const scratch = Buffer.allocUnsafe(MAX_WINDOW);

function readAt(descriptor: number, start: number, length: number): string {
  const read = readSync(descriptor, scratch, 0, Math.min(length, scratch.length), start);
  return scratch.toString('utf8', 0, read);
}

interface HeadFacts {
  meta?: Json;
  preview?: string;
}

/** The meta line and the first user message, reading more of the head only while needed. */
function readHead(descriptor: number, size: number): HeadFacts {
  for (let window = FIRST_WINDOW; ; window *= 2) {
    const length = Math.min(size, window);
    const lines = readAt(descriptor, 0, length).split('\n');
    const complete = length === size ? lines : lines.slice(0, -1);
    const facts: HeadFacts = {};
    const meta = parseLine(complete[0] ?? '');
    if (meta) facts.meta = meta;
    for (const line of complete.slice(1)) {
      if (!line.includes('"role":"user"') && !line.includes('"role": "user"')) continue;
      const parsed = parseLine(line);
      const text = parsed?.type === 'response_item' ? userText(payloadOf(parsed)) : undefined;
      if (text !== undefined) {
        facts.preview = text;
        break;
      }
    }
    if ((facts.meta && facts.preview !== undefined) || length >= size || window >= MAX_WINDOW) return facts;
  }
}

interface TailFacts {
  updatedAt?: string;
  messageCount?: number;
  firstUserMessage?: string;
  compactionCount?: number;
  turn?: { provider: string; api: string; model: string };
}

/** The last timestamp and `turn_complete` (and any `compacted`/`turn_context` on the way), reading more only while needed. */
function readTail(descriptor: number, size: number): TailFacts {
  for (let window = FIRST_WINDOW; ; window *= 2) {
    const start = Math.max(0, size - window);
    const lines = readAt(descriptor, start, size - start).split('\n');
    if (start > 0) lines.shift(); // cut mid-line
    const facts: TailFacts = {};
    for (let index = lines.length - 1; index >= 0; index -= 1) {
      const line = lines[index] ?? '';
      if (line === '') continue;
      const wanted =
        facts.updatedAt === undefined ||
        (facts.messageCount === undefined && line.includes('turn_complete')) ||
        (facts.compactionCount === undefined && line.includes('"compacted"')) ||
        (facts.turn === undefined && line.includes('"turn_context"'));
      if (!wanted) continue;
      const parsed = parseLine(line);
      if (!parsed) continue;
      if (facts.updatedAt === undefined && typeof parsed.timestamp === 'string')
        facts.updatedAt = parsed.timestamp;
      const payload = payloadOf(parsed);
      if (
        parsed.type === 'event_msg' &&
        payload.type === 'turn_complete' &&
        facts.messageCount === undefined
      ) {
        if (typeof payload.message_count === 'number') facts.messageCount = payload.message_count;
        if (typeof payload.first_user_message === 'string')
          facts.firstUserMessage = payload.first_user_message;
        if (facts.turn === undefined && typeof payload.model === 'string') {
          facts.turn = {
            provider: String(payload.provider ?? ''),
            api: String(payload.api ?? ''),
            model: payload.model,
          };
        }
      } else if (parsed.type === 'compacted' && facts.compactionCount === undefined) {
        facts.compactionCount = typeof payload.compaction_count === 'number' ? payload.compaction_count : 1;
      } else if (
        parsed.type === 'turn_context' &&
        facts.turn === undefined &&
        typeof payload.model === 'string'
      ) {
        facts.turn = {
          provider: String(payload.provider ?? ''),
          api: String(payload.api ?? ''),
          model: payload.model,
        };
      }
      if (facts.messageCount !== undefined) break;
    }
    // The last turn_complete carries the count and what the turn ran with: nothing more is needed.
    if (facts.messageCount !== undefined || start === 0 || window >= MAX_WINDOW) return facts;
  }
}

export function readConversationSummary(filePath: string): ConversationSummary {
  const id = basename(filePath, '.jsonl');
  const fallback: ConversationSummary = {
    id,
    provider: '?',
    api: '?',
    model: '?',
    createdAt: '',
    updatedAt: '',
    compactionCount: 0,
    filePath,
  };
  let descriptor: number;
  try {
    descriptor = openSync(filePath, 'r');
  } catch (error) {
    return { ...fallback, problem: `unreadable: ${(error as Error).message}` };
  }
  try {
    const { size, mtime } = fstatSync(descriptor);
    const modified = mtime.toISOString();
    if (size === 0) return { ...fallback, createdAt: modified, updatedAt: modified, problem: 'empty file' };
    const head = readHead(descriptor, size);
    if (head.meta?.type !== 'session_meta') {
      return {
        ...fallback,
        createdAt: modified,
        updatedAt: modified,
        problem: 'the first line is not session_meta',
      };
    }
    const meta = payloadOf(head.meta);
    const tail = readTail(descriptor, size);
    const createdAt = String(meta.timestamp ?? head.meta.timestamp ?? modified);
    const preview = head.preview ?? tail.firstUserMessage;
    return {
      id,
      provider: tail.turn?.provider || String(meta.provider ?? meta.model_provider ?? '?'),
      api: tail.turn?.api || String(meta.api ?? '?'),
      model: tail.turn?.model ?? String(meta.model ?? '?'),
      createdAt,
      updatedAt: tail.updatedAt ?? createdAt,
      ...(tail.messageCount !== undefined ? { messageCount: tail.messageCount } : {}),
      ...(preview !== undefined ? { preview: shorten(preview) } : {}),
      compactionCount: tail.compactionCount ?? 0,
      filePath,
    };
  } finally {
    closeSync(descriptor);
  }
}
