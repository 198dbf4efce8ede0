/**
 * The layout of text that arrives in pieces and is written as it comes (the model's thinking): a word is
 * written once it is complete (a break may follow it), on the row where the whole paragraph's layout
 * puts it, so nothing already written moves. Spaces are written only before the next word on the same
 * row: a space at the last column would wrap the terminal's cursor. Past `maxRows` rows the rest is
 * counted, not written.
 */
import { breakOpportunities } from './breaks.js';
import { graphemes, graphemeWidth, plainWidth } from './width.js';

export interface StreamLayout {
  /** More plain text; returns what to write now (complete words, with their line ends and indents). */
  push(text: string): string;
  /** The text is over: returns the rest to write (the last word, if it is within the rows). */
  end(): string;
  /** Words placed after the text, even past the rows (a note on what was left out). */
  note(text: string): string;
  /** Characters not written because they fell past `maxRows`. */
  readonly hidden: number;
}

export function createStreamLayout(options: {
  width: () => number;
  /** Columns taken on the first row before the text (a marker already written). */
  indentWidth: number;
  hangingIndent: string;
  maxRows?: number;
}): StreamLayout {
  let pending = '';
  let spaces = '';
  let used = options.indentWidth;
  let rows = 1;
  let hidden = 0;
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  const room = (): number => Math.max(1, options.width());
  const newRow = (): string => {
    rows += 1;
    used = plainWidth(options.hangingIndent);
    spaces = '';
    return `\n${options.hangingIndent}`;
  };
  /** Writes one unit (a word and the spaces after it); `always` places it even past the rows. */
  const place = (unit: string, always: boolean): string => {
    const content = unit.trimEnd();
    const width = plainWidth(content);
    let out = '';
    if (rows > maxRows && !always) {
      hidden += [...unit].length;
      return '';
    }
    if (used > plainWidth(options.hangingIndent) && used + plainWidth(spaces) + width > room()) {
      if (rows >= maxRows && !always) {
        rows += 1;
        hidden += [...unit].length;
        return '';
      }
      out += newRow();
    }
    out += spaces;
    used += plainWidth(spaces);
    for (const grapheme of graphemes(content)) {
      const columns = graphemeWidth(grapheme);
      if (used + columns > room() && used > plainWidth(options.hangingIndent)) out += newRow();
      out += grapheme;
      used += columns;
    }
    spaces = unit.slice(content.length);
    return out;
  };
  const units = (text: string): string[] => {
    const cuts = breakOpportunities(text);
    return [0, ...cuts].map((from, index) => text.slice(from, cuts[index] ?? text.length));
  };
  return {
    push(text) {
      pending += text;
      const all = units(pending);
      pending = all.pop() ?? '';
      return all.map((unit) => place(unit, false)).join('');
    },
    end() {
      const last = pending;
      pending = '';
      return last === '' ? '' : place(last, false);
    },
    note(text) {
      if (spaces === '' && used > options.indentWidth) spaces = ' ';
      return units(text)
        .map((unit) => place(unit, true))
        .join('');
    },
    get hidden() {
      return hidden;
    },
  };
}
