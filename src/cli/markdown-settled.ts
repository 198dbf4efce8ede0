/**
 * What of a streaming block can be shown for good: the part whose rendering no later text can change.
 * A line still arriving is cut after its last whole word (the word being typed may still grow, or turn
 * into something else); then the block is cut before the word holding the first delimiter that may still
 * open something (`**`, `_`, `~~`, a backtick, `[`, `<`): until its closer comes, nobody can tell whether
 * it is emphasis, code or a link, or plain text. Held back, not guessed: what is on screen is never taken
 * back (DECISIONS.md).
 */
import type { Lexer, Token } from 'marked';
import { breakOpportunities } from './layout/breaks.js';
import type { Run } from './markdown-text.js';

/** A line still arriving, up to the end of its last whole word (empty when it has none yet). */
export function settledWords(line: string): string {
  const lastSpace = Math.max(line.lastIndexOf(' '), line.lastIndexOf('\t'));
  return lastSpace < 0 ? '' : line.slice(0, lastSpace).trimEnd();
}

const SPACE = /\s/;
const ALPHANUMERIC = /[\p{L}\p{N}]/u;

/** Where the word holding `at` starts: text is held back a whole word at a time. */
function wordStart(source: string, at: number): number {
  let start = at;
  while (start > 0 && !SPACE.test(source[start - 1] ?? ' ')) start -= 1;
  return start;
}

/** The end of the `[` at `at`'s matching `]`, or -1. */
function closingBracket(source: string, at: number): number {
  let depth = 0;
  for (let index = at; index < source.length; index += 1) {
    if (source[index] === '\\') index += 1;
    else if (source[index] === '[') depth += 1;
    else if (source[index] === ']' && --depth === 0) return index;
  }
  return -1;
}

/** Whether a `[` may still become a link or an image: unclosed, or closed with its target still to come. */
function openBracket(source: string, at: number): boolean {
  const close = closingBracket(source, at);
  if (close < 0) return true;
  const after = source[close + 1];
  return after === undefined || after === '(' || after === '[';
}

/**
 * Whether the character at `at` (in text marked left as text) may still open something: a delimiter run
 * that a later closer could pair with, an unclosed backtick, a bracket or an angle bracket.
 */
function mayOpen(source: string, at: number, inline: boolean): boolean {
  const character = source[at] ?? '';
  if (character === '`') return true;
  if (character === '[') return openBracket(source, at);
  if (character === '<') return /^<[A-Za-z/!?]/.test(source.slice(at)) && !source.includes('>', at);
  if (!inline || !'*_~'.includes(character)) return false;
  if (source[at - 1] === character) return false;
  let end = at;
  while (source[end] === character) end += 1;
  const next = source[end];
  if (next === undefined || SPACE.test(next)) return false;
  // `~/path` is a home directory far more often than the start of a strikethrough.
  if (character === '~' && next === '/') return false;
  return character !== '_' || !ALPHANUMERIC.test(source[at - 1] ?? ' ');
}

/** The first position in a text token (at `offset` in `source`) that may still open something. */
function openerIn(token: Token, source: string, offset: number, inline: boolean): number | undefined {
  if (token.type === 'text' || token.type === 'html') {
    for (let index = 0; index < token.raw.length; index += 1) {
      if (token.raw[index] === '\\') index += 1;
      else if (mayOpen(source, offset + index, inline)) {
        const at = offset + index;
        return source[at - 1] === '!' && source[at] === '[' ? at - 1 : at;
      }
    }
    return undefined;
  }
  // Inside a closed span only what outranks emphasis (code, links, tags) could still re-pair: the
  // span's own delimiters were settled when it closed.
  const children = 'tokens' in token && Array.isArray(token.tokens) ? (token.tokens as Token[]) : [];
  let at = offset;
  for (const child of children) {
    if (openerIn(child, token.raw, at - offset, false) !== undefined) return offset;
    at += child.raw.length;
  }
  return undefined;
}

/** The first list of inline tokens in a block's tree (a paragraph's, a heading's, a list item's text). */
function inlineTokens(tokens: readonly Token[]): Token[] | undefined {
  for (const token of tokens) {
    if (token.type === 'paragraph' || token.type === 'heading') return token.tokens ?? [];
    if (token.type === 'text' && Array.isArray(token.tokens)) return token.tokens;
    const nested =
      token.type === 'list'
        ? inlineTokens(token.items.flatMap((item: { tokens: Token[] }) => item.tokens))
        : 'tokens' in token && Array.isArray(token.tokens)
          ? inlineTokens(token.tokens as Token[])
          : undefined;
    if (nested) return nested;
  }
  return undefined;
}

export interface Settled {
  /** How much of the source renders the same whatever follows. */
  length: number;
  /** Where the spans (emphasis, code, links) that are not plain text start and end in the source. */
  spans: Array<[number, number]>;
}

/** Whether the tokens of a cut source render as the start of the whole one (same blocks, same spans). */
function startsTheSame(whole: readonly Token[], cut: readonly Token[]): boolean {
  const blocks = (tokens: readonly Token[]): string =>
    tokens
      .filter((token) => token.type !== 'space')
      .map((token) => token.type)
      .join(' ');
  if (blocks(whole) !== blocks(cut)) return false;
  const before = inlineTokens(whole) ?? [];
  const after = inlineTokens(cut);
  if (after === undefined) return false;
  return after.every((token, index) => {
    const other = before[index];
    if (other === undefined || other.type !== token.type) return false;
    return index === after.length - 1 ? other.raw.startsWith(token.raw.trimEnd()) : other.raw === token.raw;
  });
}

/**
 * How much of `source` (a block whose every word is whole) renders the same whatever follows: all of it,
 * or up to the start of the word holding the first delimiter that may still open something.
 */
export function settle(source: string, lex: typeof Lexer): Settled {
  const tokens = lex.lex(source);
  const inline = inlineTokens(tokens);
  // No text to show yet (an HTML block, a rule): it is shown when its line is complete.
  if (inline === undefined) return { length: 0, spans: [] };
  const text = inline.map((token) => token.raw).join('');
  const base = source.lastIndexOf(text);
  if (base < 0) return { length: 0, spans: [] };
  const spans: Array<[number, number]> = [];
  let offset = base;
  for (const token of inline) {
    const at = openerIn(token, source, offset, true);
    if (at !== undefined) {
      const length = wordStart(source, at);
      // Cut short, the block must still be the same block (`- <br>` alone is an HTML block, not an item).
      const cut = source.slice(0, length).trimEnd();
      return cut !== '' && startsTheSame(tokens, lex.lex(cut)) ? { length, spans } : { length: 0, spans: [] };
    }
    if (token.type !== 'text') spans.push([offset, offset + token.raw.length]);
    offset += token.raw.length;
  }
  return { length: source.length, spans };
}

/** What follows the text shown of a streaming line, in its source. */
export interface Following {
  /** The source after the shown text, up to the end of its line (whitespace included). */
  text: string;
  /** The line is known to end after `text` (it is complete, or a later line has begun). */
  lineEnds: boolean;
}

/** Runs cut after their first `count` characters. */
function takeText(runs: readonly Run[], count: number): Run[] {
  const out: Run[] = [];
  let left = count;
  for (const piece of runs) {
    if (left <= 0) break;
    out.push(piece.text.length <= left ? piece : { text: piece.text.slice(0, left), styles: piece.styles });
    left -= piece.text.length;
  }
  return out;
}

/** Whether a line may break between text and a word starting with `first`, after `gap` (whitespace). */
function breaksBefore(plain: string, gap: string, first: string): boolean {
  if (gap === ' ' && /[A-Za-z0-9]$/.test(plain) && /^[A-Za-z0-9]$/.test(first)) return true;
  const spaced = `${plain}${gap.replace(/\t/g, ' ')}`;
  return breakOpportunities(`${spaced}${first}`).includes(spaced.length);
}

/** What Markdown may turn into something else at the start of a word (`\*`, `&amp;`, a span). */
const SPECIAL = /^[*_~`[<!\\&]/;
const OPENERS = /^[*_~`[<!]+/;
const LETTER = /^[\p{L}\p{N}]/u;

/**
 * The characters the next word may start with on screen, from its source: most show as themselves;
 * delimiters before a letter or digit (`**bold`, `[link`, `` `code ``) show as themselves, or vanish if
 * they open a span. Undefined when unknown (nothing yet, an escape, an entity).
 */
function nextStarts(next: string): string[] | undefined {
  const code = next.codePointAt(0);
  if (code === undefined) return undefined;
  const first = String.fromCodePoint(code);
  if (!SPECIAL.test(first)) return [first];
  const opened = LETTER.exec(next.replace(OPENERS, ''))?.[0];
  return OPENERS.test(first) && opened !== undefined ? [first, opened] : undefined;
}

/**
 * The runs of a streaming line (rendered from its settled words) that can be laid out for good. Whether a
 * row may end after the last word depends on the word that follows (the Unicode rules break at no space
 * before `)`, `!` or `,`, nor after `(`): unless the line ends there, or the next word is already known to
 * start with characters the rules break before, the line's last unbreakable unit is held back. So
 * the rows laid out now are the first rows of the whole line's layout, and nothing shown has to move.
 */
export function settledRuns(runs: readonly Run[], following: Following): Run[] {
  const next = following.text.trimStart();
  if (next === '' && following.lineEnds) return [...runs];
  const gap = following.text.slice(0, following.text.length - next.length);
  const plain = runs.map((piece) => piece.text.replace(/[\t\n]/g, ' ')).join('');
  const starts = nextStarts(next);
  if (starts && plain.trim() !== '' && starts.every((first) => breaksBefore(plain, gap, first)))
    return [...runs];
  // A <br> is a break whatever follows it.
  let cut = 0;
  let offset = 0;
  for (const piece of runs) {
    offset += piece.text.length;
    if (piece.text === '\n') cut = offset;
  }
  const opportunities = breakOpportunities(plain);
  return takeText(runs, Math.max(cut, opportunities.at(-1) ?? 0));
}
