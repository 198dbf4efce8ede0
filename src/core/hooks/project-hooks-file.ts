/**
 * The workspace's `.cody/hooks.json`, read the way Cody reads its own files (readOwnFile): a regular file
 * inside the workspace (not a FIFO, a device or a link out of it), at most MAX_PROJECT_HOOKS_BYTES, opened
 * without blocking. Its SHA-256 is what trust is recorded against.
 */
import { createHash } from 'node:crypto';
import { lstatSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { readOwnFileSync, RefusedFileError } from '../fs/index.js';
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
  try {
    // A regular file inside the workspace (links resolved), at most MAX_PROJECT_HOOKS_BYTES, never blocking.
    const file = readOwnFileSync(path, { maxBytes: MAX_PROJECT_HOOKS_BYTES, root });
    if (!file) return { kind: 'none' };
    const sha256 = createHash('sha256').update(file.bytes).digest('hex');
    return { kind: 'read', path, sha256, entries: parseEntries(file.bytes.toString('utf8')) };
  } catch (error) {
    if (error instanceof RefusedFileError) return { kind: 'invalid', path, why: error.problem };
    const message = error instanceof Error ? error.message : String(error);
    return { kind: 'invalid', path, why: message.split('\n')[0] ?? message };
  }
}

function parseEntries(text: string): HookEntry[] {
  const raw: unknown = JSON.parse(text);
  const forbidden = forbiddenKeyPath(raw);
  if (forbidden !== undefined) throw new Error(`it has a key Cody refuses (${forbidden})`);
  return hookEntries(parseProjectHooks(raw), 'project');
}
