/**
 * Applies a Codex-format patch all or nothing: every operation is checked and computed in memory first
 * (context found, files present or absent as needed); only then are files written, each through a
 * temporary file and a rename, and a failure while writing restores what was already changed. Files
 * are read and written at the physical paths `resolvePath` gave, never through a link (checked-files).
 */
import { modeChecked, readChecked, removeChecked, replaceChecked } from '../checked-files.js';
import { PatchError, parsePatch, type PatchChunk, type PatchOperation } from './parse-patch.js';

export { PatchError, parsePatch, type PatchOperation } from './parse-patch.js';

export interface ApplyPatchResult {
  /** One line per file, Codex-style (`A path`, `M path`, `D path`). */
  summary: string[];
}

/** A file's planned end state: content, or absent (`undefined`). */
interface Planned {
  path: string;
  before: Buffer | undefined;
  after: string | undefined;
}

/** Paths (as written in the patch) every operation touches, move destinations included. */
export function patchPaths(operations: readonly PatchOperation[]): string[] {
  return operations.flatMap((operation) =>
    operation.kind === 'update' && operation.moveTo !== undefined
      ? [operation.path, operation.moveTo]
      : [operation.path],
  );
}

export async function applyPatch(
  input: string,
  resolvePath: (path: string) => string,
): Promise<ApplyPatchResult> {
  const { plan, summary } = await planPatch(input, resolvePath);
  await commit(plan);
  return { summary };
}

/**
 * The dry run: reads the files and checks that every operation applies (throws the PatchError that
 * applying would), writing nothing.
 */
export async function checkPatch(input: string, resolvePath: (path: string) => string): Promise<void> {
  await planPatch(input, resolvePath);
}

/** Every operation checked and computed in memory: each file's end state, and the summary lines. */
async function planPatch(
  input: string,
  resolvePath: (path: string) => string,
): Promise<{ plan: Planned[]; summary: string[] }> {
  const operations = parsePatch(input);
  const plan = new Map<string, Planned>();
  const summary: string[] = [];
  const current = async (path: string): Promise<Buffer | undefined> => {
    const planned = plan.get(path);
    if (planned) return planned.after === undefined ? undefined : Buffer.from(planned.after);
    return readOptional(path);
  };
  const setAfter = async (path: string, after: string | undefined): Promise<void> => {
    const existing = plan.get(path);
    plan.set(path, { path, before: existing ? existing.before : await readOptional(path), after });
  };
  for (const operation of operations) {
    const path = resolvePath(operation.path);
    const content = await current(path);
    switch (operation.kind) {
      case 'add':
        if (content !== undefined)
          throw new PatchError(`Cannot add ${operation.path}: the file already exists.`);
        await setAfter(path, operation.content);
        summary.push(`A ${operation.path}`);
        break;
      case 'delete':
        if (content === undefined) throw new PatchError(`Cannot delete ${operation.path}: no such file.`);
        await setAfter(path, undefined);
        summary.push(`D ${operation.path}`);
        break;
      case 'update': {
        if (content === undefined) throw new PatchError(`Cannot update ${operation.path}: no such file.`);
        const updated = applyChunks(content.toString('utf8'), operation.chunks, operation.path);
        if (operation.moveTo !== undefined) {
          const destination = resolvePath(operation.moveTo);
          if (destination !== path && (await current(destination)) !== undefined)
            throw new PatchError(
              `Cannot move ${operation.path} to ${operation.moveTo}: the destination exists.`,
            );
          await setAfter(path, undefined);
          await setAfter(destination, updated);
          summary.push(`M ${operation.moveTo}`);
        } else {
          await setAfter(path, updated);
          summary.push(`M ${operation.path}`);
        }
        break;
      }
      default: {
        const exhaustive: never = operation;
        throw new Error(`unknown patch operation ${JSON.stringify(exhaustive)}`);
      }
    }
  }
  return { plan: [...plan.values()], summary };
}

/** Replaces each chunk's old lines with its new lines, searching forward from the previous chunk. */
export function applyChunks(text: string, chunks: readonly PatchChunk[], displayPath: string): string {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const replacements: Array<{ start: number; length: number; lines: string[] }> = [];
  let cursor = 0;
  for (const chunk of chunks) {
    if (chunk.anchor !== undefined) {
      const found = seek(lines, [chunk.anchor], cursor, false);
      if (found < 0) throw new PatchError(`Context not found in ${displayPath}: '@@ ${chunk.anchor}'.`);
      cursor = found + 1;
    }
    if (chunk.oldLines.length === 0) {
      replacements.push({
        start: chunk.atEnd ? lines.length : cursor === 0 ? lines.length : cursor,
        length: 0,
        lines: chunk.newLines,
      });
      continue;
    }
    let oldLines = chunk.oldLines;
    let newLines = chunk.newLines;
    let found = seek(lines, oldLines, cursor, chunk.atEnd);
    if (found < 0 && oldLines[oldLines.length - 1] === '') {
      // A trailing blank context line often stands for the file's final newline.
      oldLines = oldLines.slice(0, -1);
      newLines = newLines[newLines.length - 1] === '' ? newLines.slice(0, -1) : newLines;
      found = seek(lines, oldLines, cursor, chunk.atEnd);
    }
    if (found < 0)
      throw new PatchError(
        `Context not found in ${displayPath}: the lines\n${chunk.oldLines.map((line) => `  ${line}`).join('\n')}\nare not in the file${cursor > 0 ? ` after line ${cursor}` : ''}.`,
      );
    // Context lines keep the file's own text (whitespace included), not the patch's copy.
    const start = found;
    const kept = newLines.map((line, index) => {
      const old = chunk.contextOf[index] ?? -1;
      return old >= 0 && old < oldLines.length ? (lines[start + old] ?? line) : line;
    });
    replacements.push({ start, length: oldLines.length, lines: kept });
    cursor = found + oldLines.length;
  }
  for (const replacement of [...replacements].sort((a, b) => b.start - a.start))
    lines.splice(replacement.start, replacement.length, ...replacement.lines);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** Index where `pattern` occurs at or after `from`: exact first, then ignoring trailing, then all surrounding whitespace. */
function seek(lines: readonly string[], pattern: readonly string[], from: number, atEnd: boolean): number {
  const normalisers: Array<(line: string) => string> = [
    (line) => line,
    (line) => line.trimEnd(),
    (line) => line.trim(),
  ];
  for (const normalise of normalisers) {
    const want = pattern.map(normalise);
    const matches = (start: number): boolean =>
      want.every((line, offset) => normalise(lines[start + offset] ?? '\u0000') === line);
    if (atEnd) {
      const start = lines.length - pattern.length;
      if (start >= from && matches(start)) return start;
      continue;
    }
    for (let start = from; start + pattern.length <= lines.length; start += 1)
      if (matches(start)) return start;
  }
  return -1;
}

async function readOptional(path: string): Promise<Buffer | undefined> {
  try {
    return await readChecked(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EISDIR') throw new PatchError(`${path} is a directory.`);
    throw error;
  }
}

/** Writes the plan; if any step fails, puts back every file already changed and rethrows. */
async function commit(plan: readonly Planned[]): Promise<void> {
  const done: Planned[] = [];
  try {
    for (const entry of plan) {
      if (entry.after === undefined) {
        if (entry.before !== undefined && !(await removeChecked(entry.path)))
          throw new Error(`${entry.path} disappeared`);
      } else {
        // An updated file keeps its permissions (an executable script stays executable).
        const mode = entry.before !== undefined ? await modeChecked(entry.path) : undefined;
        await replaceChecked(entry.path, entry.after, mode);
      }
      done.push(entry);
    }
  } catch (error) {
    for (const entry of done.reverse()) {
      if (entry.before === undefined) await removeChecked(entry.path).catch(() => undefined);
      else await replaceChecked(entry.path, entry.before).catch(() => undefined);
    }
    throw new PatchError(`Writing the patch failed, nothing was changed: ${(error as Error).message}`);
  }
}
