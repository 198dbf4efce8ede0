/**
 * Cody's own file changes go to the path that was checked, never through a link that appeared after the
 * check. `path` is physical (workspace.resolve: no link left in it); it is opened one directory at a
 * time from `/` without following a link, each child reached through the directory already held open
 * (Linux: /proc/self/fd/N/name, the kernel's openat), and the opened file or directory must still be at
 * `path` before anything is written. A component that became a link (or a non-directory) is refused.
 * Elsewhere (no /proc) the same walk goes by path and is confirmed afterwards by device and inode.
 */
import { constants, existsSync } from 'node:fs';
import { lstat, mkdir, open, readlink, rename, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK, O_CREAT, O_EXCL, O_WRONLY } = constants;

/** A path changed under Cody between the check and the write (or is not a plain file). */
export class UnsafePathError extends Error {
  readonly code = 'EUNSAFEPATH';
}

/** A directory held open, and the physical path it was reached as. */
interface Held {
  handle: FileHandle;
  path: string;
}

const viaProc = process.platform === 'linux' && existsSync('/proc/self/fd');

/** How a child of the held directory is named: through the open descriptor where the kernel allows. */
function childOf(directory: Held, name: string): string {
  return viaProc ? `/proc/self/fd/${directory.handle.fd}/${name}` : join(directory.path, name);
}

/** Whether the handle still stands for `path` (Linux: its current path; elsewhere: device and inode). */
async function stillAt(handle: FileHandle, path: string): Promise<boolean> {
  if (viaProc) return (await readlink(`/proc/self/fd/${handle.fd}`)) === path;
  const [held, named] = await Promise.all([handle.stat(), lstat(path).catch(() => undefined)]);
  return named !== undefined && held.dev === named.dev && held.ino === named.ino;
}

function refuse(path: string, why: string): UnsafePathError {
  return new UnsafePathError(`refused to change ${path}: ${why} (it changed after it was checked).`);
}

/** Opens the directory `path` without following a link anywhere in it; `create`: make what is missing. */
async function openDirectory(path: string, create: boolean): Promise<Held> {
  let held: Held = { handle: await open(sep, O_RDONLY | O_DIRECTORY), path: sep };
  try {
    for (const part of path.split(sep).filter((piece) => piece !== '')) {
      const next = join(held.path, part);
      const handle = await openNoFollowDirectory(childOf(held, part), next, create);
      await held.handle.close();
      held = { handle, path: next };
    }
    if (!(await stillAt(held.handle, path))) throw refuse(path, 'the directory moved');
    return held;
  } catch (error) {
    await held.handle.close().catch(() => undefined);
    throw error;
  }
}

async function openNoFollowDirectory(child: string, path: string, create: boolean): Promise<FileHandle> {
  const attempt = (): Promise<FileHandle> =>
    open(child, O_RDONLY | O_DIRECTORY | O_NOFOLLOW).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ELOOP' || error.code === 'ENOTDIR')
        throw refuse(path, 'it is a link or a file, not a directory');
      throw error;
    });
  try {
    return await attempt();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !create) throw error;
  }
  await mkdir(child).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  return attempt();
}

/** Runs `work` with the file's directory held open (`child`: how a name in it is reached). */
async function inDirectory<T>(
  path: string,
  create: boolean,
  work: (child: (name: string) => string, directory: Held) => Promise<T>,
): Promise<T> {
  const directory = await openDirectory(dirname(path), create);
  try {
    return await work((name) => childOf(directory, name), directory);
  } catch (error) {
    // Messages name the path, not the descriptor it was reached through.
    const shown = directory.path === sep ? sep : `${directory.path}${sep}`;
    if (error instanceof Error) error.message = error.message.replaceAll(childOf(directory, ''), shown);
    throw error;
  } finally {
    await directory.handle.close();
  }
}

/**
 * Opens the plain file at `path` (never a link, a FIFO or a device; missing directories made when
 * `flags` has O_CREAT) and confirms it is still at `path`.
 */
export async function openChecked(path: string, flags: number): Promise<FileHandle> {
  return inDirectory(path, (flags & O_CREAT) !== 0, async (child) => {
    let handle: FileHandle;
    try {
      handle = await open(child(basename(path)), flags | O_NOFOLLOW | O_NONBLOCK, 0o666);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw refuse(path, 'it is a link');
      throw error;
    }
    try {
      const stats = await handle.stat();
      if (stats.isDirectory()) throw Object.assign(new Error(`${path} is a directory.`), { code: 'EISDIR' });
      if (!stats.isFile()) throw new UnsafePathError(`refused to change ${path}: it is not a plain file.`);
      if (!(await stillAt(handle, path))) throw refuse(path, 'the file moved');
      return handle;
    } catch (error) {
      await handle.close();
      throw error;
    }
  });
}

/** The file's bytes, or undefined when it does not exist. */
export async function readChecked(path: string): Promise<Buffer | undefined> {
  let handle: FileHandle;
  try {
    handle = await openChecked(path, O_RDONLY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** Writes `content` into the file in place (created when missing, with its directories). */
export async function writeChecked(path: string, content: string | Buffer): Promise<void> {
  const handle = await openChecked(path, O_WRONLY | O_CREAT);
  try {
    await handle.truncate(0);
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}

/**
 * Replaces the file with `content` through a temporary file and a rename in the directory held open;
 * `mode`: the permissions to give it (an updated file keeps its own).
 */
export async function replaceChecked(path: string, content: string | Buffer, mode?: number): Promise<void> {
  await inDirectory(path, true, async (child, directory) => {
    const temporary = `${basename(path)}.cody-${process.pid}-${Date.now()}.tmp`;
    const handle = await open(child(temporary), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666);
    try {
      await handle.writeFile(content);
      if (mode !== undefined) await handle.chmod(mode & 0o7777);
    } finally {
      await handle.close();
    }
    if (!(await stillAt(directory.handle, directory.path))) {
      await unlink(child(temporary)).catch(() => undefined);
      throw refuse(path, 'the directory moved');
    }
    await rename(child(temporary), child(basename(path)));
  });
}

/** The permissions of the plain file at `path`, or undefined when there is none (a link is none). */
export async function modeChecked(path: string): Promise<number | undefined> {
  return inDirectory(path, false, async (child) => {
    const stats = await lstat(child(basename(path))).catch(() => undefined);
    return stats?.isFile() === true ? stats.mode : undefined;
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

/** Removes the directory entry at `path` (a link itself, never what it points to); false when missing. */
export async function removeChecked(path: string): Promise<boolean> {
  try {
    await inDirectory(path, false, (child) => unlink(child(basename(path))));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Removes the empty directory at `path`; throws when it is not empty, missing, or reached through a link. */
export async function removeDirectoryChecked(path: string): Promise<void> {
  await inDirectory(path, false, (child) => rmdir(child(basename(path))));
}
