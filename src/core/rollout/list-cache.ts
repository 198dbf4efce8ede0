/**
 * A cache of list entries keyed by each rollout's size and modification time, so `cody list` makes one
 * `stat` per conversation instead of five calls (open, stat, two reads, close) — on this kind of machine
 * the system calls, not the bytes, are what listing a thousand conversations costs. Only a rollout whose
 * size or mtime changed is read again. The cache is a convenience: a missing, unreadable or malformed
 * cache (or entry) is simply rebuilt, and a failure to write it is ignored.
 */
import * as fs from 'node:fs';
import { renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readOwnFileSync } from '../fs/index.js';
import {
  type ConversationSummary,
  readConversationSummary,
  type SummaryFileSystem,
} from './summary-reader.js';

/** Hidden next to the rollouts; it does not end in `.jsonl`, so it is never taken for a conversation. */
export const LIST_CACHE_FILE = '.list-cache.json';
/**
 * Version 2 keeps each entry as one flat array (`CacheRow`) rather than nested objects: half the bytes,
 * and parsing and checking a thousand rows costs a third of what the objects did (measured cold, which is
 * how `cody list` runs). Version 3 adds the generated title, version 4 the working directory (`cody list`
 * shows the current workspace's conversations), version 5 the parent of a fork. Older versions are simply rebuilt.
 */
const CACHE_VERSION = 5;
/** The largest cache read (~300 bytes a conversation); a larger one is rebuilt. */
const MAX_LIST_CACHE_BYTES = 64 * 1024 * 1024;

type CachedSummary = Omit<ConversationSummary, 'filePath'>;

interface CacheEntry {
  size: number;
  mtimeMs: number;
  summary: CachedSummary;
}

/** [id, size, mtimeMs, provider, api, model, createdAt, updatedAt, compactionCount, messageCount, preview, problem, title, cwd, parentId] */
type CacheRow = [
  string,
  number,
  number,
  string,
  string,
  string,
  string,
  string,
  number,
  number | null,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
];

function toRow(id: string, entry: CacheEntry): CacheRow {
  const { summary } = entry;
  return [
    id,
    entry.size,
    entry.mtimeMs,
    summary.provider,
    summary.api,
    summary.model,
    summary.createdAt,
    summary.updatedAt,
    summary.compactionCount,
    summary.messageCount ?? null,
    summary.preview ?? null,
    summary.problem ?? null,
    summary.title ?? null,
    summary.cwd ?? null,
    summary.parentId ?? null,
  ];
}

/** Checks a row read from disk field by field (this path stays free of zod for start-up speed). */
function fromRow(row: unknown): [string, CacheEntry] | undefined {
  if (!Array.isArray(row) || row.length !== 15) return undefined;
  const [
    id,
    size,
    mtimeMs,
    provider,
    api,
    model,
    createdAt,
    updatedAt,
    compactions,
    count,
    preview,
    problem,
    title,
    cwd,
    parentId,
  ] = row as unknown[];
  if (
    typeof id !== 'string' ||
    typeof size !== 'number' ||
    typeof mtimeMs !== 'number' ||
    typeof provider !== 'string' ||
    typeof api !== 'string' ||
    typeof model !== 'string' ||
    typeof createdAt !== 'string' ||
    typeof updatedAt !== 'string' ||
    typeof compactions !== 'number' ||
    (count !== null && typeof count !== 'number') ||
    (preview !== null && typeof preview !== 'string') ||
    (problem !== null && typeof problem !== 'string') ||
    (title !== null && typeof title !== 'string') ||
    (cwd !== null && typeof cwd !== 'string') ||
    (parentId !== null && typeof parentId !== 'string')
  ) {
    return undefined;
  }
  const summary: CachedSummary = {
    id,
    provider,
    api,
    model,
    createdAt,
    updatedAt,
    compactionCount: compactions,
  };
  if (count !== null) summary.messageCount = count;
  if (preview !== null) summary.preview = preview;
  if (problem !== null) summary.problem = problem;
  if (title !== null) summary.title = title;
  if (cwd !== null) summary.cwd = cwd;
  if (parentId !== null) summary.parentId = parentId;
  return [id, { size, mtimeMs, summary }];
}

function readCache(path: string): Map<string, CacheEntry> {
  const entries = new Map<string, CacheEntry>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(
      readOwnFileSync(path, { maxBytes: MAX_LIST_CACHE_BYTES })?.bytes.toString('utf8') ?? '',
    );
  } catch {
    return entries;
  }
  if (typeof parsed !== 'object' || parsed === null) return entries;
  const { version, rows } = parsed as { version?: unknown; rows?: unknown };
  if (version !== CACHE_VERSION || !Array.isArray(rows)) return entries;
  for (const row of rows as unknown[]) {
    const entry = fromRow(row);
    if (entry) entries.set(entry[0], entry[1]);
  }
  return entries;
}

function writeCache(path: string, entries: Map<string, CacheEntry>): void {
  const temporary = `${path}.${process.pid}.tmp`;
  const rows: CacheRow[] = [];
  for (const [id, entry] of entries) rows.push(toRow(id, entry));
  try {
    writeFileSync(temporary, JSON.stringify({ version: CACHE_VERSION, rows }), { mode: 0o600 });
    renameSync(temporary, path);
  } catch {
    // A read-only or full disk only costs the next listing its speed.
  }
}

/**
 * The summary reader's file system, keeping the `fstat` it made: with no cache entry to compare with, that
 * one call stands in for a separate `stat` of the path. One object for the whole listing (synchronous).
 */
const statKeeping = {
  last: undefined as fs.Stats | undefined,
  openSync: fs.openSync,
  readSync: fs.readSync,
  closeSync: fs.closeSync,
  fstatSync(descriptor: number): fs.Stats {
    return (this.last = fs.fstatSync(descriptor));
  },
} satisfies SummaryFileSystem & { last: fs.Stats | undefined };

/** List entries for `ids`, reading only the rollouts that changed since the cache was written. */
export function summarizeConversations(
  conversationsDir: string,
  ids: readonly string[],
  rolloutPath: (id: string) => string,
): ConversationSummary[] {
  const cachePath = join(conversationsDir, LIST_CACHE_FILE);
  const cache = readCache(cachePath);
  const next = new Map<string, CacheEntry>();
  let changed = cache.size !== ids.length;
  const summaries = ids.map((id) => {
    const filePath = rolloutPath(id);
    const cached = cache.get(id);
    if (!cached) {
      changed = true;
      statKeeping.last = undefined;
      const summary = readConversationSummary(filePath, statKeeping, id);
      const stat = statKeeping.last as fs.Stats | undefined;
      // Stored as it is: the cache row takes its fields one by one and leaves `filePath` out.
      if (stat) next.set(id, { size: stat.size, mtimeMs: stat.mtimeMs, summary });
      return summary;
    }
    let stat: fs.Stats | undefined;
    try {
      stat = statSync(filePath, { throwIfNoEntry: false });
    } catch {
      stat = undefined;
    }
    if (stat === undefined) return readConversationSummary(filePath, fs, id); // vanished or unreadable
    const { size, mtimeMs } = stat;
    if (cached.size === size && cached.mtimeMs === mtimeMs) {
      next.set(id, cached);
      const summary = cached.summary as ConversationSummary;
      summary.filePath = filePath; // the cached object is this listing's own: no copy needed
      return summary;
    }
    changed = true;
    const summary = readConversationSummary(filePath, fs, id);
    next.set(id, { size, mtimeMs, summary });
    return summary;
  });
  if (changed) writeCache(cachePath, next);
  return summaries;
}
