/**
 * What `cody list` shows of a conversation, from the first and last 64 KiB of its rollout only. Kept free
 * of zod and of the full reader so listing a thousand large conversations stays a start-up-sized cost.
 */
import { open } from 'node:fs/promises';
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

/** Bytes read from each end of a file: covers the meta line, the first turn and the last few events. */
const WINDOW_BYTES = 64 * 1024;
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

function firstUserText(payload: Json): string | undefined {
  if (payload.type !== 'message' || payload.role !== 'user' || !Array.isArray(payload.content))
    return undefined;
  const text = (payload.content as Json[])
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join(' ');
  if (text.startsWith(SUMMARY_PREFIX) || text.startsWith('<')) return undefined; // summaries, harness context
  return text.trim() === '' ? undefined : text;
}

export async function readConversationSummary(
  filePath: string,
  modifiedAt: Date,
): Promise<ConversationSummary> {
  const id = basename(filePath, '.jsonl');
  const fallback: ConversationSummary = {
    id,
    provider: '?',
    api: '?',
    model: '?',
    createdAt: modifiedAt.toISOString(),
    updatedAt: modifiedAt.toISOString(),
    compactionCount: 0,
    filePath,
  };
  let handle;
  try {
    handle = await open(filePath, 'r');
  } catch (error) {
    return { ...fallback, problem: `unreadable: ${(error as Error).message}` };
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return { ...fallback, problem: 'empty file' };
    const headLength = Math.min(size, WINDOW_BYTES);
    const head = Buffer.alloc(headLength);
    await handle.read(head, 0, headLength, 0);
    const tailStart = Math.max(headLength, size - WINDOW_BYTES);
    const tail = Buffer.alloc(size - tailStart);
    if (tail.length > 0) await handle.read(tail, 0, tail.length, tailStart);

    const headLines = head.toString('utf8').split('\n');
    if (headLength < size) headLines.pop(); // cut mid-line
    const meta = parseLine(headLines[0] ?? '');
    if (meta?.type !== 'session_meta') return { ...fallback, problem: 'the first line is not session_meta' };
    const metaPayload = payloadOf(meta);
    const summary: ConversationSummary = {
      ...fallback,
      provider: String(metaPayload.provider ?? metaPayload.model_provider ?? '?'),
      api: String(metaPayload.api ?? '?'),
      model: String(metaPayload.model ?? '?'),
      createdAt: String(metaPayload.timestamp ?? meta.timestamp ?? fallback.createdAt),
    };
    let preview: string | undefined;
    for (const line of headLines.slice(1)) {
      const parsed = parseLine(line);
      if (parsed?.type !== 'response_item') continue;
      preview = firstUserText(payloadOf(parsed));
      if (preview !== undefined) break;
    }

    const tailText = tail.length > 0 ? tail.toString('utf8') : head.toString('utf8');
    const tailLines = tailText.split('\n');
    if (tail.length > 0 && tailStart > headLength) tailLines.shift(); // cut mid-line
    let updatedAt: string | undefined;
    let sawTurnContext = false;
    for (let index = tailLines.length - 1; index >= 0; index -= 1) {
      const parsed = parseLine(tailLines[index] ?? '');
      if (!parsed) continue;
      if (updatedAt === undefined && typeof parsed.timestamp === 'string') updatedAt = parsed.timestamp;
      const payload = payloadOf(parsed);
      if (
        parsed.type === 'event_msg' &&
        payload.type === 'turn_complete' &&
        summary.messageCount === undefined
      ) {
        if (typeof payload.message_count === 'number') summary.messageCount = payload.message_count;
        if (preview === undefined && typeof payload.first_user_message === 'string')
          preview = payload.first_user_message;
      }
      if (parsed.type === 'compacted' && summary.compactionCount === 0) {
        summary.compactionCount = typeof payload.compaction_count === 'number' ? payload.compaction_count : 1;
      }
      if (parsed.type === 'turn_context' && !sawTurnContext && typeof payload.model === 'string') {
        sawTurnContext = true;
        summary.provider = String(payload.provider ?? summary.provider);
        summary.api = String(payload.api ?? summary.api);
        summary.model = String(payload.model ?? summary.model);
      }
    }
    summary.updatedAt = updatedAt ?? summary.createdAt;
    if (preview !== undefined) summary.preview = shorten(preview);
    return summary;
  } finally {
    await handle.close();
  }
}
