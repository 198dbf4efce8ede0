/**
 * A file change written through the editor (`cody acp` with a client that offers `fs/write_text_file`), so
 * it tracks it. The editor follows links in a path, so it gets only a path Cody resolved to a physical
 * one inside the workspace (no link in it) and, just before, found to be an existing plain file reached
 * without a link (checked-files.ts). Anything else — a new file, a link, a FIFO, an editor that refuses
 * — is Cody's own checked write. The runtime's undo snapshot is taken before either.
 */
import { constants } from 'node:fs';
import { resolve } from 'node:path';
import { openChecked, writeChecked } from './checked-files.js';
import type { EditorFiles } from './handler.js';
import type { Workspace } from './workspace.js';

/**
 * Whether the change of `given` (the path the model named) may go through the editor: its physical
 * path `target` is inside the workspace and is the path as named (no link was followed to reach it).
 */
export function editorMayWrite(workspace: Workspace, given: string, target: string): boolean {
  return workspace.contains(target) && resolve(workspace.cwd, given) === target;
}

export async function writeThroughEditor(
  path: string,
  content: string,
  editorFiles: EditorFiles | undefined,
  mayUseEditor: boolean,
): Promise<void> {
  const write = mayUseEditor ? editorFiles?.writeTextFile : undefined;
  if (write) {
    const handle = await openChecked(path, constants.O_RDONLY).catch(() => undefined);
    if (handle) {
      try {
        await write(path, content);
        return;
      } catch {
        // The editor could not write it: Cody writes it itself, below.
      } finally {
        await handle.close();
      }
    }
  }
  await writeChecked(path, content);
}
