/**
 * Styled text for the Markdown renderer: runs of text carrying their styles, measured on their displayed
 * width (East Asian wide characters count 2, combining marks 0), word-wrapped with a prefix per line, and
 * written out with every style opened and closed within the run, so each line ends with nothing left on.
 */
import type * as EastAsianWidth from 'get-east-asian-width';
import { breakOpportunities } from './layout/breaks.js';
import { graphemes, graphemeWidth } from './layout/width.js';

export interface Style {
  readonly open: string;
  readonly close: string;
}

const sgr = (on: number, off: number): Style => ({ open: `\u001b[${on}m`, close: `\u001b[${off}m` });

export const STYLES = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  italic: sgr(3, 23),
  underline: sgr(4, 24),
  strike: sgr(9, 29),
  cyan: sgr(36, 39),
  magenta: sgr(35, 39),
  green: sgr(32, 39),
  yellow: sgr(33, 39),
} as const;

/** Text with its styles; a run whose text is exactly '\n' is a hard line break. */
export interface Run {
  readonly text: string;
  readonly styles: readonly Style[];
}

export const run = (text: string, ...styles: Style[]): Run => ({ text, styles });
export const LINE_BREAK: Run = { text: '\n', styles: [] };

const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}]/u;

let eastAsianWidth: typeof EastAsianWidth.eastAsianWidth | undefined;

/** Columns of one code point that is not zero-width; the table is loaded on the first one past U+10FF. */
function codePointWidth(code: number): number {
  if (code < 0x1100) return 1;
  // Required on first use, like marked in markdown.ts: the REPL's prompt does not wait for it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  eastAsianWidth ??= (require('get-east-asian-width') as typeof EastAsianWidth).eastAsianWidth;
  return eastAsianWidth(code);
}

/** Columns a string occupies on a terminal (no escapes in it: runs hold plain text). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0xfe00 && code <= 0xfe0f) || ZERO_WIDTH.test(character)) continue;
    width += codePointWidth(code);
  }
  return width;
}

export const runsWidth = (runs: readonly Run[]): number =>
  runs.reduce((sum, piece) => sum + displayWidth(piece.text), 0);

const sameStyles = (a: readonly Style[], b: readonly Style[]): boolean =>
  a.length === b.length && a.every((style, index) => style === b[index]);

/** One line of runs as terminal text: each group of equally styled runs opens and closes its styles. */
export function serialize(runs: readonly Run[]): string {
  let out = '';
  let index = 0;
  while (index < runs.length) {
    const styles = runs[index]?.styles ?? [];
    let text = '';
    while (index < runs.length && sameStyles(runs[index]?.styles ?? [], styles)) {
      text += runs[index]?.text ?? '';
      index += 1;
    }
    if (text === '') continue;
    out += styles.map((style) => style.open).join('') + text;
    out += [...styles]
      .reverse()
      .map((style) => style.close)
      .join('');
  }
  return out;
}

interface Atom {
  kind: 'word' | 'space' | 'break';
  runs: Run[];
  width: number;
}

/**
 * Words (possibly spanning several styles, as `**bold**,`), the spaces between them, and hard breaks.
 * Where a line may break is the layout's decision (`layout/breaks.ts`, the Unicode rules): a break
 * between two ideographs is an empty space, and a space the rules do not break at (before `!`) is glue.
 */
function atomsOf(runs: readonly Run[], width: number): Atom[] {
  const atoms: Atom[] = [];
  let group: Run[] = [];
  const flush = (): void => {
    atoms.push(...groupAtoms(group, width));
    group = [];
  };
  for (const piece of runs) {
    if (piece.text !== '\n') group.push(piece);
    else {
      flush();
      atoms.push({ kind: 'break', runs: [], width: 0 });
    }
  }
  flush();
  return atoms;
}

/** The atoms of runs with no hard break; the rules are asked only when the text does not fit a line. */
function groupAtoms(runs: readonly Run[], width: number): Atom[] {
  const text = runs.map((piece) => piece.text.replace(/[\t\n]/g, ' ')).join('');
  const cuts = runsWidth(runs) <= width ? undefined : new Set(breakOpportunities(text));
  const atoms: Atom[] = [];
  let offset = 0;
  const addWord = (part: string, styles: readonly Style[]): void => {
    const last = atoms.at(-1);
    const breaks = cuts === undefined ? last?.kind === 'space' : cuts.has(offset);
    // A space the rules do not break at joins the words on either side; at the start it is left out.
    if (last?.kind === 'space' && !breaks && atoms.at(-2)?.kind === 'word') last.kind = 'word';
    if (last?.kind === 'word' && breaks) atoms.push({ kind: 'space', runs: [], width: 0 });
    const before = atoms.at(-1);
    const before2 = atoms.at(-2);
    if (before?.kind === 'word' && before2?.kind === 'word') {
      atoms.pop();
      before2.runs.push(...before.runs);
      before2.width += before.width;
    }
    const target = atoms.at(-1);
    if (target?.kind === 'word') {
      target.runs.push({ text: part, styles });
      target.width += displayWidth(part);
    } else atoms.push({ kind: 'word', runs: [{ text: part, styles }], width: displayWidth(part) });
  };
  for (const piece of runs) {
    for (const part of piece.text.replace(/[\t\n]/g, ' ').split(/(\s+)/)) {
      if (part === '') continue;
      const last = atoms.at(-1);
      // Spaces of several runs (a code span of one space) are one gap, written whole or not at all.
      if (/^\s/.test(part) && last?.kind === 'space') {
        last.runs.push({ text: part, styles: piece.styles });
        last.width += displayWidth(part);
      } else if (/^\s/.test(part))
        atoms.push({
          kind: 'space',
          runs: [{ text: part, styles: piece.styles }],
          width: displayWidth(part),
        });
      else {
        // A word cut where the rules allow inside it (between ideographs, after a hyphen).
        const start = offset;
        const inner = [...(cuts ?? [])].filter((at) => at > start && at < start + part.length);
        let from = start;
        for (const cut of [...inner.sort((x, y) => x - y), start + part.length]) {
          offset = from;
          addWord(part.slice(from - start, cut - start), piece.styles);
          from = cut;
        }
        offset = start;
      }
      offset += part.length;
    }
  }
  return atoms;
}

/** Cuts a word wider than a whole line into pieces of at most `width` columns, between graphemes. */
function splitWord(word: Atom, width: number): Atom[] {
  const pieces: Atom[] = [];
  let current: Atom = { kind: 'word', runs: [], width: 0 };
  for (const piece of word.runs) {
    for (const character of graphemes(piece.text)) {
      const characterWidth = graphemeWidth(character);
      if (current.width + characterWidth > width && current.width > 0) {
        pieces.push(current);
        current = { kind: 'word', runs: [], width: 0 };
      }
      current.runs.push({ text: character, styles: piece.styles });
      current.width += characterWidth;
    }
  }
  if (current.width > 0) pieces.push(current);
  return pieces;
}

export interface WrapOptions {
  /** Columns for the whole line, prefix included. */
  width: number;
  /** Before the first line (a list marker, a quote bar, an indent). */
  first: readonly Run[];
  /** Before every continuation line (the same indent, without the marker). */
  rest: readonly Run[];
}

/** Word-wraps runs on spaces; a word wider than a line is cut. Returns lines as runs, prefixes included. */
export function wrapRuns(runs: readonly Run[], options: WrapOptions): Run[][] {
  const lines: Run[][] = [];
  let line: Run[] = [...options.first];
  let used = runsWidth(options.first);
  // A deep indent on a narrow terminal still leaves some room for the text.
  const limitAfter = (prefix: number): number =>
    prefix > 0 ? Math.max(options.width, prefix + 10) : options.width;
  let limit = limitAfter(used);
  let empty = true;
  let space: Atom | undefined;
  const newLine = (): void => {
    lines.push(line);
    line = [...options.rest];
    used = runsWidth(options.rest);
    limit = limitAfter(used);
    empty = true;
    space = undefined;
  };
  const place = (word: Atom): void => {
    const gap = !empty && space ? space.width : 0;
    if (!empty && used + gap + word.width > limit) newLine();
    if (!empty && space) line.push(...space.runs);
    if (!empty && space) used += space.width;
    line.push(...word.runs);
    used += word.width;
    empty = false;
    space = undefined;
  };
  const room = Math.max(1, limit - Math.max(used, runsWidth(options.rest)));
  for (const atom of atomsOf(runs, room)) {
    if (atom.kind === 'break') newLine();
    else if (atom.kind === 'space') space = empty ? undefined : atom;
    else if (atom.width <= room) place(atom);
    else for (const piece of splitWord(atom, room)) place(piece);
  }
  lines.push(line);
  return lines;
}

/** Plain text of runs (no styles): what a cell or a line says. */
export const plainText = (runs: readonly Run[]): string => runs.map((piece) => piece.text).join('');
