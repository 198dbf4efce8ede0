/**
 * A paragraph's lines as they stream: each is printed once, when complete, but styled as part of the
 * paragraph so far, so emphasis or a code span opened on one line and closed on a later one
 * (`**bold` ⏎ `continued**`) is styled on both. The paragraph so far is lexed whole, its soft line breaks
 * kept as line ends (lines already printed are never re-flowed), and only the last line's runs are used.
 * A delimiter still open at the end is taken to close later (the model almost always closes what it
 * opens): the line is lexed with the closer appended, so `**bold` shows bold at once, not as `**bold`.
 */
import type { Lexer, Token, Tokens } from 'marked';
import { inlineRuns } from './markdown-inline.js';
import { LINE_BREAK, plainText, type Run } from './markdown-text.js';

/** What may be left open at a line's end, tried in this order. */
const CLOSERS = ['`', '**', '__', '*', '_', '~~'];
/** Nested openers closed at most (`***bold italic` needs two). */
const MAX_CLOSERS = 3;

/** Whether the source is one paragraph and nothing else (what a line continuing a paragraph must be). */
export function isParagraph(tokens: readonly Token[]): boolean {
  const blocks = tokens.filter((token) => token.type !== 'space');
  return blocks.length === 1 && blocks[0]?.type === 'paragraph';
}

/** The paragraph's runs with every line end a LINE_BREAK; undefined when the source is not one paragraph. */
function paragraphRuns(source: string, lex: typeof Lexer): Run[] | undefined {
  const tokens = lex.lex(source);
  if (!isParagraph(tokens)) return undefined;
  const paragraph = tokens.find((token): token is Tokens.Paragraph => token.type === 'paragraph');
  const runs: Run[] = [];
  keepCodeLineEnds(paragraph?.tokens ?? []);
  for (const piece of inlineRuns(paragraph?.tokens ?? [])) {
    if (piece === LINE_BREAK) {
      runs.push(LINE_BREAK);
      continue;
    }
    piece.text.split('\n').forEach((text, index) => {
      if (index > 0) runs.push(LINE_BREAK);
      if (text !== '') runs.push({ text, styles: piece.styles });
    });
  }
  return runs;
}

/**
 * The runs of the last of `lines` (source lines of one paragraph, leading indentation removed), styled
 * as that paragraph so far, open delimiters taken as closing later; undefined when they cannot be told
 * apart (the caller renders the line alone).
 */
export function lastParagraphLine(lines: readonly string[], lex: typeof Lexer): Run[] | undefined {
  let source = lines.join('\n').trimEnd();
  let runs = paragraphRuns(source, lex);
  for (let round = 0; runs !== undefined && round < MAX_CLOSERS; round += 1) {
    const shown = plainText(runs).length;
    // A closer that pairs with an opener: both vanish from what is shown.
    const closer = CLOSERS.find(
      (candidate) =>
        opensAtWordStart(source, candidate) &&
        plainLength(source + candidate, lex) === shown - candidate.length,
    );
    if (closer === undefined) break;
    source += closer;
    runs = paragraphRuns(source, lex);
  }
  if (runs === undefined) return undefined;
  const segments: Run[][] = [[]];
  for (const piece of runs) {
    if (piece === LINE_BREAK) segments.push([]);
    else segments.at(-1)?.push(piece);
  }
  return segments.length === lines.length ? segments.at(-1) : undefined;
}

/**
 * A code span over a line end reads it as a space; here the line end is kept (the line above it is
 * already printed), so every source line still maps to its own printed line.
 */
function keepCodeLineEnds(tokens: readonly Token[]): void {
  for (const token of tokens) {
    if (token.type === 'codespan' && token.raw.includes('\n')) {
      const ticks = /^`+/.exec(token.raw)?.[0].length ?? 1;
      const inner = token.raw.slice(ticks, token.raw.length - ticks);
      token.text = /^ .* $/s.test(inner) && inner.trim() !== '' ? inner.slice(1, -1) : inner;
    } else if ('tokens' in token && Array.isArray(token.tokens)) keepCodeLineEnds(token.tokens as Token[]);
  }
}

/**
 * Whether the last `delimiter` stands at the start of a word (after a space, punctuation or nothing):
 * `4*5` or `a*b` at a line's end is text, not emphasis waiting for its closer.
 */
function opensAtWordStart(source: string, delimiter: string): boolean {
  const at = source.lastIndexOf(delimiter);
  return at >= 0 && !/[\p{L}\p{N}]/u.test(source[at - 1] ?? '');
}

function plainLength(source: string, lex: typeof Lexer): number {
  const runs = paragraphRuns(source, lex);
  return runs === undefined ? -1 : plainText(runs).length;
}
