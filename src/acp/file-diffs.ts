/**
 * The `diff` content of a file change ({path, oldText, newText}): each file a call may change is read
 * before it runs and again after. Only regular files inside the workspace (links resolved), up to 1 MiB of
 * UTF-8, are read: a path the model aims outside the workspace shows no text from there, even to the editor.
 */
import type { ToolCallContent } from '@agentclientprotocol/sdk';
import { open, realpath } from 'node:fs/promises';
import { constants } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import type { FileChange } from './tool-calls.js';

const MAX_DIFF_BYTES = 1024 * 1024;

/** The text of a file before a call ran, per change; `undefined`: absent or not shown. */
export interface FileSnapshot {
  change: FileChange;
  before: string | undefined;
}

/** Reads each changed file's text as it is now (before the call runs). */
export async function snapshotFiles(changes: readonly FileChange[], cwd: string): Promise<FileSnapshot[]> {
  return Promise.all(
    changes.map(async (change) => ({
      change,
      before: change.from === undefined ? undefined : await readInWorkspace(change.from, cwd),
    })),
  );
}

/** The diffs of the files that changed since their snapshot (after the call ran). */
export async function diffsSince(
  snapshots: readonly FileSnapshot[],
  cwd: string,
): Promise<ToolCallContent[]> {
  const diffs: ToolCallContent[] = [];
  for (const { change, before } of snapshots) {
    const path = change.to ?? change.from;
    if (path === undefined || !inWorkspace(path, cwd)) continue;
    const after = change.to === undefined ? undefined : await readInWorkspace(change.to, cwd);
    if (after === before) continue;
    diffs.push({
      type: 'diff',
      path: resolve(cwd, path),
      oldText: before ?? null,
      newText: after ?? '',
    });
  }
  return diffs;
}

function inWorkspace(path: string, root: string): boolean {
  const inside = relative(root, resolve(root, path));
  return inside === '' || (!inside.startsWith('..') && !isAbsolute(inside));
}

/** A regular file's UTF-8 text when it lies inside the workspace (after links); undefined otherwise. */
async function readInWorkspace(path: string, cwd: string): Promise<string | undefined> {
  try {
    const root = await realpath(cwd);
    const real = await realpath(resolve(cwd, path));
    if (!inWorkspace(real, root)) return undefined;
    // Non-blocking: a FIFO named like a file is never waited on.
    const handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const stat = await handle.stat();
      if (!stat.isFile() || stat.size > MAX_DIFF_BYTES) return undefined;
      const bytes = await handle.readFile();
      const decoded = new TextDecoder('utf-8', { fatal: true });
      return decoded.decode(bytes);
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}
