/**
 * Edits as a person reads them before approving: a patch as a unified diff with line numbers (never
 * the `*** Begin Patch` envelope), an `edit_file` call with the lines around it. Line numbers come from
 * the file as it is now (read from the working directory); a file that cannot be read gets none.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sanitizeForTerminal } from './sanitize.js';

export type ReadText = (path: string) => string | undefined;

/** Lines of context shown around an edit. */
const CONTEXT = 2;

export const readFromCwd: ReadText = (path) => {
  try {
    return readFileSync(resolve(process.cwd(), path), 'utf8');
  } catch {
    return undefined;
  }
};

const gutter = (width: number, number: number | undefined): string =>
  (number === undefined ? '' : String(number)).padStart(width);

/** Where `lines` first occur in `text` (a 1-based line number), or undefined. */
function lineOf(text: string | undefined, lines: string[]): number | undefined {
  if (text === undefined || lines.length === 0) return undefined;
  const all = text.split('\n');
  for (let start = 0; start + lines.length <= all.length; start += 1)
    if (lines.every((line, offset) => all[start + offset] === line)) return start + 1;
  return undefined;
}

interface Row {
  sign: ' ' | '-' | '+';
  text: string;
  number?: number;
}

function numbered(rows: Row[]): string[] {
  const width = Math.max(1, ...rows.map((row) => String(row.number ?? '').length));
  return rows.map((row) => sanitizeForTerminal(`${gutter(width, row.number)} ${row.sign} ${row.text}`));
}

/** One hunk's rows numbered from `oldStart` (old and context lines) and `newStart` (added lines). */
function hunkRows(lines: string[], oldStart: number | undefined, newStart: number | undefined): Row[] {
  let oldLine = oldStart;
  let newLine = newStart;
  return lines.map((line) => {
    const sign = line.startsWith('-') ? '-' : line.startsWith('+') ? '+' : ' ';
    const row: Row = { sign, text: line.slice(1) };
    if (sign === '+') {
      if (newLine !== undefined) row.number = newLine++;
    } else {
      if (oldLine !== undefined) row.number = oldLine++;
      if (sign === ' ' && newLine !== undefined) newLine++;
    }
    return row;
  });
}

/** A Codex-style patch as a unified diff: `--- a/p`, `+++ b/p`, `@@ -12,3 +12,4 @@`, numbered lines. */
export function patchDiff(patch: string, read: ReadText = readFromCwd): string[] {
  const out: string[] = [];
  let path = '';
  let text: string | undefined;
  let hunk: string[] = [];
  let shift = 0;
  let searchFrom = 0;
  const flush = (): void => {
    if (hunk.length === 0) return;
    const old = hunk.filter((line) => !line.startsWith('+')).map((line) => line.slice(1));
    const added = hunk.filter((line) => !line.startsWith('-')).length;
    const found = lineOf(text?.split('\n').slice(searchFrom).join('\n'), old);
    // A new file's lines are numbered from 1; nothing of the old one is shown.
    const oldStart =
      old.length === 0 && text === '' ? 0 : found === undefined ? undefined : found + searchFrom;
    if (oldStart !== undefined) searchFrom = oldStart - 1 + old.length;
    const newStart = oldStart === undefined ? undefined : oldStart === 0 ? 1 : oldStart + shift;
    out.push(
      oldStart === undefined || newStart === undefined
        ? '@@'
        : `@@ -${oldStart},${old.length} +${newStart},${added} @@`,
    );
    out.push(...numbered(hunkRows(hunk, oldStart, newStart)));
    shift += added - old.length;
    hunk = [];
  };
  for (const line of patch.split('\n')) {
    const header = /^\*\*\* (Update|Add|Delete) File: (.*)$/.exec(line);
    if (header) {
      flush();
      path = header[2] ?? '';
      text = header[1] === 'Update' ? read(path) : undefined;
      shift = 0;
      searchFrom = 0;
      const verb = header[1];
      out.push(sanitizeForTerminal(verb === 'Add' ? '--- /dev/null' : `--- a/${path}`));
      out.push(sanitizeForTerminal(verb === 'Delete' ? '+++ /dev/null' : `+++ b/${path}`));
      if (verb === 'Add') text = '';
      if (verb === 'Delete') out.push('(the file is deleted)');
      continue;
    }
    const move = /^\*\*\* Move to: (.*)$/.exec(line);
    if (move) {
      out.push(sanitizeForTerminal(`(moved to ${move[1] ?? ''})`));
      continue;
    }
    if (line.startsWith('***')) continue;
    if (line.startsWith('@@')) {
      flush();
      continue;
    }
    if (/^[-+ ]/.test(line)) hunk.push(line);
  }
  flush();
  return out;
}

/** An `edit_file` call: the lines it replaces and adds, numbered, with CONTEXT lines either side. */
export function editDiff(
  args: { path: string; old_text: string; new_text: string },
  read: ReadText = readFromCwd,
): string[] {
  const text = read(args.path);
  const oldLines = args.old_text.split('\n');
  const newLines = args.new_text.split('\n');
  const index = text === undefined ? -1 : text.indexOf(args.old_text);
  const header = [sanitizeForTerminal(`--- a/${args.path}`), sanitizeForTerminal(`+++ b/${args.path}`)];
  if (text === undefined || index < 0) {
    return [
      ...header,
      ...numbered([
        ...oldLines.map((line): Row => ({ sign: '-', text: line })),
        ...newLines.map((line): Row => ({ sign: '+', text: line })),
      ]),
    ];
  }
  const all = text.replace(/\n$/, '').split('\n');
  const start = text.slice(0, index).split('\n').length;
  const before = all.slice(Math.max(0, start - 1 - CONTEXT), start - 1);
  const lastOld = start + oldLines.length - 1;
  const after = all.slice(lastOld, lastOld + CONTEXT);
  const first = start - before.length;
  const rows: Row[] = [
    ...before.map((line, offset): Row => ({ sign: ' ', text: line, number: first + offset })),
    ...oldLines.map((line, offset): Row => ({ sign: '-', text: line, number: start + offset })),
    ...newLines.map((line, offset): Row => ({ sign: '+', text: line, number: start + offset })),
    ...after.map((line, offset): Row => ({
      sign: ' ',
      text: line,
      number: start + newLines.length + offset,
    })),
  ];
  const hunk = `@@ -${first},${before.length + oldLines.length + after.length} +${first},${before.length + newLines.length + after.length} @@`;
  return [...header, hunk, ...numbered(rows)];
}

/** A file's lines, without the empty one after its final newline. */
const linesOf = (text: string): string[] => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));

/**
 * A `write_file` call: a new file numbered from 1; a file it replaces as the lines that change (what
 * the two versions share at the start and the end left out but CONTEXT lines), numbered.
 */
export function writeDiff(args: { path: string; content: string }, read: ReadText = readFromCwd): string[] {
  const before = read(args.path);
  const after = linesOf(args.content);
  if (before === undefined) {
    const rows = after.map((line, offset): Row => ({ sign: '+', text: line, number: offset + 1 }));
    return [
      '--- /dev/null',
      sanitizeForTerminal(`+++ b/${args.path}`),
      `@@ -0,0 +1,${after.length} @@`,
      ...numbered(rows),
    ];
  }
  const old = linesOf(before);
  let head = 0;
  while (head < old.length && head < after.length && old[head] === after[head]) head += 1;
  let tail = 0;
  while (
    tail < old.length - head &&
    tail < after.length - head &&
    old[old.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail += 1;
  const first = Math.max(0, head - CONTEXT);
  const removed = old.slice(head, old.length - tail);
  const added = after.slice(head, after.length - tail);
  const trailing = old.slice(old.length - tail, old.length - tail + CONTEXT);
  const rows: Row[] = [
    ...old
      .slice(first, head)
      .map((line, offset): Row => ({ sign: ' ', text: line, number: first + offset + 1 })),
    ...removed.map((line, offset): Row => ({ sign: '-', text: line, number: head + offset + 1 })),
    ...added.map((line, offset): Row => ({ sign: '+', text: line, number: head + offset + 1 })),
    ...trailing.map((line, offset): Row => ({
      sign: ' ',
      text: line,
      number: head + added.length + offset + 1,
    })),
  ];
  const shared = head - first + trailing.length;
  const hunk = `@@ -${first + 1},${shared + removed.length} +${first + 1},${shared + added.length} @@`;
  const header = [sanitizeForTerminal(`--- a/${args.path}`), sanitizeForTerminal(`+++ b/${args.path}`)];
  return [...header, hunk, ...numbered(rows)];
}
