/**
 * How wide text is on a terminal, grapheme by grapheme: a user-perceived character (Intl.Segmenter's
 * graphemes: an emoji with its ZWJ and variation selectors, a letter with its combining marks, a flag) is
 * never split, and takes the columns of its East Asian width (get-east-asian-width): wide and
 * emoji-presentation graphemes 2, combining marks and controls 0, the rest 1. Escape sequences take none.
 */
import type * as EastAsianWidth from 'get-east-asian-width';

/** CSI sequences (SGR colours, cursor moves) and OSC sequences (hyperlinks, titles). */
// eslint-disable-next-line no-control-regex
export const ESCAPE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

const EMOJI_PRESENTATION = /\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F|\u200D/u;
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}]/u;

let segmenter: Intl.Segmenter | undefined;
let eastAsianWidth: typeof EastAsianWidth.eastAsianWidth | undefined;

/** The graphemes of plain text, in order. */
export function graphemes(text: string): string[] {
  // Printable Latin-1 (ASCII, `·`, `é`, no controls) has one grapheme per character: none of it extends a
  // grapheme. Spares the banner's `·` the segmenter's first use (~8 ms at start-up, DECISIONS.md).
  if (/^[\x20-\x7e\xa0-\xff]*$/.test(text)) return text.split('');
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return Array.from(segmenter.segment(text), (part) => part.segment);
}

/** Columns of one grapheme. */
export function graphemeWidth(grapheme: string): number {
  const code = grapheme.codePointAt(0) ?? 0;
  if (code >= 0x20 && code < 0x7f) return 1;
  if (grapheme === '\t') return 4;
  if (EMOJI_PRESENTATION.test(grapheme)) return 2;
  if (ZERO_WIDTH.test(grapheme)) return 0;
  if (code < 0x1100) return 1;
  // Loaded on the first grapheme past U+10FF: most of Cody's lines never need the table.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  eastAsianWidth ??= (require('get-east-asian-width') as typeof EastAsianWidth).eastAsianWidth;
  return eastAsianWidth(code);
}

/** Columns of plain text (no escapes). */
export function plainWidth(text: string): number {
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let width = 0;
  for (const grapheme of graphemes(text)) width += graphemeWidth(grapheme);
  return width;
}

/** The text without its escape sequences. */
export const stripEscapes = (text: string): string => text.replace(ESCAPE, '');

/** Columns of text that may hold escape sequences (a coloured line). */
export const textWidth = (text: string): number => plainWidth(stripEscapes(text));

/**
 * Plain text cut to `width` columns on a grapheme boundary, with `…` in the last column when cut: for rows
 * that must stay one row (a live block's output tail, a picker's entry).
 */
export function truncateToWidth(text: string, width: number): string {
  if (plainWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const grapheme of graphemes(text)) {
    const columns = graphemeWidth(grapheme);
    if (used + columns > width - 1) break;
    out += grapheme;
    used += columns;
  }
  return `${out}…`;
}
