/**
 * A cache of list entries keyed by each rollout's size and modification time, so `cody list` makes one
 * `stat` per conversation instead of five calls (open, stat, two reads, close) — on this kind of machine
 * the system calls, not the bytes, are what listing a thousand conversations costs. Only a rollout whose
 * size or mtime changed is read again. The cache is a convenience: a missing, unreadable or malformed
 * cache (or entry) is simply rebuilt, and a failure to write it is ignored.
 */
import * as fs from 'node:fs';
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ConversationSummary,
  readConversationSummary,
  type SummaryFileSystem,
} from './summary-reader.js';

/** Hidden next to the rollouts; it does not end in `.jsonl`, so it is never taken for a conversation. */
export const LIST_CACHE_FILE = '.list-cache.json';
const CACHE_VERSION = 1;

type CachedSummary = Omit<ConversationSummary, 'filePath'>;

interface CacheEntry {
  size: number;
  mtimeMs: number;
  summary: CachedSummary;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks an entry read from disk field by field (this path stays free of zod for start-up speed). */
function validEntry(value: unknown): CacheEntry | undefined {
  if (!isRecord(value) || typeof value.size !== 'number' || typeof value.mtimeMs !== 'number')
    return undefined;
  const summary = value.summary;
  if (!isRecord(summary)) return undefined;
  const strings = ['id', 'provider', 'api', 'model', 'createdAt', 'updatedAt'] as const;
  if (
    strings.some((key) => typeof summary[key] !== 'string') ||
    typeof summary.compactionCount !== 'number'
  ) {
    return undefined;
  }
  for (const [key, type] of [
    ['messageCount', 'number'],
    ['preview', 'string'],
    ['problem', 'string'],
  ] as const) {
    if (summary[key] !== undefined && typeof summary[key] !== type) return undefined;
  }
  return { size: value.size, mtimeMs: value.mtimeMs, summary: summary as unknown as CachedSummary };
}

function readCache(path: string): Map<string, CacheEntry> {
  const entries = new Map<string, CacheEntry>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return entries;
  }
  if (!isRecord(parsed) || parsed.version !== CACHE_VERSION || !isRecord(parsed.entries)) return entries;
  for (const [id, value] of Object.entries(parsed.entries)) {
    const entry = validEntry(value);
    if (entry && entry.summary.id === id) entries.set(id, entry);
  }
  return entries;
}

function writeCache(path: string, entries: Map<string, CacheEntry>): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(
      temporary,
      JSON.stringify({ version: CACHE_VERSION, entries: Object.fromEntries(entries) }),
      {
        mode: 0o600,
      },
    );
    renameSync(temporary, path);
  } catch {
    // A read-only or full disk only costs the next listing its speed.
  }
}

/**
 * Reads a summary and keeps the `fstat` it made: with no cache entry to compare with, that one call
 * stands in for a separate `stat` of the path.
 */
function summaryWithStat(filePath: string): { summary: ConversationSummary; stat?: fs.Stats } {
  let stat: fs.Stats | undefined;
  const fileSystem: SummaryFileSystem = {
    openSync: fs.openSync,
    readSync: fs.readSync,
    closeSync: fs.closeSync,
    fstatSync: (descriptor) => (stat = fs.fstatSync(descriptor)),
  };
  const summary = readConversationSummary(filePath, fileSystem);
  return stat ? { summary, stat } : { summary };
}

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
      const { summary, stat } = summaryWithStat(filePath);
      const { filePath: _ignored, ...stored } = summary;
      if (stat) next.set(id, { size: stat.size, mtimeMs: stat.mtimeMs, summary: stored });
      return summary;
    }
    let size: number;
    let mtimeMs: number;
    try {
      ({ size, mtimeMs } = statSync(filePath));
    } catch {
      return readConversationSummary(filePath); // vanished or unreadable: reported with a problem
    }
    if (cached.size === size && cached.mtimeMs === mtimeMs) {
      next.set(id, cached);
      return { ...cached.summary, filePath };
    }
    changed = true;
    const summary = readConversationSummary(filePath);
    const { filePath: _ignored, ...stored } = summary;
    next.set(id, { size, mtimeMs, summary: stored });
    return summary;
  });
  if (changed) writeCache(cachePath, next);
  return summaries;
}
