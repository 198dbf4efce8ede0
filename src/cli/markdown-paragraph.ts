/**
 * A paragraph's source lines as the terminal shows them: the paragraph is lexed whole (so emphasis or a
 * code span opened on one line and closed on a later one, `**bold` ⏎ `continued**`, is styled on both),
 * and each source line keeps its own rows (its soft line break stays a line end, so the rows of a line
 * already shown never reflow when the next line arrives).
 */
import type { Token, Tokens } from 'marked';
import { inlineRuns } from './markdown-inline.js';
import { LINE_BREAK, type Run, type Style } from './markdown-text.js';

/** Whether the source is one paragraph and nothing else (what a line continuing a paragraph must be). */
export function isParagraph(tokens: readonly Token[]): boolean {
  const blocks = tokens.filter((token) => token.type !== 'space');
  return blocks.length === 1 && blocks[0]?.type === 'paragraph';
}

/** The runs of each source line of a lexed paragraph (`tokens` is marked's output for it alone). */
export function paragraphLines(tokens: readonly Token[], styles: readonly Style[]): Run[][] {
  const paragraph = tokens.find((token): token is Tokens.Paragraph => token.type === 'paragraph');
  const lines: Run[][] = [[]];
  keepCodeLineEnds(paragraph?.tokens ?? []);
  for (const piece of inlineRuns(paragraph?.tokens ?? [], styles)) {
    if (piece === LINE_BREAK) {
      lines.push([]);
      continue;
    }
    // A `<br>`: a break within the source line, which wrapRuns makes.
    if (piece.text === '\n') {
      lines.at(-1)?.push(piece);
      continue;
    }
    piece.text.split('\n').forEach((text, index) => {
      if (index > 0) lines.push([]);
      if (text !== '') lines.at(-1)?.push({ text, styles: piece.styles });
    });
  }
  return lines;
}

/**
 * A code span over a line end reads it as a space; here the line end is kept (each source line has its
 * own rows), so every source line still maps to its own rows.
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
