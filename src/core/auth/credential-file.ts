/**
 * Reading, locking and rewriting a credential file that belongs to someone else (Codex's auth.json,
 * Claude Code's .credentials.json) or to Cody ($CODY_HOME/auth.json): parsed as JSON objects, rewritten
 * atomically (temp file 0600, fsync, rename, fsync of the directory) under a lock shared by every Cody
 * process, so a concurrent refresh never leaves a torn or stale file and every unknown field survives.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import lockfile from 'proper-lockfile';
import { privateLockFs } from '../config/index.js';
import { isRecord, type JsonObject } from '../../protocol/index.js';
import { CodyError, type ErrorHint, errorMessage } from '../errors.js';
import { readOwnFile, RefusedFileError } from '../fs/index.js';

/** The largest credential file read: real ones are a few KB (tokens and a little metadata). */
export const MAX_CREDENTIAL_FILE_BYTES = 1024 * 1024;

/** A credential file that is missing, unreadable or not the JSON object it should be. */
/** What to do about a bad credential file: words, and the front end's hint (a command to run). */
export type CredentialFix = string | { text: string; hint: ErrorHint; hintSubject?: string };

export class CredentialFileError extends CodyError {
  readonly file: string;
  constructor(file: string, problem: string, fix: CredentialFix) {
    super(
      `${file} ${problem}. ${typeof fix === 'string' ? fix : fix.text}`,
      'auth',
      typeof fix === 'string'
        ? undefined
        : { hint: fix.hint, ...(fix.hintSubject !== undefined ? { hintSubject: fix.hintSubject } : {}) },
    );
    this.name = 'CredentialFileError';
    this.file = file;
  }
}

/** The file's JSON object, or `undefined` when it does not exist; `fix` says what to do otherwise. */
export async function readJsonObject(file: string, fix: CredentialFix): Promise<JsonObject | undefined> {
  let text: string;
  try {
    // Outside any workspace on purpose (Codex's and Claude Code's own files), and a link may lead
    // anywhere: but only to a regular file, read up to the cap (a FIFO or /dev/zero used to hang).
    const read = await readOwnFile(file, { maxBytes: MAX_CREDENTIAL_FILE_BYTES });
    if (!read) return undefined;
    text = read.bytes.toString('utf8');
  } catch (error) {
    if (error instanceof RefusedFileError) throw new CredentialFileError(file, error.problem, fix);
    throw new CredentialFileError(file, `cannot be read (${errorMessage(error)})`, fix);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The parser's message may quote the file's content, which holds secrets: never repeat it.
    throw new CredentialFileError(file, 'is not valid JSON', fix);
  }
  if (!isRecord(parsed)) throw new CredentialFileError(file, 'does not hold a JSON object', fix);
  return parsed;
}

/** Writes `value` to `file` atomically with mode 0600: a reader sees the old file or the new one, whole. */
export async function writeJsonAtomically(file: string, value: JsonObject): Promise<void> {
  const directory = dirname(file);
  const temporary = join(
    directory,
    `.${basename(file)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(value, null, 2)}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw new CodyError(`Cannot write ${file}: ${errorMessage(error)}`, 'storage', { cause: error });
  }
  await syncDirectory(directory);
}

async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some file systems cannot fsync a directory; the rename itself is still atomic.
  }
}

/** How long another process may hold a credential file's lock before it counts as abandoned. */
const LOCK_STALE_MS = 10_000;

/**
 * Runs `work` while holding `<file>.lock` (an atomic mkdir, proper-lockfile), waiting up to ~15 s for
 * another process's refresh to finish. The directory must exist (it is created 0700 when missing).
 */
export async function withFileLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(file, {
      realpath: false,
      stale: LOCK_STALE_MS,
      update: LOCK_STALE_MS / 2,
      retries: { retries: 150, minTimeout: 20, maxTimeout: 100, factor: 1.2 },
      fs: privateLockFs,
      onCompromised: () => undefined,
    });
  } catch (error) {
    throw new CodyError(`Cannot lock ${file}: ${errorMessage(error)}`, 'storage', { cause: error });
  }
  try {
    return await work();
  } finally {
    await release().catch(() => undefined);
  }
}
