/**
 * The block being streamed (a paragraph, or a one-line heading, list item or quote) and the rows of it
 * already on screen. Each time more of it arrives it is lexed whole (a paragraph from its first line not
 * yet shown for good), only its settled part is rendered (markdown-settled.ts), and only what that adds is
 * written: more text at the end of the last row, then new rows. A row is never written again, so nothing
 * on screen moves when the line or the block completes; the rows are wrapped on words with the same
 * wrapRuns as the finished block, so the finished block renders exactly as it was shown.
 */
import type { Lexer } from 'marked';
import { renderBlock } from './markdown-blocks.js';
import { isParagraph, paragraphLines } from './markdown-paragraph.js';
import { settle, settledRuns, settledWords, type Following, type Settled } from './markdown-settled.js';
import { plainText, run, serialize, wrapRuns, type Run, type Style } from './markdown-text.js';

/** Where rows go: a new row (the previous one is ended first), or more text at the end of the last. */
export interface RowWriter {
  row(text: string): void;
  extend(text: string): void;
}

/** Leading whitespace as columns (a tab is 4), kept as the indent of every row of the block. */
function indentOf(line: string): number {
  const leading = /^[ \t]*/.exec(line)?.[0] ?? '';
  return [...leading].reduce((sum, character) => sum + (character === '\t' ? 4 : 1), 0);
}

/** The indent kept before every row of a block: its leading whitespace, at most half the width. */
export function prefixOf(source: string, width: number): Run[] {
  const indent = Math.min(indentOf(source), Math.floor(width / 2));
  return indent > 0 ? [run(' '.repeat(indent))] : [];
}

export const unindent = (source: string): string => source.replace(/^[ \t]+/gm, '');

interface SourceLine {
  /** The line so far (sanitised), without its newline. */
  text: string;
  complete: boolean;
  /** The width when its first row was laid out: a resize applies from the next line on. */
  width: number;
}

interface Row {
  /** Index of the source line the row belongs to. */
  line: number;
  runs: Run[];
}

/** Runs without their first `count` characters. */
function dropText(runs: readonly Run[], count: number): Run[] {
  let left = count;
  const out: Run[] = [];
  for (const piece of runs) {
    if (left >= piece.text.length) left -= piece.text.length;
    else {
      out.push({ text: piece.text.slice(left), styles: piece.styles });
      left = 0;
    }
  }
  return out;
}

const HAS_WORD = /[\p{L}\p{N}]/u;
/** Characters of a block re-rendered on every word that settles. */
const LONG_BLOCK = 1000;

export class StreamingBlock {
  private kind: 'paragraph' | 'block' | undefined;
  private lines: SourceLine[] = [];
  /** Plain text of the rows on screen, with their source line. */
  private shown: { line: number; text: string }[] = [];
  /** The source last rendered (final or not), to skip a chunk that settled nothing new. */
  private rendered = '';
  private renderedLength = 0;

  constructor(
    private readonly out: RowWriter,
    private readonly lex: () => typeof Lexer,
    private readonly styles: readonly Style[],
  ) {}

  /** A line of the block: a new one, or more of the one still arriving (then `complete` once it is). */
  line(text: string, complete: boolean, width: number): void {
    const last = this.lines.at(-1);
    if (last && !last.complete) {
      last.text = text;
      last.complete = complete;
    } else {
      const settled = complete ? text : settledWords(text);
      // `-`, `#`, `1.` or `>` alone may still become a rule, a list or a heading: wait for a word.
      if (!complete && !HAS_WORD.test(settled)) return;
      this.place({ text, complete, width }, unindent(settled));
    }
    this.refresh(this.kind === 'block' && complete);
  }

  /** The block is over (a blank line, another block, the end): the rest of it is shown, settled or not. */
  close(): void {
    if (this.lines.length > 0) this.refresh(true);
    this.kind = undefined;
    this.lines = [];
    this.shown = [];
    this.rendered = '';
    this.renderedLength = 0;
  }

  /** Starts a block with the line, or adds it to the paragraph it continues. */
  private place(line: SourceLine, source: string): void {
    const lex = this.lex();
    const kind = isParagraph(lex.lex(source)) ? 'paragraph' : 'block';
    const joined = [...this.sources(false), source].join('\n');
    if (kind !== 'paragraph' || this.kind !== 'paragraph' || !isParagraph(lex.lex(joined))) {
      this.close();
      this.kind = kind;
    }
    this.lines.push(line);
  }

  private sources(final: boolean): string[] {
    return this.lines.map((line) => unindent(line.complete || final ? line.text : settledWords(line.text)));
  }

  private refresh(final: boolean): void {
    const sources = this.sources(final);
    const source = sources.join('\n');
    const available = this.lines.map((line) => unindent(line.text)).join('\n');
    // The first character after the settled words decides whether a row may end before it.
    const key = `${String(final)}\n${source}\n${/^\s*\S?/.exec(available.slice(source.length))?.[0] ?? ''}`;
    if (key === this.rendered || (!final && !this.worthRendering(source.length))) return;
    this.rendered = key;
    this.renderedLength = source.length;
    const settled: Settled = final ? { length: source.length, spans: [] } : settle(source, this.lex());
    const text = source.slice(0, settled.length).trimEnd();
    const following = final ? undefined : this.following(available, text.length);
    this.show(
      this.kind === 'paragraph' ? this.paragraphRows(text, following) : this.blockRows(text, following),
    );
    if (!final) this.commit(sources, settled);
    else if (this.kind === 'block') this.close();
  }

  /**
   * Whether enough was added since the last render to render again: every word, up to a paragraph of
   * LONG_BLOCK characters; past that, every sixteenth of its length, so one huge line is lexed a number
   * of times that grows with the logarithm of its length, not with its length (measured in DECISIONS.md).
   */
  private worthRendering(length: number): boolean {
    return (length - this.renderedLength) * 16 >= length - LONG_BLOCK;
  }

  /** What follows the first `at` characters of the block's source on their line. */
  private following(available: string, at: number): Following {
    const rest = available.slice(at);
    const end = rest.indexOf('\n');
    if (end >= 0) return { text: rest.slice(0, end), lineEnds: true };
    return { text: rest, lineEnds: this.lines.at(-1)?.complete === true };
  }

  /** Rows of a paragraph; while it streams (`following` given), its last line as far as it is settled. */
  private paragraphRows(text: string, following: Following | undefined): Row[] {
    if (text === '') return [];
    const tokens = this.lex().lex(text);
    if (!isParagraph(tokens)) return this.blockRows(text, following);
    const lines = paragraphLines(tokens, this.styles);
    const count = lines.length;
    // A line not begun yet (the text was cut before it) has no rows.
    while (following && lines.length > 1 && lines.at(-1)?.length === 0) lines.pop();
    const last = lines.at(-1);
    if (following && last && lines.length === count) {
      lines[lines.length - 1] = settledRuns(last, following);
      if (lines.at(-1)?.length === 0 && last.length > 0) lines.pop();
    }
    return lines.flatMap((runs, index) => {
      const line = this.lines[index] ?? this.lines.at(-1);
      if (!line) return [];
      const prefix = prefixOf(line.text, line.width);
      return wrapRuns(runs, { width: line.width, first: prefix, rest: prefix }).map((row) => ({
        line: index,
        runs: row,
      }));
    });
  }

  private blockRows(text: string, following: Following | undefined): Row[] {
    const line = this.lines[0];
    if (!line || text === '') return [];
    const prefix = prefixOf(line.text, line.width);
    const settleRuns = following && ((runs: readonly Run[]): Run[] => settledRuns(runs, following));
    const context = {
      width: line.width,
      first: prefix,
      rest: prefix,
      styles: this.styles,
      settle: settleRuns,
    };
    return this.lex()
      .lex(text)
      .flatMap((token) => renderBlock(token, context))
      .map((runs) => ({ line: 0, runs }));
  }

  /** Writes what the rows add to those on screen: the end of the last one, then new ones. */
  private show(rows: readonly Row[]): void {
    rows.forEach((row, index) => {
      const text = plainText(row.runs);
      const had = this.shown[index];
      if (had === undefined) {
        this.out.row(serialize(row.runs));
        this.shown.push({ line: row.line, text });
      } else if (
        index === this.shown.length - 1 &&
        text.length > had.text.length &&
        text.startsWith(had.text)
      ) {
        this.out.extend(serialize(dropText(row.runs, had.text.length)));
        had.text = text;
      }
    });
  }

  /**
   * Forgets the complete lines shown whole that nothing after them pairs with (no delimiter in them is
   * left open, no span crosses their end), so the paragraph is lexed from its first line not yet shown for
   * good, not again from its start on every chunk.
   */
  private commit(sources: readonly string[], settled: Settled): void {
    let end = -1;
    let done = 0;
    for (const [index, source] of sources.entries()) {
      end += source.length + 1;
      if (this.lines[index]?.complete !== true || settled.length < end) break;
      if (!settled.spans.some(([start, stop]) => start < end && stop > end)) done = index + 1;
    }
    if (done === 0) return;
    this.lines.splice(0, done);
    this.shown = this.shown
      .filter((row) => row.line >= done)
      .map((row) => ({ ...row, line: row.line - done }));
    this.rendered = '';
    this.renderedLength = 0;
  }
}
