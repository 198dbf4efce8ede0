/**
 * Where a conversation's live channel listens: `<CODY_HOME>/live/<id>.sock`, in a directory only this user
 * can enter (0700). A Unix socket's path must fit `sun_path` (108 bytes with its NUL on Linux, 104 on
 * macOS): a longer one goes under the system's temporary directory instead, in a directory named by a hash
 * of the home, so every process of one home agrees on it and no two homes share one.
 */
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Bytes a socket path may take (macOS's 104 less its NUL: the shorter of the two). */
export const MAX_SOCKET_PATH_BYTES = 103;

const LIVE_DIRECTORY_MODE = 0o700;
export const SOCKET_SUFFIX = '.sock';

export interface LiveSocket {
  /** The directory the socket lives in (watched for publishers appearing). */
  dir: string;
  /** The socket's path. */
  path: string;
}

/** The live channel's directory of a home: `<home>/live`, or the short one when that is too long. */
export function liveDirectory(home: string, sampleId: string): string {
  const dir = join(home, 'live');
  const path = join(dir, `${sampleId}${SOCKET_SUFFIX}`);
  if (Buffer.byteLength(path) <= MAX_SOCKET_PATH_BYTES) return dir;
  const hash = createHash('sha256').update(home).digest('hex').slice(0, 16);
  return join(tmpdir(), `cody-live-${hash}`);
}

/** The socket of one conversation; undefined when even the short path is too long for a socket. */
export function liveSocket(home: string, conversationId: string): LiveSocket | undefined {
  const dir = liveDirectory(home, conversationId);
  const path = join(dir, `${conversationId}${SOCKET_SUFFIX}`);
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH_BYTES ? { dir, path } : undefined;
}

/**
 * Creates the directory (0700) if needed and checks it is this user's own and private: a directory
 * under /tmp someone else made first could hand our events to them. False when it cannot be used.
 */
export function ensurePrivateDirectory(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: LIVE_DIRECTORY_MODE });
    const info = lstatSync(dir);
    if (!info.isDirectory()) return false;
    if (typeof process.getuid === 'function' && info.uid !== process.getuid()) return false;
    if ((info.mode & 0o777) !== LIVE_DIRECTORY_MODE) chmodSync(dir, LIVE_DIRECTORY_MODE);
    return true;
  } catch {
    return false;
  }
}
