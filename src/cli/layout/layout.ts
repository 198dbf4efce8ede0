/**
 * The one layout for every line Cody writes on a terminal: text (plain, or coloured with SGR escapes) is
 * broken between words where the Unicode rules allow (`breaks.ts`), each continuation line starts with the
 * hanging indent of its block, a grapheme is never split, and a token wider than a whole line (a long URL)
 * is cut only where it must. Styles open at a break are closed at the end of the row and opened again
 * after the indent, so every row stands alone (a redraw or a scrollback never bleeds colour).
 */
import { breakOpportunities } from './breaks.js';
import { ESCAPE, graphemes, graphemeWidth, plainWidth, textWidth } from './width.js';

export interface LayoutOptions {
  /** Columns of the terminal: no row is wider. */
  width: number;
  /** Before the first row (a marker, an indent; may be coloured). Default none. */
  indent?: string;
  /** Before every following row. Default: spaces as wide as `indent`. */
  hangingIndent?: string;
}

interface Parsed {
  plain: string;
  escapes: Array<{ at: number; sequence: string }>;
}

interface Row {
  start: number;
  end: number;
}

const RESET = '\u001b[0m';

function parse(text: string): Parsed {
  const escapes: Parsed['escapes'] = [];
  let plain = '';
  let last = 0;
  for (const match of text.matchAll(ESCAPE)) {
    plain += text.slice(last, match.index);
    escapes.push({ at: plain.length, sequence: match[0] });
    last = match.index + match[0].length;
  }
  return { plain: plain + text.slice(last), escapes };
}

// eslint-disable-next-line no-control-regex
const SGR = /^\u001b\[([\d;]*)m$/;

/** The SGR sequences still in force after `sequence`, given those before it. */
function track(active: string[], sequence: string): string[] {
  const params = SGR.exec(sequence)?.[1];
  if (params === undefined) return active;
  if (params === '' || params === '0') return [];
  // A closing code (22 bold/dim, 23 italic, 24 underline, 27 inverse, 29 strike, 39/49 colours) ends the
  // openings it pairs with; anything else opens.
  const closes: Record<string, RegExp> = {
    '22': /^(1|2)$/,
    '23': /^3$/,
    '24': /^4$/,
    '27': /^7$/,
    '28': /^8$/,
    '29': /^9$/,
    '39': /^(3\d|9\d|38;.*)$/,
    '49': /^(4\d|10\d|48;.*)$/,
  };
  const closing = closes[params];
  if (closing === undefined) return [...active, sequence];
  return active.filter((open) => !closing.test(SGR.exec(open)?.[1] ?? ''));
}

/** A prefix that leaves at least half the row for text; a deeper one is dropped on a narrow terminal. */
const usable = (prefix: string, width: number): string => (textWidth(prefix) * 2 <= width ? prefix : '');

/** Rows (plain offsets, trailing spaces left out) of one line of plain text, greedily filled. */
function rowsOf(plain: string, firstRoom: number, restRoom: number): Row[] {
  const rows: Row[] = [];
  let room = firstRoom;
  let start = 0;
  let end = 0;
  let used = 0;
  const finish = (next: number): void => {
    rows.push({ start, end });
    start = next;
    end = next;
    used = 0;
    room = restRoom;
  };
  const cuts = plainWidth(plain) <= firstRoom ? [] : breakOpportunities(plain);
  let from = 0;
  for (const to of [...cuts, plain.length]) {
    const unit = plain.slice(from, to);
    const content = unit.trimEnd();
    const contentWidth = plainWidth(content);
    if (used > 0 && used + contentWidth > room) finish(from);
    if (contentWidth > room) {
      // Wider than a whole row: cut between graphemes, only where the row is full.
      let at = from;
      for (const grapheme of graphemes(content)) {
        const columns = graphemeWidth(grapheme);
        if (used > 0 && used + columns > room) finish(at);
        used += columns;
        at += grapheme.length;
        end = at;
      }
      used += plainWidth(unit) - contentWidth;
    } else {
      used += plainWidth(unit);
      end = from + content.length;
    }
    from = to;
  }
  rows.push({ start, end });
  return rows;
}

/** Lays out text (one paragraph; a `\n` in it starts a new row with the hanging indent) at a width. */
export function layoutLines(text: string, options: LayoutOptions): string[] {
  const width = Math.max(1, Math.floor(options.width));
  const indent = usable(options.indent ?? '', width);
  const hanging = usable(options.hangingIndent ?? ' '.repeat(textWidth(indent)), width);
  const out: string[] = [];
  let active: string[] = [];
  text
    .replace(/\t/g, '    ')
    .split('\n')
    .forEach((line, lineIndex) => {
      const { plain, escapes } = parse(line);
      const first = lineIndex === 0 ? indent : hanging;
      const rows = rowsOf(plain, width - textWidth(first), width - textWidth(hanging));
      let next = 0;
      rows.forEach((row, index) => {
        const reopen = active.join('');
        let body = '';
        const until = rows[index + 1]?.start ?? Number.POSITIVE_INFINITY;
        let at = row.start;
        for (; next < escapes.length && (escapes[next]?.at ?? 0) < until; next += 1) {
          const escape = escapes[next];
          if (escape === undefined) continue;
          const position = Math.min(Math.max(escape.at, row.start), row.end);
          body += plain.slice(at, position) + escape.sequence;
          at = position;
          active = track(active, escape.sequence);
        }
        body += plain.slice(at, row.end);
        const prefix = index === 0 ? first : hanging;
        out.push(`${reopen}${prefix}${body}${active.length > 0 && index < rows.length - 1 ? RESET : ''}`);
      });
    });
  return out;
}

/**
 * The hanging indent of a line of Cody's own output, read from how it starts: its leading spaces, then
 * a one-character marker and its space (`⚠ `, `✓ `, `? `, `› `) as spaces, or an output bar (`  │ `) kept;
 * two spaces for a line that starts with neither.
 */
export function hangingIndentOf(line: string): string {
  const plain = line.replace(ESCAPE, '');
  const bar = /^\s*│ /.exec(plain);
  if (bar) return bar[0];
  const marked = /^(\s*)(?:([^\s\w]) )?/u.exec(plain);
  const lead = marked?.[1] ?? '';
  const marker = marked?.[2];
  if (marker !== undefined) return lead + ' '.repeat(plainWidth(marker) + 1);
  // A line of its own (a status line, an error) continues two columns in.
  return lead === '' ? '  ' : lead;
}

/**
 * Text of several lines (each ending in `\n` or not), each laid out with the hanging indent it starts
 * with (`hangingIndentOf`), or `hanging` when given; keeps a final line end.
 */
export function layoutBlock(text: string, width: number, hanging?: string): string {
  const ends = text.endsWith('\n');
  const lines = (ends ? text.slice(0, -1) : text).split('\n');
  const laid = lines.flatMap((line) =>
    layoutLines(line, { width, hangingIndent: hanging ?? hangingIndentOf(line) }),
  );
  return `${laid.join('\n')}${ends ? '\n' : ''}`;
}

/**
 * Items on rows (approval choices, a list of names): each item stays whole on one row when it fits one,
 * `gap` between items on a row, every row starting with `indent`.
 */
export function layoutItems(
  items: readonly string[],
  options: { width: number; indent: string; gap: string },
): string[] {
  const rows: string[] = [];
  const indent = usable(options.indent, options.width);
  const room = options.width - textWidth(indent);
  let row = '';
  for (const item of items) {
    const joined = row === '' ? item : `${row}${options.gap}${item}`;
    if (textWidth(joined) <= room) {
      row = joined;
      continue;
    }
    if (row !== '') rows.push(`${indent}${row}`);
    row = item;
    if (textWidth(item) > room) {
      rows.push(...layoutLines(item, { width: options.width, indent, hangingIndent: `${indent}  ` }));
      row = '';
    }
  }
  if (row !== '') rows.push(`${indent}${row}`);
  return rows;
}

/**
 * Text laid out as a two-column list (`/help`: `  /model NAME  what it does`): each line's continuation
 * rows start under its second column (after the first run of two or more spaces past its label), or
 * under its text when it has no label.
 */
export function layoutColumns(text: string, width: number): string {
  return text
    .split('\n')
    .map((line) => {
      const column = /^\s*\S+(?: \S+)*? {2,}|^[^\s:]+: |^\s+/.exec(line.replace(ESCAPE, ''))?.[0].length ?? 0;
      return layoutLines(line, { width, hangingIndent: ' '.repeat(column) }).join('\n');
    })
    .join('\n');
}
