/** The file-system surface of the rollout recorder, small enough for tests to wrap. */
import { errorMessage } from '../errors.js';

/** The file-handle calls the recorder makes (node's `FileHandle` has them all). */
export interface RecorderFileHandle {
  write(
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<{ bytesWritten: number }>;
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  sync(): Promise<void>;
  truncate(length: number): Promise<void>;
  stat(): Promise<{ size: number }>;
  close(): Promise<void>;
}

/** The few file-system calls the recorder makes; tests wrap them to inject failures. */
export interface RecorderFileSystem {
  open(path: string, flags: string, mode?: number): Promise<RecorderFileHandle>;
  writeFile(path: string, data: Uint8Array, options: { mode: number; flag: string }): Promise<void>;
}

/** Rollouts may hold secrets the person pasted: owner-only. */
export const ROLLOUT_FILE_MODE = 0o600;

/** The reason a write failed, in words a person can act on. */
export function describeWriteError(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return 'the disk is full (free some space)';
    case 'EROFS':
      return 'the file system is read-only';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied (check the owner and mode of the file and of CODY_HOME)';
    case 'EEXIST':
      return 'the file already exists';
    case 'ENOENT':
      return 'the file or its directory does not exist';
    default:
      return errorMessage(error);
  }
}
