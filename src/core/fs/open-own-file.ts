/**
 * Opening a file of Cody's own that is read in pieces (a rollout, which may be large): a regular file
 * only, opened without blocking (a FIFO never waits for a writer), the reads left to the caller, which
 * bounds them by the size fstat gives. Issue 36.5.
 */
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { isErrno } from '../errors.js';
import { kindOf, RefusedFileError } from './read-own-file.js';

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

function refused(path: string, error: unknown): RefusedFileError | unknown {
  return isErrno(error, 'ENXIO')
    ? new RefusedFileError(path, 'not-regular', 'is a socket, not a regular file')
    : error;
}

/** The open handle of a regular file; a `RefusedFileError` for anything else, the open's error when it fails. */
export async function openOwnFile(path: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (error) {
    throw refused(path, error);
  }
  const stats = await handle.stat().catch(async (error: unknown) => {
    await handle.close();
    throw error;
  });
  if (stats.isFile()) return handle;
  await handle.close();
  throw new RefusedFileError(path, 'not-regular', `is ${kindOf(stats)}, not a regular file`);
}

/** As {@link openOwnFile}, a descriptor. */
export function openOwnFileSync(path: string): number {
  let descriptor: number;
  try {
    descriptor = openSync(path, OPEN_FLAGS);
  } catch (error) {
    throw refused(path, error);
  }
  try {
    const stats = fstatSync(descriptor);
    if (stats.isFile()) return descriptor;
    throw new RefusedFileError(path, 'not-regular', `is ${kindOf(stats)}, not a regular file`);
  } catch (error) {
    closeSync(descriptor);
    throw error;
  }
}
