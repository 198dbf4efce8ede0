/**
 * Markdown for the terminal, rendered as the reply streams: each line is printed once, when it is
 * complete, and never re-printed (tables wait for their last row so the columns line up). A complete
 * line is sanitised (control characters from the model never reach the terminal raw), parsed into
 * tokens by marked's lexer, then styled and word-wrapped at the terminal's width (markdown-blocks.ts);
 * styles are attached to tokens, never spliced into text that is scanned again. Fenced code blocks are
 * tracked here, across lines, and printed unwrapped with keyword highlighting.
 */
import type * as Marked from 'marked';
import { codeLine, renderBlock } from './markdown-blocks.js';
import { isParagraph, lastParagraphLine } from './markdown-paragraph.js';
import { run, serialize, STYLES, wrapRuns, type Run } from './markdown-text.js';
import { sanitizeForTerminal } from './sanitize.js';

export { highlightCode } from './markdown-blocks.js';

export interface MarkdownStream {
  push(text: string): void;
  /** Prints whatever is left (a last line without a newline, an open table). */
  end(): void;
}

export interface MarkdownOptions {
  /** The terminal's width, asked for each line (it may be resized mid-reply); stdout's by default. */
  columns?: () => number | undefined;
}

const DEFAULT_COLUMNS = 80;

let lexer: typeof Marked.Lexer | undefined;

/**
 * marked's lexer, loaded when the first line is rendered rather than when this module is: the REPL's
 * prompt does not wait for it (DECISIONS.md has the figures). A require(), which the bundler keeps in
 * this chunk and runs on first call, so rendering stays synchronous.
 */
function markedLexer(): typeof Marked.Lexer {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  lexer ??= (require('marked') as typeof Marked).Lexer;
  return lexer;
}
/** Lines of a paragraph lexed together with the line being printed. */
const PARAGRAPH_CONTEXT = 12;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const FENCE = /^\s*(```+|~~~+)\s*([\w+-]*)/;

/** Leading whitespace as columns (a tab is 4), kept as the indent of every line of the block. */
function indentOf(line: string): number {
  const leading = /^[ \t]*/.exec(line)?.[0] ?? '';
  return [...leading].reduce((sum, character) => sum + (character === '\t' ? 4 : 1), 0);
}

/** The indent kept before every line of a block: its leading whitespace, at most half the width. */
function prefixOf(source: string, width: number): Run[] {
  const indent = Math.min(indentOf(source), Math.floor(width / 2));
  return indent > 0 ? [run(' '.repeat(indent))] : [];
}

const unindent = (source: string): string => source.replace(/^[ \t]+/gm, '');

/** The terminal lines (without newlines) for Markdown source that holds no open fence. */
export function renderMarkdownLines(source: string, width: number): string[] {
  const prefix = prefixOf(source, width);
  const tokens = markedLexer().lex(unindent(source));
  const lines: string[] = [];
  for (const token of tokens) {
    if (token.type === 'space') continue;
    lines.push(...renderBlock(token, { width, first: prefix, rest: prefix, styles: [] }));
  }
  return lines;
}

export function createMarkdownStream(
  write: (text: string) => void,
  options: MarkdownOptions = {},
): MarkdownStream {
  const lines = new MarkdownLines(write, options);
  let pending = '';
  return {
    push(text) {
      pending += text;
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        lines.render(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
    },
    end() {
      if (pending !== '') lines.render(pending);
      pending = '';
      lines.end();
    },
  };
}

/** The stream's complete lines, rendered one at a time: the open fence, table and paragraph carried across them. */
class MarkdownLines {
  private fence: string | undefined;
  private table: string[] = [];
  /** The source lines of the paragraph being printed (its lines are styled as one paragraph). */
  private paragraph: string[] = [];

  constructor(
    private readonly write: (text: string) => void,
    private readonly options: MarkdownOptions,
  ) {}

  render(raw: string): void {
    const line = sanitizeForTerminal(raw);
    const fenceMatch = FENCE.exec(line);
    if (this.fence !== undefined) {
      if (fenceMatch && fenceMatch[1] === this.fence) this.closeFence();
      else this.write(`${codeLine(line)}\n`);
      return;
    }
    if (fenceMatch) {
      this.flushTable();
      this.paragraph = [];
      this.fence = fenceMatch[1];
      this.write(`${serialize([run(`┌─ ${fenceMatch[2] || 'code'}`, STYLES.dim)])}\n`);
      return;
    }
    if (TABLE_ROW.test(line)) {
      this.paragraph = [];
      this.table.push(line);
      return;
    }
    this.flushTable();
    if (line.trim() === '') {
      this.paragraph = [];
      this.write('\n');
      return;
    }
    this.writeLines(this.paragraphLine(line) ?? renderMarkdownLines(line, this.width()));
  }

  /** Prints an open table, and closes an open fence. */
  end(): void {
    this.flushTable();
    if (this.fence !== undefined) this.closeFence();
  }

  private closeFence(): void {
    this.fence = undefined;
    this.write(`${serialize([run('└─', STYLES.dim)])}\n`);
  }

  private width(): number {
    const columns = this.options.columns ? this.options.columns() : process.stdout.columns;
    return columns !== undefined && columns > 0 ? columns : DEFAULT_COLUMNS;
  }

  private writeLines(lines: string[]): void {
    if (lines.length > 0) this.write(`${lines.join('\n')}\n`);
  }

  private flushTable(): void {
    if (this.table.length === 0) return;
    const rows = this.table;
    this.table = [];
    this.writeLines(renderMarkdownLines(rows.map((row) => row.trim()).join('\n'), this.width()));
  }

  /** A line of a paragraph, styled as the paragraph so far; undefined for any other block (it ends one). */
  private paragraphLine(line: string): string[] | undefined {
    const source = unindent(line);
    if (!isParagraph(markedLexer().lex(source))) {
      this.paragraph = [];
      return undefined;
    }
    // The last few lines are context enough for emphasis across lines; a paragraph of hundreds of lines
    // (a log, a poem) is not lexed again whole for each of them.
    this.paragraph = [...this.paragraph.slice(1 - PARAGRAPH_CONTEXT), source];
    const runs = lastParagraphLine(this.paragraph, markedLexer());
    if (runs === undefined) return undefined;
    const prefix = prefixOf(line, this.width());
    return wrapRuns(runs, { width: this.width(), first: prefix, rest: prefix }).map((row) => serialize(row));
  }
}
