/** A conversation's whole recorded story (`readTranscript`), a page at a time. */
import type { TranscriptEntry, TranscriptMeta } from './index.js';
import { UsageError } from '../errors.js';

export interface TranscriptPageOptions {
  /** The `next` cursor of the previous page; omitted for the first page. */
  after?: string;
  /** Entries per page: default 100, at most 1000. */
  limit?: number;
}

/** What a page says of the conversation: the declared fields only, never the rest of its session_meta. */
export interface TranscriptPageMeta extends TranscriptMeta {
  /** The working directory it was started in, when recorded. */
  cwd?: string;
  /** The conversation it was forked from, when it is a fork. */
  parentId?: string;
}

export interface TranscriptPage {
  meta: TranscriptPageMeta;
  /** Each entry with its cursor (its position in the transcript, from 1). */
  entries: Array<TranscriptEntry & { cursor: string }>;
  /** Pass as `after` for the next page; absent on the last page. */
  next?: string;
}

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

export async function readTranscriptPage(
  filePath: string,
  options: TranscriptPageOptions,
): Promise<TranscriptPage> {
  const start = options.after === undefined ? 0 : Number(options.after);
  if (!Number.isInteger(start) || start < 0) {
    throw new UsageError(
      `'${options.after}' is not a transcript cursor (use the 'next' of the previous page).`,
    );
  }
  const limit = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(options.limit ?? DEFAULT_PAGE_SIZE)));
  // The transcript validates lines with zod: loaded on demand, so light commands never load it.
  const { readTranscript } = await import('./transcript.js');
  const transcript = await readTranscript(filePath);
  const entries = transcript.entries
    .slice(start, start + limit)
    .map((entry, offset) => ({ ...entry, cursor: String(start + offset + 1) }));
  const end = start + entries.length;
  return {
    meta: pageMeta(transcript.meta),
    entries,
    ...(end < transcript.entries.length ? { next: String(end) } : {}),
  };
}

function pageMeta(meta: TranscriptMeta): TranscriptPageMeta {
  // The session_meta as read keeps every field the file has (Codex's instructions, git details…).
  const raw = meta as TranscriptMeta & Record<string, unknown>;
  const text = (value: unknown): string | undefined =>
    typeof value === 'string' && value !== '' ? value : undefined;
  const cwd = text(raw.cwd);
  const parentId = text(raw.forked_from_id) ?? text(raw.parent_id);
  return {
    id: raw.id,
    timestamp: raw.timestamp,
    provider: text(raw.provider) ?? text(raw.model_provider) ?? '?',
    api: text(raw.api) ?? '?',
    model: text(raw.model) ?? '?',
    ...(cwd !== undefined ? { cwd } : {}),
    ...(parentId !== undefined ? { parentId } : {}),
  };
}
