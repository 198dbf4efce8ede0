/**
 * The workspace's `.cody/hooks.json`, read the way Cody reads its own files: a regular file inside the
 * workspace (not a FIFO, a device or a symlink out of it), at most MAX_PROJECT_HOOKS_BYTES, opened
 * without blocking. Its SHA-256 is what trust is recorded against.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  type Stats,
} from 'node:fs';
import { join, sep } from 'node:path';
import { forbiddenKeyPath } from '../config/index.js';
import { hookEntries, parseProjectHooks, type HookEntry } from './hook-config.js';

export const MAX_PROJECT_HOOKS_BYTES = 256 * 1024;

export const PROJECT_HOOKS_PATH = join('.cody', 'hooks.json');

/** A read project hooks file: its path, content hash and entries, or why it cannot be used. */
export type ProjectHooksFile =
  | { kind: 'none' }
  | { kind: 'invalid'; path: string; why: string }
  | { kind: 'read'; path: string; sha256: string; entries: HookEntry[] };

/** What identifies a version of the file without reading it (the per-turn check is one stat). */
export function fileStamp(stats: Stats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

/** The stamp of the file at `path`, or undefined when there is none (one lstat). */
export function stampOf(path: string): string | undefined {
  try {
    return fileStamp(lstatSync(path));
  } catch {
    return undefined;
  }
}

export function readProjectHooks(root: string): ProjectHooksFile {
  const path = join(root, PROJECT_HOOKS_PATH);
  let fd: number;
  try {
    // The directory may be a symlink: wherever it points must still be inside the workspace.
    const directory = realpathSync(join(root, '.cody'));
    if (directory !== root && !directory.startsWith(root.endsWith(sep) ? root : root + sep))
      return { kind: 'invalid', path, why: '.cody points outside the workspace' };
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'none' };
    if (code === 'ELOOP') return { kind: 'invalid', path, why: 'it is a symbolic link' };
    return { kind: 'invalid', path, why: (error as Error).message };
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { kind: 'invalid', path, why: 'it is not a regular file' };
    if (stats.size > MAX_PROJECT_HOOKS_BYTES)
      return { kind: 'invalid', path, why: `it is over ${MAX_PROJECT_HOOKS_BYTES} bytes` };
    const buffer = Buffer.alloc(MAX_PROJECT_HOOKS_BYTES + 1);
    let length = 0;
    for (let read = 1; read > 0 && length <= MAX_PROJECT_HOOKS_BYTES; length += read)
      read = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > MAX_PROJECT_HOOKS_BYTES)
      return { kind: 'invalid', path, why: `it is over ${MAX_PROJECT_HOOKS_BYTES} bytes` };
    const bytes = buffer.subarray(0, length);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    return { kind: 'read', path, sha256, entries: parseEntries(bytes.toString('utf8')) };
  } catch (error) {
    return {
      kind: 'invalid',
      path,
      why: error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error),
    };
  } finally {
    closeSync(fd);
  }
}

function parseEntries(text: string): HookEntry[] {
  const raw: unknown = JSON.parse(text);
  const forbidden = forbiddenKeyPath(raw);
  if (forbidden !== undefined) throw new Error(`it has a key Cody refuses (${forbidden})`);
  return hookEntries(parseProjectHooks(raw), 'project');
}
