/**
 * Conversation titles: set by `rename`, otherwise generated from the first message. Kept in one small file
 * (`$CODY_HOME/titles.json`, mode 0600) so listing reads one file, not one per conversation, and renaming
 * never rewrites an append-only rollout.
 */
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage, StorageError, UsageError } from '../errors.js';
import { readOwnFileSync } from '../fs/index.js';

const TITLES_FILE = 'titles.json';
/** The longest title a rename sets (the list shows far less; this keeps titles.json small). */
export const MAX_TITLE_LENGTH = 200;
/** The largest titles.json read: ~50,000 conversations' titles; a larger one is no titles. */
export const MAX_TITLES_FILE_BYTES = 16 * 1024 * 1024;

export function titlesPath(home: string): string {
  return join(home, TITLES_FILE);
}

/** id → title; a missing or unreadable file is no titles (titles are a convenience, never a blocker). */
export function readTitles(home: string): Map<string, string> {
  try {
    const file = readOwnFileSync(titlesPath(home), { maxBytes: MAX_TITLES_FILE_BYTES });
    const parsed: unknown = JSON.parse(file?.bytes.toString('utf8') ?? '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return new Map();
    return new Map(
      Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  } catch {
    return new Map();
  }
}

/** The title as given, or a usage error when it is too long or carries control characters. */
export function checkTitle(title: string): string {
  if (title.length > MAX_TITLE_LENGTH)
    throw new UsageError(`A title is at most ${MAX_TITLE_LENGTH} characters.`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(title))
    throw new UsageError('A title cannot contain control characters.');
  return title;
}

/** Sets (or, with an empty title, removes) a conversation's title; written atomically. */
export async function writeTitle(home: string, id: string, title: string): Promise<void> {
  const titles = readTitles(home);
  const clean = title.replace(/\s+/g, ' ').trim();
  if (clean === '') titles.delete(id);
  else titles.set(id, clean);
  const path = titlesPath(home);
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(Object.fromEntries(titles), null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, path);
  } catch (error) {
    throw new StorageError(`Cannot write ${path}: ${errorMessage(error)}`, { cause: error });
  }
}

export { generateTitle } from '../rollout/index.js';
