/**
 * Rebuilds a conversation's live history from its rollout. The newest `compacted` line holds the whole
 * live history, so the file is scanned backwards for it and only what follows is parsed: resume cost
 * grows with the live history, not with the file.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import type { MessageItem, ResponseItem, TokenUsage } from '../../protocol/index.js';
import { SUMMARY_PREFIX } from '../compact/summary-prefix.js';
import { errorMessage, isErrno } from '../errors.js';
import { CorruptRolloutError, EmptyConversationError, StorageError } from '../errors.js';
import {
  compactedSchema,
  eventSchema,
  parseResponseItem,
  rolloutLineSchema,
  type SessionMetaPayload,
  tokenCountSchema,
  toSessionMeta,
  turnContextSchema,
  type TurnContextPayload,
} from './schema.js';

export interface ResumedRollout {
  meta: SessionMetaPayload;
  /** The live history: what the next prompt is built from. */
  history: ResponseItem[];
  lastTurnContext?: TurnContextPayload;
  /** The last usage the provider reported, and how long the history was then (cleared by a compaction). */
  lastTokenCount?: { usage: TokenUsage; historyLengthAtReport: number };
  compactionCount: number;
  /** From the last `turn_complete` event, when there is one. */
  messageCount?: number;
  firstUserMessage?: string;
  /** Lines parsed to rebuild the history. */
  lineCount: number;
  warnings: string[];
  /** The last line was incomplete (an interrupted write); it is set aside on the next append. */
  tornTail: boolean;
}

/** Backward-scan chunk: large enough that a typical compacted line is found in one or two reads. */
const SCAN_CHUNK = 1 << 20;
const COMPACTED_MARKERS = ['"type":"compacted"', '"type": "compacted"'].map((marker) => Buffer.from(marker));

export async function readRolloutForResume(filePath: string): Promise<ResumedRollout> {
  let handle: FileHandle;
  try {
    handle = await open(filePath, 'r');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) throw new StorageError(`${filePath} does not exist.`, { cause: error });
    throw new StorageError(`Cannot read ${filePath}: ${errorMessage(error)}`, { cause: error });
  }
  try {
    const { size } = await handle.stat();
    const id = basename(filePath, '.jsonl');
    if (size === 0) throw new EmptyConversationError(id);
    const start = await findLastCompactedLine(handle, size);
    if (start !== undefined) {
      try {
        const metaLine = await readFirstLine(handle, size);
        const tail = await readRange(handle, start, size);
        return replay(filePath, id, metaLine, tail, { firstLineNumber: undefined });
      } catch (error) {
        // A bad line after the compacted one: parse the whole file so the error names the right line.
        if (!(error instanceof CorruptRolloutError)) throw error;
      }
    }
    const whole = await readRange(handle, 0, size);
    return replay(filePath, id, undefined, whole, { firstLineNumber: 1 });
  } finally {
    await handle.close();
  }
}

interface ReplayOptions {
  /** Line number of the first line of `text`, when known (undefined: a backward-scan slice). */
  firstLineNumber: number | undefined;
}

function replay(
  filePath: string,
  id: string,
  metaLine: string | undefined,
  text: string,
  options: ReplayOptions,
): ResumedRollout {
  if (text.trim() === '' && metaLine === undefined) throw new EmptyConversationError(id);
  const warnings: string[] = [];
  const lines = text.split('\n');
  const endsWithNewline = text.endsWith('\n');
  if (endsWithNewline) lines.pop();
  let meta: SessionMetaPayload | undefined;
  if (metaLine !== undefined) {
    meta = parseMeta(filePath, metaLine);
  }
  const state: ResumedRollout = {
    meta: meta ?? ({} as SessionMetaPayload),
    history: [],
    compactionCount: 0,
    lineCount: 0,
    warnings,
    tornTail: false,
  };
  const userMessages: MessageItem[] = [];
  for (const [index, line] of lines.entries()) {
    const lineNumber = options.firstLineNumber !== undefined ? options.firstLineNumber + index : undefined;
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      if (index === lines.length - 1 && !endsWithNewline) {
        warnings.push(
          `The last line of ${filePath} is incomplete (an interrupted write); it will be set aside on the next save.`,
        );
        state.tornTail = true;
        continue;
      }
      throw new CorruptRolloutError(filePath, lineNumber ?? 0, `not valid JSON (${errorMessage(error)})`);
    }
    const envelope = rolloutLineSchema.safeParse(parsed);
    if (!envelope.success) {
      throw new CorruptRolloutError(
        filePath,
        lineNumber ?? 0,
        'not a rollout line (needs timestamp, type and payload)',
      );
    }
    state.lineCount += 1;
    const { type, payload } = envelope.data;
    if (meta === undefined) {
      if (type !== 'session_meta')
        throw new CorruptRolloutError(filePath, lineNumber ?? 1, 'the first line is not session_meta');
      meta = parseMeta(filePath, line);
      state.meta = meta;
      continue;
    }
    switch (type) {
      case 'response_item': {
        const item = parseResponseItem(payload);
        state.history.push(item);
        if (item.type === 'message' && item.role === 'user' && !isSummary(item)) userMessages.push(item);
        break;
      }
      case 'compacted': {
        const compacted = compactedSchema.safeParse(payload);
        if (!compacted.success)
          throw new CorruptRolloutError(filePath, lineNumber ?? 0, 'malformed compacted line');
        state.compactionCount = compacted.data.compaction_count ?? state.compactionCount + 1;
        state.history = compacted.data.replacement_history
          ? compacted.data.replacement_history.map(parseResponseItem)
          : rebuildLegacyCompaction(state.history, userMessages, compacted.data.message);
        delete state.lastTokenCount;
        break;
      }
      case 'turn_context': {
        const context = turnContextSchema.safeParse(payload);
        if (context.success && context.data.model !== undefined) {
          state.lastTurnContext = {
            ...context.data,
            provider: context.data.provider ?? meta.provider,
            api: context.data.api ?? meta.api,
            model: context.data.model,
            ...(typeof context.data.approval_policy === 'string'
              ? { approval_policy: context.data.approval_policy }
              : { approval_policy: undefined }),
          } as TurnContextPayload;
        }
        break;
      }
      case 'event_msg':
        applyEvent(state, payload);
        break;
      default:
        break; // session_meta repeated, or a line type from a newer version: ignored
    }
  }
  if (meta === undefined) throw new EmptyConversationError(id);
  return state;
}

function applyEvent(state: ResumedRollout, payload: unknown): void {
  const event = eventSchema.safeParse(payload);
  if (!event.success) return;
  if (event.data.type === 'token_count') {
    const count = tokenCountSchema.safeParse(payload);
    const last = count.success ? count.data.info?.last_token_usage : undefined;
    if (!last) return;
    state.lastTokenCount = {
      usage: {
        ...(last.input_tokens !== undefined ? { inputTokens: last.input_tokens } : {}),
        ...(last.cached_input_tokens !== undefined ? { cachedInputTokens: last.cached_input_tokens } : {}),
        ...(last.output_tokens !== undefined ? { outputTokens: last.output_tokens } : {}),
        ...(last.reasoning_output_tokens !== undefined
          ? { reasoningTokens: last.reasoning_output_tokens }
          : {}),
        ...(last.total_tokens !== undefined ? { totalTokens: last.total_tokens } : {}),
      },
      historyLengthAtReport: state.history.length,
    };
  } else if (event.data.type === 'turn_complete') {
    if (typeof event.data.message_count === 'number') state.messageCount = event.data.message_count;
    if (typeof event.data.first_user_message === 'string')
      state.firstUserMessage = event.data.first_user_message;
  }
}

/**
 * Older Codex `compacted` lines carry only the summary: rebuild the history Codex would have had —
 * the initial context, the user messages so far, then the summary as a user message.
 */
function rebuildLegacyCompaction(
  history: ResponseItem[],
  userMessages: MessageItem[],
  summary: string,
): ResponseItem[] {
  const initial: ResponseItem[] = [];
  for (const item of history) {
    if (item.type === 'message' && (item.role === 'system' || item.role === 'developer')) initial.push(item);
    else break;
  }
  const summaryMessage: MessageItem = {
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: `${SUMMARY_PREFIX}\n${summary}` }],
  };
  return [...initial, ...userMessages, summaryMessage];
}

function isSummary(item: MessageItem): boolean {
  const first = item.content[0];
  return first !== undefined && first.type !== 'input_image' && first.text.startsWith(SUMMARY_PREFIX);
}

function parseMeta(filePath: string, line: string): SessionMetaPayload {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (error) {
    throw new CorruptRolloutError(filePath, 1, `not valid JSON (${errorMessage(error)})`);
  }
  const envelope = rolloutLineSchema.safeParse(parsed);
  if (!envelope.success || envelope.data.type !== 'session_meta') {
    throw new CorruptRolloutError(filePath, 1, 'the first line is not session_meta');
  }
  const meta = toSessionMeta(envelope.data.payload);
  if (!meta) throw new CorruptRolloutError(filePath, 1, 'session_meta lacks an id or timestamp');
  return meta;
}

/** Offset of the start of the newest `compacted` line that carries a replacement history. */
async function findLastCompactedLine(handle: FileHandle, size: number): Promise<number | undefined> {
  let end = size;
  let carry = Buffer.alloc(0);
  while (end > 0) {
    const start = Math.max(0, end - SCAN_CHUNK);
    const chunk = Buffer.concat([await readBytes(handle, start, end), carry]);
    let searchFrom = chunk.length;
    for (;;) {
      let found = -1;
      for (const marker of COMPACTED_MARKERS)
        found = Math.max(found, chunk.lastIndexOf(marker, searchFrom - 1));
      if (found < 0) break;
      const lineStart = chunk.lastIndexOf(0x0a, found) + 1;
      if (lineStart === 0 && start > 0) break; // the line begins in an earlier chunk
      const lineEnd = chunk.indexOf(0x0a, found);
      const line = chunk.subarray(lineStart, lineEnd < 0 ? chunk.length : lineEnd).toString('utf8');
      if (isCompactedWithHistory(line)) return start + lineStart;
      if (isCompactedLine(line)) return undefined; // legacy compaction: needs the whole file
      searchFrom = found;
    }
    const firstNewline = chunk.indexOf(0x0a);
    carry = firstNewline < 0 ? chunk : chunk.subarray(0, firstNewline + 1);
    end = start;
  }
  return undefined;
}

function isCompactedLine(line: string): boolean {
  try {
    return (JSON.parse(line) as { type?: unknown }).type === 'compacted';
  } catch {
    return false;
  }
}

function isCompactedWithHistory(line: string): boolean {
  try {
    const parsed = JSON.parse(line) as { type?: unknown; payload?: { replacement_history?: unknown } };
    return parsed.type === 'compacted' && Array.isArray(parsed.payload?.replacement_history);
  } catch {
    return false;
  }
}

async function readFirstLine(handle: FileHandle, size: number): Promise<string> {
  let length = Math.min(size, 64 * 1024);
  for (;;) {
    const bytes = await readBytes(handle, 0, length);
    const newline = bytes.indexOf(0x0a);
    if (newline >= 0) return bytes.subarray(0, newline).toString('utf8');
    if (length >= size) return bytes.toString('utf8');
    length = Math.min(size, length * 4);
  }
}

async function readRange(handle: FileHandle, start: number, end: number): Promise<string> {
  return (await readBytes(handle, start, end)).toString('utf8');
}

async function readBytes(handle: FileHandle, start: number, end: number): Promise<Buffer> {
  const buffer = Buffer.alloc(end - start);
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesRead } = await handle.read(buffer, offset, buffer.length - offset, start + offset);
    if (bytesRead === 0) break;
    offset += bytesRead;
  }
  return buffer.subarray(0, offset);
}
