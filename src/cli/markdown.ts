/**
 * Markdown for the terminal, rendered as the reply streams. Each line is sanitised (control characters
 * from the model never reach the terminal raw), lexed by marked, styled and word-wrapped at the terminal's
 * width; styles are attached to tokens, never spliced into text that is scanned again. The block still
 * arriving is shown as far as it is settled (markdown-region.ts): no Markdown syntax is ever on screen,
 * and what is on screen is never written again. Tables wait for their last row so the columns line up;
 * fenced code blocks are tracked here, across lines, each line highlighted and wrapped under its bar.
 */
import type * as Marked from 'marked';
import { codeRows, renderBlock } from './markdown-blocks.js';
import { prefixOf, StreamingBlock, unindent } from './markdown-region.js';
import { run, serialize, STYLES, type Style } from './markdown-text.js';
import { sanitizeForTerminal } from './sanitize.js';

export { highlightRuns } from './markdown-blocks.js';

export interface MarkdownStream {
  push(text: string): void;
  /** Prints whatever is left (a last line without a newline, an open table). */
  end(): void;
}

export interface MarkdownOptions {
  /** The terminal's width, asked for each line (it may be resized mid-reply); stdout's by default. */
  columns?: () => number | undefined;
  /** Colours and attributes (default); false lays out the same rows without escapes (NO_COLOR). */
  color?: boolean;
  /** Styles every run carries (the model's thinking is dim and italic). */
  styles?: readonly Style[];
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
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const FENCE = /^\s*(```+|~~~+)\s*([\w+-]*)/;
/** A line still arriving that may become a table row or a fence: shown once complete. */
const WAITS_WHOLE = /^\s*(\||```|~~~)/;
// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[0-9;]*m/g;

/** The terminal lines (without newlines) for Markdown source that holds no open fence. */
export function renderMarkdownLines(source: string, width: number, styles: readonly Style[] = []): string[] {
  const prefix = prefixOf(source, width);
  const tokens = markedLexer().lex(unindent(source));
  return tokens.flatMap((token) =>
    renderBlock(token, { width, first: prefix, rest: prefix, styles }).map((row) => serialize(row)),
  );
}

export function createMarkdownStream(
  write: (text: string) => void,
  options: MarkdownOptions = {},
): MarkdownStream {
  const out = options.color === false ? (text: string) => write(text.replace(SGR, '')) : write;
  const lines = new MarkdownLines(out, options);
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
      if (pending !== '') lines.preview(pending);
    },
    end() {
      if (pending !== '') lines.render(pending);
      pending = '';
      lines.end();
    },
  };
}

/** The stream's lines: the open fence and table carried across them, the block still arriving shown as it comes. */
class MarkdownLines {
  private fence: string | undefined;
  private table: string[] = [];
  /** A row is on screen without its line end (it may still grow). */
  private midRow = false;
  private readonly block: StreamingBlock;

  constructor(
    private readonly write: (text: string) => void,
    private readonly options: MarkdownOptions,
  ) {
    this.block = new StreamingBlock(
      {
        row: (text) => {
          this.write(`${this.midRow ? '\n' : ''}${text}`);
          this.midRow = true;
        },
        extend: (text) => this.write(text),
      },
      markedLexer,
      options.styles ?? [],
    );
  }

  /** A complete line. */
  render(raw: string): void {
    const line = sanitizeForTerminal(raw);
    const fenceMatch = FENCE.exec(line);
    if (this.fence !== undefined) {
      if (fenceMatch && fenceMatch[1] === this.fence) this.closeFence();
      else this.writeRows(codeRows(line, this.width()).map((row) => serialize(row)));
      return;
    }
    if (fenceMatch || TABLE_ROW.test(line) || line.trim() === '') this.block.close();
    if (fenceMatch) {
      this.flushTable();
      this.fence = fenceMatch[1];
      this.writeRows([serialize([run(`┌─ ${fenceMatch[2] || 'code'}`, STYLES.dim)])]);
      return;
    }
    if (TABLE_ROW.test(line)) {
      this.table.push(line);
      return;
    }
    this.flushTable();
    if (line.trim() === '') this.writeRows(['']);
    else this.block.line(line, true, this.width());
  }

  /** The line still arriving, so far. */
  preview(raw: string): void {
    const line = sanitizeForTerminal(raw);
    if (this.fence !== undefined || WAITS_WHOLE.test(line)) return;
    this.flushTable();
    this.block.line(line, false, this.width());
  }

  /** Prints an open table and the rest of the block, and closes an open fence. */
  end(): void {
    this.block.close();
    this.flushTable();
    if (this.fence !== undefined) this.closeFence();
    this.endRow();
  }

  private endRow(): void {
    if (this.midRow) this.write('\n');
    this.midRow = false;
  }

  private closeFence(): void {
    this.fence = undefined;
    this.writeRows([serialize([run('└─', STYLES.dim)])]);
  }

  private width(): number {
    const columns = this.options.columns ? this.options.columns() : process.stdout.columns;
    return columns !== undefined && columns > 0 ? columns : DEFAULT_COLUMNS;
  }

  /** Whole rows, each with its line end, after the row still open is ended. */
  private writeRows(rows: readonly string[]): void {
    this.endRow();
    if (rows.length > 0) this.write(`${rows.join('\n')}\n`);
  }

  private flushTable(): void {
    if (this.table.length === 0) return;
    const rows = this.table;
    this.table = [];
    this.writeRows(renderMarkdownLines(rows.map((row) => row.trim()).join('\n'), this.width()));
  }
}

/** Markdown source rendered whole (`/expand`'s thinking), as terminal text with its line ends. */
export function renderMarkdown(source: string, options: MarkdownOptions = {}): string {
  let out = '';
  const stream = createMarkdownStream((text) => (out += text), options);
  stream.push(source);
  stream.end();
  return out;
}
