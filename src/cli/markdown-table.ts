/**
 * A Markdown table laid out for the terminal, measured on displayed width (no `**`, backticks or escapes
 * counted; wide characters count 2). It is printed as is when it fits; otherwise its columns are narrowed
 * and cells wrap on word boundaries; when even the longest word of each column cannot fit, each row
 * becomes a list item (`• header: cell`).
 */
import type { Tokens } from 'marked';
import { inlineRuns } from './markdown-inline.js';
import { displayWidth, run, runsWidth, STYLES, wrapRuns, type Run } from './markdown-text.js';

const SEPARATOR = '  │  ';
const CROSSING = '──┼──';
/** A column is never narrowed below this many columns (unless its content is narrower). */
const MIN_COLUMN = 6;

type Align = 'left' | 'right' | 'center' | null;

const longestWord = (runs: readonly Run[]): number =>
  Math.max(0, ...runs.flatMap((piece) => piece.text.split(/\s+/).map((word) => displayWidth(word))));

/** Widths that fit `room`: every column gets its minimum, then the rest goes to the widest wants. */
function fitWidths(natural: number[], minimum: number[], room: number): number[] {
  const widths = minimum.slice();
  let spare = room - widths.reduce((sum, width) => sum + width, 0);
  while (spare > 0) {
    let best = -1;
    for (let index = 0; index < widths.length; index += 1) {
      const want = (natural[index] ?? 0) - (widths[index] ?? 0);
      if (want > 0 && (best < 0 || want > (natural[best] ?? 0) - (widths[best] ?? 0))) best = index;
    }
    if (best < 0) break;
    widths[best] = (widths[best] ?? 0) + 1;
    spare -= 1;
  }
  return widths;
}

function pad(line: readonly Run[], width: number, align: Align): Run[] {
  const gap = Math.max(0, width - runsWidth(line));
  const left = align === 'right' ? gap : align === 'center' ? Math.floor(gap / 2) : 0;
  return [run(' '.repeat(left)), ...line, run(' '.repeat(gap - left))];
}

function asList(header: Run[][], rows: Run[][][], width: number): Run[][] {
  const lines: Run[][] = [];
  for (const row of rows) {
    row.forEach((cell, index) => {
      const label = header[index] ?? [];
      const first = index === 0 ? [run('•', STYLES.cyan), run(' ')] : [run('  ')];
      const content =
        label.length > 0 ? [...label.map((piece) => run(piece.text, STYLES.bold)), run(': '), ...cell] : cell;
      lines.push(...wrapRuns(content, { width, first, rest: [run('    ')] }));
    });
  }
  return lines;
}

/** The table's rows, at most `width` columns wide unless a single word is wider. */
export function renderTable(table: Tokens.Table, width: number): Run[][] {
  const header = table.header.map((cell) => inlineRuns(cell.tokens, [STYLES.bold]));
  const rows = table.rows.map((row) => row.map((cell) => inlineRuns(cell.tokens)));
  const columns = Math.max(header.length, ...rows.map((row) => row.length));
  const all = [header, ...rows];
  const natural: number[] = [];
  const minimum: number[] = [];
  for (let index = 0; index < columns; index += 1) {
    const cells = all.map((row) => row[index] ?? []);
    const lineWidths = cells.flatMap((cell) =>
      wrapRuns(cell, { width: Number.MAX_SAFE_INTEGER, first: [], rest: [] }).map(runsWidth),
    );
    natural[index] = Math.max(1, ...lineWidths);
    minimum[index] = Math.min(natural[index] ?? 1, Math.max(MIN_COLUMN, ...cells.map(longestWord)));
  }
  const room = width - displayWidth(SEPARATOR) * (columns - 1);
  if (minimum.reduce((sum, column) => sum + column, 0) > room) return asList(header, rows, width);
  const widths = fitWidths(natural, minimum, room);
  const align = (index: number): Align => (table.align[index] ?? null) as Align;
  const lines: Run[][] = [];
  all.forEach((row, rowIndex) => {
    const cellLines = widths.map((columnWidth, index) =>
      wrapRuns(row[index] ?? [], { width: columnWidth, first: [], rest: [] }),
    );
    const height = Math.max(...cellLines.map((cell) => cell.length));
    for (let lineIndex = 0; lineIndex < height; lineIndex += 1) {
      const parts = widths.map((columnWidth, index) =>
        pad(cellLines[index]?.[lineIndex] ?? [], columnWidth, align(index)),
      );
      lines.push(
        parts.flatMap((part, index) => (index === 0 ? part : [run(SEPARATOR, STYLES.dim), ...part])),
      );
    }
    if (rowIndex === 0) lines.push([run(widths.map((w) => '─'.repeat(w)).join(CROSSING), STYLES.dim)]);
  });
  return lines;
}
