/**
 * Reading the conversations directory: ids, rollout paths, the listing and the active id. Kept apart from
 * `ConversationManager` (which also creates, deletes, imports and resumes, through dynamic imports of the
 * reader, recorder and lock) so that `cody list` loads this and the summary reader only.
 */
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { isConversationId } from './conversation-id.js';
import { readTitles } from './conversation-titles.js';
import { errorMessage, isErrno, StorageError } from '../errors.js';
import { readOwnFileSync, RefusedFileError } from '../fs/index.js';
import type { CodyPaths } from '../config/index.js';
import { ROLLOUT_SUFFIX, rolloutPathIn, summarizeConversations } from '../rollout/index.js';

export { ROLLOUT_SUFFIX, rolloutPathIn };
import type { ConversationSummary } from '../rollout/index.js';

/** The ids of the rollouts in the directory (none when it does not exist yet). */
export function conversationIds(conversationsDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(conversationsDir);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return [];
    throw new StorageError(`Cannot read ${conversationsDir}: ${errorMessage(error)}`, { cause: error });
  }
  return names
    .filter((name) => name.endsWith(ROLLOUT_SUFFIX))
    .map((name) => name.slice(0, -ROLLOUT_SUFFIX.length))
    .filter(isConversationId);
}

/** Newest activity first, from each file's head and tail only; unreadable files carry a `problem`. */
export function listConversations(paths: CodyPaths, options: { limit?: number } = {}): ConversationSummary[] {
  const ids = conversationIds(paths.conversationsDir);
  const summaries = summarizeConversations(
    paths.conversationsDir,
    ids,
    rolloutPathIn(paths.conversationsDir),
  );
  // ISO timestamps and UUIDv7 ids sort correctly as plain strings (and much faster than localeCompare),
  // compared field by field: no key string is built for any of a thousand conversations.
  summaries.sort((a, b) => descending(a.updatedAt, b.updatedAt) || descending(a.id, b.id));
  // Titles set with `cody rename` replace the generated ones (the cache was written before this: it keeps
  // the generated title, and a rename takes effect at once without touching it).
  const titles = readTitles(paths.home);
  if (titles.size > 0) for (const summary of summaries) applyTitle(summary, titles);
  return options.limit !== undefined ? summaries.slice(0, Math.max(0, options.limit)) : summaries;
}

/** The title set with `cody rename`, if any, over the generated one. */
export function applyTitle(summary: ConversationSummary, titles: ReadonlyMap<string, string>): void {
  const own = titles.get(summary.id);
  if (own !== undefined) summary.title = own;
}

function descending(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}

/** The most of the active file read: it holds one conversation id. */
const MAX_ACTIVE_FILE_BYTES = 4096;

/** The active conversation, if it still exists. */
export function readActiveId(paths: CodyPaths): string | undefined {
  let text: string;
  try {
    // One id; a FIFO or a device there is an error, never a hang.
    const file = readOwnFileSync(paths.activeFile, { maxBytes: MAX_ACTIVE_FILE_BYTES });
    if (!file) return undefined;
    text = file.bytes.toString('utf8').trim();
  } catch (error) {
    const message = error instanceof RefusedFileError ? error.problem : errorMessage(error);
    throw new StorageError(`Cannot read ${paths.activeFile}: ${message}`, { cause: error });
  }
  if (!isConversationId(text)) return undefined;
  return existsSync(rolloutPathIn(paths.conversationsDir)(text)) ? text : undefined;
}

/** The workspace of a directory: the nearest ancestor holding `.git` (symlinks resolved), else itself. */
export function workspaceOf(cwd: string): string {
  let real: string;
  try {
    real = realpathSync(cwd);
  } catch {
    real = cwd;
  }
  for (let current = real; ; current = dirname(current)) {
    if (existsSync(join(current, '.git'))) return current;
    if (dirname(current) === current) return real;
  }
}

/**
 * Whether a conversation started in `root` or below it; one whose directory was not recorded counts as
 * here (it cannot be placed elsewhere, and hiding it would lose it).
 */
export function isInWorkspace(summary: Pick<ConversationSummary, 'cwd'>, root: string): boolean {
  const cwd = summary.cwd;
  if (cwd === undefined) return true;
  return cwd === root || cwd.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

/** The current workspace's conversations first, each part keeping its order (newest first). */
export function workspaceFirst<T extends Pick<ConversationSummary, 'cwd'>>(
  summaries: readonly T[],
  root: string,
): T[] {
  const here: T[] = [];
  const elsewhere: T[] = [];
  for (const summary of summaries) (isInWorkspace(summary, root) ? here : elsewhere).push(summary);
  return [...here, ...elsewhere];
}
