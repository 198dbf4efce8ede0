/**
 * Parser for Codex's patch format: a `*** Begin Patch` … `*** End Patch` envelope of file operations
 * (`*** Add File:`, `*** Delete File:`, `*** Update File:` with an optional `*** Move to:` and hunks of
 * context/removed/added lines introduced by `@@`). Errors name the line that is wrong.
 */

export interface PatchChunk {
  /** Text after `@@ ` (a line to find before the chunk's lines), when given. */
  anchor?: string;
  /** Lines the file must contain here (context and removed lines, in order). */
  oldLines: string[];
  /** What replaces them (context and added lines, in order). */
  newLines: string[];
  /** For each new line: the index of the old line it repeats (context), or -1 for an added line. */
  contextOf: number[];
  /** `*** End of File`: the chunk must match at the end of the file. */
  atEnd: boolean;
}

export type PatchOperation =
  | { kind: 'add'; path: string; content: string }
  | { kind: 'delete'; path: string }
  | { kind: 'update'; path: string; moveTo?: string; chunks: PatchChunk[] };

export class PatchError extends Error {}

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const END_OF_FILE = '*** End of File';

export function parsePatch(input: string): PatchOperation[] {
  const lines = unwrapHeredoc(input.trim())
    .split('\n')
    .map((line) => line.replace(/\r$/, ''));
  if (lines[0]?.trim() !== BEGIN) throw new PatchError(`The patch must start with '${BEGIN}'.`);
  const last = lines.length - 1;
  if (lines[last]?.trim() !== END) throw new PatchError(`The patch must end with '${END}'.`);
  const operations: PatchOperation[] = [];
  let index = 1;
  // Any '*** ' line ends a file's body; an unknown one is then reported as such.
  const isHeader = (line: string | undefined): boolean =>
    line !== undefined && line.startsWith('*** ') && line.trim() !== END_OF_FILE;
  while (index < last) {
    const line = lines[index] ?? '';
    if (line.startsWith(ADD)) {
      const path = pathOf(line, ADD, index);
      index += 1;
      const content: string[] = [];
      while (index < last && !isHeader(lines[index])) {
        const body = lines[index] ?? '';
        if (!body.startsWith('+'))
          throw new PatchError(
            `Line ${index + 1}: every line of an added file must start with '+' (in ${path}).`,
          );
        content.push(body.slice(1));
        index += 1;
      }
      operations.push({ kind: 'add', path, content: content.length === 0 ? '' : `${content.join('\n')}\n` });
    } else if (line.startsWith(DELETE)) {
      operations.push({ kind: 'delete', path: pathOf(line, DELETE, index) });
      index += 1;
    } else if (line.startsWith(UPDATE)) {
      const path = pathOf(line, UPDATE, index);
      index += 1;
      let moveTo: string | undefined;
      if (lines[index]?.startsWith(MOVE)) {
        moveTo = pathOf(lines[index] ?? '', MOVE, index);
        index += 1;
      }
      const chunks: PatchChunk[] = [];
      while (index < last && !isHeader(lines[index])) {
        const parsed = parseChunk(lines, index, last, chunks.length === 0, isHeader);
        chunks.push(parsed.chunk);
        index = parsed.next;
      }
      if (chunks.length === 0 && moveTo === undefined)
        throw new PatchError(`Line ${index}: '*** Update File: ${path}' has no hunks.`);
      operations.push({ kind: 'update', path, ...(moveTo !== undefined ? { moveTo } : {}), chunks });
    } else if (line.trim() === '') {
      index += 1;
    } else {
      throw new PatchError(
        `Line ${index + 1}: expected '*** Add File:', '*** Delete File:' or '*** Update File:', got '${line}'.`,
      );
    }
  }
  if (operations.length === 0) throw new PatchError('The patch changes no files.');
  return operations;
}

function parseChunk(
  lines: readonly string[],
  start: number,
  last: number,
  first: boolean,
  isHeader: (line: string | undefined) => boolean,
): { chunk: PatchChunk; next: number } {
  let index = start;
  const header = lines[index] ?? '';
  let anchor: string | undefined;
  if (header === '@@' || header.startsWith('@@ ')) {
    const text = header.slice(2).trim();
    if (text !== '') anchor = text;
    index += 1;
  } else if (!first) {
    throw new PatchError(`Line ${index + 1}: expected '@@' to start the next hunk, got '${header}'.`);
  }
  const chunk: PatchChunk = {
    oldLines: [],
    newLines: [],
    contextOf: [],
    atEnd: false,
    ...(anchor !== undefined ? { anchor } : {}),
  };
  let body = 0;
  while (index < last && !isHeader(lines[index])) {
    const line = lines[index] ?? '';
    if (line === '@@' || line.startsWith('@@ ')) break;
    if (line.trim() === END_OF_FILE) {
      chunk.atEnd = true;
      index += 1;
      break;
    }
    const marker = line[0];
    const text = line.slice(1);
    if (line === '' || marker === ' ') {
      chunk.contextOf.push(chunk.oldLines.length);
      chunk.oldLines.push(text);
      chunk.newLines.push(text);
    } else if (marker === '-') chunk.oldLines.push(text);
    else if (marker === '+') {
      chunk.contextOf.push(-1);
      chunk.newLines.push(text);
    } else
      throw new PatchError(`Line ${index + 1}: a hunk line must start with ' ', '-' or '+', got '${line}'.`);
    body += 1;
    index += 1;
  }
  if (body === 0) throw new PatchError(`Line ${start + 1}: empty hunk.`);
  return { chunk, next: index };
}

function pathOf(line: string, prefix: string, index: number): string {
  const path = line.slice(prefix.length).trim();
  if (path === '') throw new PatchError(`Line ${index + 1}: '${prefix.trim()}' needs a path.`);
  return path;
}

/** Accepts the `apply_patch <<'EOF' … EOF` form models sometimes send as the whole input. */
function unwrapHeredoc(text: string): string {
  const match = /^(?:apply_patch\s+)?<<\s*['"]?(\w+)['"]?\n([\s\S]*)\n\1$/.exec(text);
  return match?.[2]?.trim() ?? text;
}
