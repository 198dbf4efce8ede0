/**
 * The API token of `cody serve`: `$CODY_HOME/serve-token`, 256 random bits, mode 0600, made on the first
 * start (the caller prints it once). Compared in constant time.
 */
import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import { chmod, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage, isErrno, StorageError } from '../core/index.js';

export const TOKEN_FILE_NAME = 'serve-token';
const TOKEN_FILE_MODE = 0o600;
/** 32 bytes: as strong as any key it guards. */
const TOKEN_BYTES = 32;

export interface ServeToken {
  token: string;
  path: string;
  /** True when this start generated the token (print it once). */
  created: boolean;
}

export async function loadOrCreateToken(home: string): Promise<ServeToken> {
  const path = join(home, TOKEN_FILE_NAME);
  const existing = await readToken(path);
  if (existing !== undefined) return { token: existing, path, created: false };
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  try {
    // 'wx': two servers starting at once never overwrite each other's token.
    const handle = await open(path, 'wx', TOKEN_FILE_MODE);
    try {
      await handle.writeFile(`${token}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (isErrno(error, 'EEXIST')) {
      const raced = await readToken(path);
      if (raced !== undefined) return { token: raced, path, created: false };
    }
    throw new StorageError(`Cannot write ${path}: ${errorMessage(error)}`, { cause: error });
  }
  return { token, path, created: true };
}

async function readToken(path: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    throw new StorageError(`Cannot read ${path}: ${errorMessage(error)}`, { cause: error });
  }
  // A token file someone loosened is tightened again: it is a password.
  await chmod(path, TOKEN_FILE_MODE).catch(() => undefined);
  const token = text.trim();
  return token === '' ? undefined : token;
}

/**
 * A check of `Authorization` headers against the token that leaks neither its length nor a prefix by
 * timing: both sides are compared as SHA-256 digests, the token's made once here, not per request.
 */
export function tokenCheck(token: string): (header: string | undefined) => boolean {
  const expected = digest(token);
  return (header) => {
    if (header === undefined) return false;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1]) return false;
    return timingSafeEqual(digest(match[1]), expected);
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
