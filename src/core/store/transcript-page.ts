/** A conversation's whole recorded story (`readTranscript`), a page at a time. */
import { readTranscript, type TranscriptEntry, type TranscriptMeta } from '../transcript.js';
import { UsageError } from '../errors.js';

export interface TranscriptPageOptions {
  /** The `next` cursor of the previous page; omitted for the first page. */
  after?: string;
  /** Entries per page: default 100, at most 1000. */
  limit?: number;
}

export interface TranscriptPage {
  meta: TranscriptMeta;
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
  const transcript = await readTranscript(filePath);
  const entries = transcript.entries
    .slice(start, start + limit)
    .map((entry, offset) => ({ ...entry, cursor: String(start + offset + 1) }));
  const end = start + entries.length;
  return {
    meta: transcript.meta,
    entries,
    ...(end < transcript.entries.length ? { next: String(end) } : {}),
  };
}
