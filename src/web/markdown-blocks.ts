/**
 * A streamed reply's Markdown lexed as it grows, without lexing the whole text again on every chunk:
 * the blocks before the last two are finished (text appended later cannot change them), so they are
 * kept (the same token objects, which lets the renderer reuse their elements) and only the text from
 * the second-to-last block on is lexed again. Anything that breaks the rule lexes the whole text: a text
 * that is not the previous one plus more, a link definition (it changes links anywhere), or tokens whose
 * raw text does not add up to the text (the lexer normalised something).
 */
import type { Token } from 'marked';

export type Lex = (text: string) => Token[];

export interface LexedText {
  readonly text: string;
  readonly tokens: readonly Token[];
  /** Where each token starts in `text`. */
  readonly starts: readonly number[];
  /** Set once the incremental rule cannot hold for this text: every later change lexes all of it. */
  readonly whole: boolean;
}

const LINK_DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;
/** Blocks lexed again at the end: the last one may still grow, and the one before may absorb it (a list). */
const OPEN_BLOCKS = 2;

export function lexMarkdown(previous: LexedText | undefined, text: string, lex: Lex): LexedText {
  if (previous === undefined || previous.whole || !text.startsWith(previous.text)) return lexWhole(text, lex);
  const open = openFrom(previous.tokens);
  const offset = open < previous.starts.length ? (previous.starts[open] ?? 0) : previous.text.length;
  const tail = text.slice(offset);
  if (LINK_DEFINITION.test(tail)) return lexWhole(text, lex);
  const fresh = withStarts(lex(tail), offset);
  if (fresh === undefined || fresh.end !== text.length) return lexWhole(text, lex);
  return {
    text,
    tokens: [...previous.tokens.slice(0, open), ...fresh.tokens],
    starts: [...previous.starts.slice(0, open), ...fresh.starts],
    whole: false,
  };
}

function lexWhole(text: string, lex: Lex): LexedText {
  const tokens = lex(text);
  const placed = withStarts(tokens, 0);
  const whole = placed === undefined || placed.end !== text.length || LINK_DEFINITION.test(text);
  return { text, tokens, starts: placed?.starts ?? [], whole };
}

/** The index of the first token lexed again: the start of the last OPEN_BLOCKS blocks that are not space. */
function openFrom(tokens: readonly Token[]): number {
  let seen = 0;
  for (let index = tokens.length - 1; index >= 0; index -= 1) {
    if (tokens[index]?.type === 'space') continue;
    seen += 1;
    if (seen === OPEN_BLOCKS) return index;
  }
  return 0;
}

function withStarts(
  tokens: readonly Token[],
  offset: number,
): { tokens: readonly Token[]; starts: number[]; end: number } | undefined {
  const starts: number[] = [];
  let at = offset;
  for (const token of tokens) {
    if (typeof token.raw !== 'string') return undefined;
    starts.push(at);
    at += token.raw.length;
  }
  return { tokens, starts, end: at };
}
