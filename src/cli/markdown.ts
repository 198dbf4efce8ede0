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
import { run, serialize, STYLES } from './markdown-text.js';
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
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const FENCE = /^\s*(```+|~~~+)\s*([\w+-]*)/;

/** Leading whitespace as columns (a tab is 4), kept as the indent of every line of the block. */
function indentOf(line: string): number {
  const leading = /^[ \t]*/.exec(line)?.[0] ?? '';
  return [...leading].reduce((sum, character) => sum + (character === '\t' ? 4 : 1), 0);
}

/** The terminal lines (without newlines) for Markdown source that holds no open fence. */
export function renderMarkdownLines(source: string, width: number): string[] {
  const indent = Math.min(indentOf(source), Math.floor(width / 2));
  const prefix = indent > 0 ? [run(' '.repeat(indent))] : [];
  const tokens = markedLexer().lex(source.replace(/^[ \t]+/gm, ''));
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
  let pending = '';
  let fence: string | undefined;
  let table: string[] = [];
  const width = (): number => {
    const columns = options.columns ? options.columns() : process.stdout.columns;
    return columns !== undefined && columns > 0 ? columns : DEFAULT_COLUMNS;
  };
  const writeLines = (lines: string[]): void => {
    if (lines.length > 0) write(`${lines.join('\n')}\n`);
  };

  const flushTable = (): void => {
    if (table.length === 0) return;
    const rows = table;
    table = [];
    writeLines(renderMarkdownLines(rows.map((row) => row.trim()).join('\n'), width()));
  };

  const renderLine = (raw: string): void => {
    const line = sanitizeForTerminal(raw);
    const fenceMatch = FENCE.exec(line);
    if (fence !== undefined) {
      if (fenceMatch && fenceMatch[1] === fence) {
        fence = undefined;
        write(`${serialize([run('└─', STYLES.dim)])}\n`);
      } else write(`${codeLine(line)}\n`);
      return;
    }
    if (fenceMatch) {
      flushTable();
      fence = fenceMatch[1];
      write(`${serialize([run(`┌─ ${fenceMatch[2] || 'code'}`, STYLES.dim)])}\n`);
      return;
    }
    if (TABLE_ROW.test(line)) {
      table.push(line);
      return;
    }
    flushTable();
    if (line.trim() === '') {
      write('\n');
      return;
    }
    writeLines(renderMarkdownLines(line, width()));
  };

  return {
    push(text) {
      pending += text;
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        renderLine(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
    },
    end() {
      if (pending !== '') renderLine(pending);
      pending = '';
      flushTable();
      if (fence !== undefined) {
        fence = undefined;
        write(`${serialize([run('└─', STYLES.dim)])}\n`);
      }
    },
  };
}
