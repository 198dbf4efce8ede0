/** The file tools: read_file (numbered lines, paged), list_directory, grep, glob, write_file, edit_file. */
import { constants } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { z } from 'zod';
import { openChecked, readChecked } from './checked-files.js';
import { editorMayWrite, writeThroughEditor } from './editor-writes.js';
import { glob, grep } from './file-search.js';
import { readOwnFile, RefusedFileError, type OwnFile } from '../fs/index.js';
import { defineTool, failed, ok, type ToolHandler } from './handler.js';
import { guarded } from './protected-paths.js';
import type { Workspace } from './workspace.js';

/** Bytes of one file `read_file` reads at the most (it pages by lines within them). */
const READ_FILE_MAX_BYTES = 64 * 1024 * 1024;

/** Lines `read_file` returns when no limit is given. */
export const DEFAULT_READ_LINES = 2000;
/** Longest line `read_file` shows in full. */
const MAX_LINE_CHARS = 2000;
/** Lines of a preview shown before approving a write. */
const PREVIEW_LINES = 40;

const outsideOf = (workspace: Workspace, ...paths: string[]): string[] =>
  paths.map((path) => workspace.resolve(path)).filter((path) => !workspace.contains(path));

/**
 * The physical path a change goes to, resolved once: the approval decided on it, and the write goes
 * there (checked-files.ts), wherever a link in the path given points by then.
 */
export function resolvedOnce(path: string): (workspace: Workspace) => string {
  let resolved: string | undefined;
  return (workspace) => (resolved ??= workspace.resolve(path));
}

export const readFileTool = defineTool(
  'read_file',
  z.object({
    path: z.string().min(1),
    offset: z.number().int().min(1).optional(),
    limit: z.number().int().min(1).optional(),
  }),
  (args) => ({
    access: (workspace) => ({ kind: 'read', outside: outsideOf(workspace, args.path) }),
    run: async ({ workspace, editorFiles }) => {
      let file: OwnFile | undefined;
      const path = workspace.resolve(args.path);
      try {
        // A regular file only (a FIFO would hang the turn, a device never end), up to a cap.
        file = await readOwnFile(path, { maxBytes: READ_FILE_MAX_BYTES });
      } catch (error) {
        if (error instanceof RefusedFileError) return failed(`cannot read ${args.path}: ${error.message}`);
        throw error;
      }
      if (file === undefined) return failed(`no such file: ${args.path}`);
      // The file passed every check: the editor's buffer of it (unsaved edits included), when it has one.
      const buffer = await editorFiles?.readTextFile?.(path).catch(() => undefined);
      const text =
        buffer !== undefined && buffer.length <= READ_FILE_MAX_BYTES ? buffer : file.bytes.toString('utf8');
      const lines = text.split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      const offset = args.offset ?? 1;
      const limit = args.limit ?? DEFAULT_READ_LINES;
      if (offset > Math.max(1, lines.length))
        return failed(`offset ${offset} is past the end of ${args.path} (${lines.length} lines).`);
      const selected = lines.slice(offset - 1, offset - 1 + limit);
      const width = String(offset + selected.length - 1).length;
      const numbered = selected.map((line, index) => {
        const shown =
          line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}[… line truncated]` : line;
        return `${String(offset + index).padStart(Math.max(6, width))}\t${shown}`;
      });
      const rest = lines.length - (offset - 1 + selected.length);
      if (rest > 0) numbered.push(`[… ${rest} more lines; continue with offset=${offset + selected.length}]`);
      return ok(numbered.join('\n'));
    },
  }),
);

export const listDirectoryTool = defineTool(
  'list_directory',
  z.object({ path: z.string().optional() }),
  (args) => ({
    access: (workspace) => ({ kind: 'read', outside: outsideOf(workspace, args.path ?? '.') }),
    run: async ({ workspace }) => {
      const entries = await readdir(workspace.resolve(args.path ?? '.'), { withFileTypes: true });
      const names = entries.map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name)).sort();
      return ok(names.length === 0 ? '(empty directory)' : names.join('\n'));
    },
  }),
);

export const grepTool = defineTool(
  'grep',
  z.object({ pattern: z.string().min(1), path: z.string().optional(), glob: z.string().optional() }),
  (args) => ({
    access: (workspace) => ({ kind: 'read', outside: outsideOf(workspace, args.path ?? '.') }),
    run: async ({ workspace, rg, signal }) =>
      ok(
        await grep({
          pattern: args.pattern,
          searchPath: workspace.resolve(args.path ?? '.'),
          displayRoot: workspace.cwd,
          ...(args.glob !== undefined ? { glob: args.glob } : {}),
          ...(rg !== undefined ? { rg } : {}),
          ...(signal ? { signal } : {}),
        }),
      ),
  }),
);

export const globTool = defineTool(
  'glob',
  z.object({ pattern: z.string().min(1), path: z.string().optional() }),
  (args) => ({
    access: (workspace) => ({ kind: 'read', outside: outsideOf(workspace, args.path ?? '.') }),
    run: async ({ workspace }) =>
      ok(await glob(args.pattern, workspace.resolve(args.path ?? '.'), workspace.cwd)),
  }),
);

export const writeFileTool = defineTool(
  'write_file',
  z.object({ path: z.string().min(1), content: z.string() }),
  (args) => {
    const target = resolvedOnce(args.path);
    return {
      access: (workspace) => ({
        kind: 'write',
        outside: [target(workspace)].filter((path) => !workspace.contains(path)),
        summary: `write ${args.path} (${args.content.length} characters)`,
        ...guarded(workspace, [args.path]),
      }),
      preview: async (workspace) => {
        const before = await readOptional(target(workspace));
        return lineDiff(args.path, before, args.content);
      },
      run: async ({ workspace, editorFiles }) => {
        const path = target(workspace);
        await writeThroughEditor(path, args.content, editorFiles, editorMayWrite(workspace, args.path, path));
        return ok(`Wrote ${args.path}.`);
      },
    };
  },
);

export const editFileTool = defineTool(
  'edit_file',
  z.object({ path: z.string().min(1), old_text: z.string().min(1), new_text: z.string() }),
  (args) => {
    const target = resolvedOnce(args.path);
    return {
      access: (workspace) => ({
        kind: 'write',
        outside: [target(workspace)].filter((path) => !workspace.contains(path)),
        summary: `edit ${args.path}`,
        ...guarded(workspace, [args.path]),
      }),
      preview: () =>
        Promise.resolve(
          [`--- ${args.path}`, ...prefixed('-', args.old_text), ...prefixed('+', args.new_text)].join('\n'),
        ),
      check: async (workspace) => {
        const bytes = await readChecked(target(workspace)).catch((error: unknown) => {
          if ((error as NodeJS.ErrnoException).code === 'EISDIR') return `${args.path} is a directory`;
          throw error;
        });
        if (typeof bytes === 'string') return bytes;
        if (bytes === undefined) return `no such file: ${args.path}`;
        return occurrenceProblem(bytes.toString('utf8'), args.old_text, args.path);
      },
      run: async ({ workspace, editorFiles }) => {
        // Read and written through one descriptor, opened without following a link (or, when the editor
        // writes, read so and handed to it: editor-writes.ts).
        const handle = await openChecked(target(workspace), constants.O_RDWR);
        try {
          const text = await handle.readFile('utf8');
          const problem = occurrenceProblem(text, args.old_text, args.path);
          if (problem !== undefined) return failed(problem);
          const replaced = text.replace(args.old_text, () => args.new_text);
          const path = target(workspace);
          if (editorFiles?.writeTextFile && editorMayWrite(workspace, args.path, path)) {
            await handle.close();
            await writeThroughEditor(path, replaced, editorFiles, true);
            return ok(`Edited ${args.path}.`);
          }
          const updated = Buffer.from(replaced);
          await handle.truncate(0);
          await handle.write(updated, 0, updated.length, 0);
          return ok(`Edited ${args.path}.`);
        } finally {
          await handle.close();
        }
      },
    };
  },
);

export const FILE_TOOLS: Record<string, ToolHandler> = {
  read_file: readFileTool,
  list_directory: listDirectoryTool,
  grep: grepTool,
  glob: globTool,
  write_file: writeFileTool,
  edit_file: editFileTool,
};

/** Why `old_text` cannot be replaced in `text`: it must occur exactly once. */
function occurrenceProblem(text: string, oldText: string, path: string): string | undefined {
  const count = text.split(oldText).length - 1;
  if (count === 1) return undefined;
  return count === 0
    ? `old_text does not occur in ${path}; it must occur exactly once.`
    : `old_text occurs ${count} times in ${path}; it must occur exactly once (include more of the lines around it).`;
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

function prefixed(marker: string, text: string): string[] {
  const lines = text.split('\n');
  const shown = lines.slice(0, PREVIEW_LINES).map((line) => `${marker}${line}`);
  if (lines.length > PREVIEW_LINES) shown.push(`${marker}[… ${lines.length - PREVIEW_LINES} more lines]`);
  return shown;
}

/** A short preview of replacing a file: removed then added lines (whole-file, capped). */
function lineDiff(path: string, before: string | undefined, after: string): string {
  if (before === undefined) return [`+++ ${path} (new file)`, ...prefixed('+', after)].join('\n');
  return [`--- ${path}`, `+++ ${path}`, ...prefixed('-', before), ...prefixed('+', after)].join('\n');
}
