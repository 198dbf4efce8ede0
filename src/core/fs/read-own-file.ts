/**
 * Reading a file Cody opens on its own (project instructions, prompt commands, config, sign-in files,
 * images, its own state): only a regular file — a FIFO, device, socket or directory is refused without
 * blocking (opened O_NONBLOCK, then fstat) — inside `root` when one is given (links resolved, checked
 * again on the open descriptor where the system tells its path), and never more than `maxBytes` read,
 * whatever the size on disk claims (/proc files and growing files lie). Issue 36, item 5.
 */
import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync, realpathSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { open, readlink, realpath } from 'node:fs/promises';
import { relative, isAbsolute } from 'node:path';
import { CodyError, isErrno } from '../errors.js';

export interface ReadOwnFileOptions {
  /** The most bytes read: a longer file is refused or cut (`overLimit`). */
  maxBytes: number;
  /** The directory the file must stay inside once its links are resolved; none: anywhere. */
  root?: string;
  /** `refuse` (the default): a longer file is an error; `truncate`: its first `maxBytes` are returned. */
  overLimit?: 'refuse' | 'truncate';
}

export interface OwnFile {
  /** At most `maxBytes`. */
  bytes: Buffer;
  /** Whether the file went on past `maxBytes` (only with `overLimit: 'truncate'`). */
  truncated: boolean;
  /** The size fstat gave when it was opened. */
  size: number;
}

export type RefusalReason = 'not-regular' | 'outside-root' | 'too-large';

/** A file Cody will not read: `message` is `<path> <problem>`, one line for the person. */
export class RefusedFileError extends CodyError {
  constructor(
    readonly path: string,
    readonly reason: RefusalReason,
    readonly problem: string,
    /** The size on disk, when that is what was over the limit. */
    readonly size?: number,
  ) {
    super(`${path} ${problem}`, 'usage');
  }
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;
/** The first buffer when the size on disk is unknown or zero (a /proc file says 0). */
const FIRST_CHUNK = 64 * 1024;

function isInside(root: string, path: string): boolean {
  const rest = relative(root, path);
  return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest));
}

function outside(path: string, target: string, root: string): RefusedFileError {
  return new RefusedFileError(path, 'outside-root', `links to ${target}, outside ${root}`);
}

export function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isDirectory()) return 'a directory';
  return 'not a file';
}

function checkOpened(path: string, stats: Stats, options: ReadOwnFileOptions): void {
  if (!stats.isFile())
    throw new RefusedFileError(path, 'not-regular', `is ${kindOf(stats)}, not a regular file`);
  if ((options.overLimit ?? 'refuse') === 'refuse' && stats.size > options.maxBytes)
    throw tooLarge(path, options, stats.size);
}

function tooLarge(path: string, options: ReadOwnFileOptions, size?: number): RefusedFileError {
  return new RefusedFileError(
    path,
    'too-large',
    `is over the ${options.maxBytes.toLocaleString('en-US')}-byte limit`,
    size,
  );
}

/** What the open failed with: missing is undefined, a socket (ENXIO) or a swapped link is a refusal. */
function openFailure(path: string, error: unknown): undefined {
  if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return undefined;
  if (isErrno(error, 'ENXIO'))
    throw new RefusedFileError(path, 'not-regular', 'is a socket, not a regular file');
  if (isErrno(error, 'ELOOP'))
    throw new RefusedFileError(path, 'outside-root', 'is a link that changed while it was opened');
  throw error;
}

/** The buffer read so far, grown towards `limit` bytes. */
function grown(buffer: Buffer, length: number, limit: number): Buffer {
  const next = Buffer.alloc(Math.min(limit, Math.max(buffer.length * 2, FIRST_CHUNK)));
  buffer.copy(next, 0, 0, length);
  return next;
}

function finish(
  path: string,
  buffer: Buffer,
  length: number,
  size: number,
  options: ReadOwnFileOptions,
): OwnFile {
  if (length <= options.maxBytes) return { bytes: buffer.subarray(0, length), truncated: false, size };
  if ((options.overLimit ?? 'refuse') === 'refuse') throw tooLarge(path, options);
  return { bytes: buffer.subarray(0, options.maxBytes), truncated: true, size };
}

/** The descriptor's own path (Linux), to catch a directory swapped for a link between the check and the open. */
function checkDescriptorSync(path: string, fd: number, root: string): void {
  let actual: string;
  try {
    actual = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return;
  }
  if (!isInside(root, actual)) throw outside(path, actual, root);
}

/** Where to open `path`: its real path inside the root, or `path` itself without one; undefined when missing. */
function targetSync(path: string, root: string | undefined): string | undefined {
  if (root === undefined) return path;
  try {
    const real = realpathSync(path);
    if (!isInside(root, real)) throw outside(path, real, root);
    return real;
  } catch (error) {
    return openFailure(path, error);
  }
}

function realRootSync(root: string | undefined): string | undefined {
  if (root === undefined) return undefined;
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}

/** The file's bytes, or undefined when it does not exist; a `RefusedFileError` when it may not be read. */
export function readOwnFileSync(path: string, options: ReadOwnFileOptions): OwnFile | undefined {
  const root = realRootSync(options.root);
  const target = targetSync(path, root);
  if (target === undefined) return undefined;
  let fd: number;
  try {
    fd = openSync(target, OPEN_FLAGS | (root !== undefined ? constants.O_NOFOLLOW : 0));
  } catch (error) {
    return openFailure(path, error);
  }
  try {
    if (root !== undefined) checkDescriptorSync(path, fd, root);
    const stats = fstatSync(fd);
    checkOpened(path, stats, options);
    const limit = options.maxBytes + 1;
    let buffer: Buffer = Buffer.alloc(Math.min(limit, Math.max(stats.size + 1, 1)));
    let length = 0;
    while (length < limit) {
      if (length === buffer.length) buffer = grown(buffer, length, limit);
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    return finish(path, buffer, length, stats.size, options);
  } finally {
    closeSync(fd);
  }
}

async function realRoot(root: string | undefined): Promise<string | undefined> {
  if (root === undefined) return undefined;
  return realpath(root).catch(() => root);
}

async function target(path: string, root: string | undefined): Promise<string | undefined> {
  if (root === undefined) return path;
  try {
    const real = await realpath(path);
    if (!isInside(root, real)) throw outside(path, real, root);
    return real;
  } catch (error) {
    return openFailure(path, error);
  }
}

async function checkDescriptor(path: string, fd: number, root: string): Promise<void> {
  const actual = await readlink(`/proc/self/fd/${fd}`).catch(() => undefined);
  if (actual !== undefined && !isInside(root, actual)) throw outside(path, actual, root);
}

/** As {@link readOwnFileSync}, without holding up the event loop. */
export async function readOwnFile(path: string, options: ReadOwnFileOptions): Promise<OwnFile | undefined> {
  const root = await realRoot(options.root);
  const opened = await target(path, root);
  if (opened === undefined) return undefined;
  let handle;
  try {
    handle = await open(opened, OPEN_FLAGS | (root !== undefined ? constants.O_NOFOLLOW : 0));
  } catch (error) {
    return openFailure(path, error);
  }
  try {
    if (root !== undefined) await checkDescriptor(path, handle.fd, root);
    const stats = await handle.stat();
    checkOpened(path, stats, options);
    const limit = options.maxBytes + 1;
    let buffer: Buffer = Buffer.alloc(Math.min(limit, Math.max(stats.size + 1, 1)));
    let length = 0;
    while (length < limit) {
      if (length === buffer.length) buffer = grown(buffer, length, limit);
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return finish(path, buffer, length, stats.size, options);
  } finally {
    await handle.close();
  }
}
