/**
 * The matches Tab lists under the prompt: every one, in columns that fit the terminal (as `ls` sets
 * them out), so none is cut at the right edge. Only a list longer than MAX_SHOWN ends with how many more
 * there are (a Tab in a large directory).
 */

const GAP = 2;
const MAX_SHOWN = 200;

/** The rows of the listing at this width: each no wider than `columns - 1`. */
export function completionRows(options: readonly string[], columns: number): string[] {
  const shown = options.slice(0, MAX_SHOWN);
  const room = Math.max(1, columns - 1);
  const cells = shown.map((option) => fit(option, room));
  const widest = Math.max(1, ...cells.map(width));
  const perRow = Math.max(1, Math.floor((room + GAP) / (widest + GAP)));
  const rowCount = Math.ceil(cells.length / perRow);
  const rows: string[] = [];
  // Column-major, as `ls` does: read down, then across.
  for (let row = 0; row < rowCount; row += 1) {
    const line: string[] = [];
    for (let column = 0; column < perRow; column += 1) {
      const cell = cells[column * rowCount + row];
      if (cell !== undefined) line.push(cell.padEnd(widest + cell.length - width(cell)));
    }
    rows.push(line.join(' '.repeat(GAP)).trimEnd());
  }
  if (options.length > shown.length)
    rows.push(`… ${options.length - shown.length} more: type more to narrow`);
  return rows;
}

function width(text: string): number {
  return [...text].length;
}

/** An option wider than the terminal (a long path) keeps its start and ends with `…`. */
function fit(option: string, room: number): string {
  const chars = [...option];
  return chars.length <= room ? option : `${chars.slice(0, Math.max(0, room - 1)).join('')}…`;
}
