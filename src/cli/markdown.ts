/**
 * Markdown for the terminal, rendered as the reply streams: each line is printed once, when it is
 * complete, and never re-printed (tables wait for their last row so the columns line up). Headings,
 * lists, quotes, emphasis, inline code, links, tables and fenced code blocks with keyword highlighting.
 * Text is sanitised first: control characters from the model never reach the terminal raw.
 */
import { sanitizeForTerminal } from './sanitize.js';

const BOLD = ['\u001b[1m', '\u001b[22m'] as const;
const DIM = ['\u001b[2m', '\u001b[22m'] as const;
const ITALIC = ['\u001b[3m', '\u001b[23m'] as const;
const UNDERLINE = ['\u001b[4m', '\u001b[24m'] as const;
const CYAN = ['\u001b[36m', '\u001b[39m'] as const;
const MAGENTA = ['\u001b[35m', '\u001b[39m'] as const;
const GREEN = ['\u001b[32m', '\u001b[39m'] as const;
const YELLOW = ['\u001b[33m', '\u001b[39m'] as const;

const paint = (style: readonly [string, string], text: string): string => `${style[0]}${text}${style[1]}`;

const KEYWORDS = new Set(
  (
    'abstract async await break case catch class const continue def default del do elif else enum export extends ' +
    'false final finally fn for from func function go if impl import in interface is let match mod module mut new ' +
    'nil None null package private protected pub public raise return self static struct super switch this throw ' +
    'true True False try type typeof undefined use var void while with yield'
  ).split(' '),
);

/** Keyword, string, number and comment colouring that works well enough for most languages. */
export function highlightCode(line: string): string {
  const comment = /^(\s*)(\/\/|#|--)(.*)$/.exec(line);
  if (comment) return `${comment[1] ?? ''}${paint(DIM, `${comment[2] ?? ''}${comment[3] ?? ''}`)}`;
  return line.replace(
    /("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`)|\b(\d+(?:\.\d+)?)\b|\b([A-Za-z_]\w*)\b/g,
    (match, text: string | undefined, number: string | undefined, word: string | undefined) => {
      if (text !== undefined) return paint(GREEN, text);
      if (number !== undefined) return paint(YELLOW, number);
      if (word !== undefined && KEYWORDS.has(word)) return paint(MAGENTA, word);
      return match;
    },
  );
}

/** Emphasis, inline code and links within one line. */
export function renderInline(text: string): string {
  const codeSpans: string[] = [];
  let out = text.replace(/`([^`]+)`/g, (_match, code: string) => {
    codeSpans.push(paint(CYAN, code));
    return `\u0000${codeSpans.length - 1}\u0000`;
  });
  out = out
    .replace(/\*\*([^*]+)\*\*|__([^_]+)__/g, (_match, a: string | undefined, b: string | undefined) =>
      paint(BOLD, a ?? b ?? ''),
    )
    .replace(/(^|[^*\w])\*([^*\s][^*]*)\*(?!\*)|(^|\W)_([^_\s][^_]*)_(?!\w)/g, (...groups: unknown[]) => {
      const [, before1, a, before2, b] = groups as [string, string?, string?, string?, string?];
      return `${before1 ?? before2 ?? ''}${paint(ITALIC, a ?? b ?? '')}`;
    })
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_match, label: string, url: string) =>
      label === url ? paint(UNDERLINE, url) : `${label} (${paint(UNDERLINE, url)})`,
    );
  // eslint-disable-next-line no-control-regex
  return out.replace(/\u0000(\d+)\u0000/g, (_match, index: string) => codeSpans[Number(index)] ?? '');
}

export interface MarkdownStream {
  push(text: string): void;
  /** Prints whatever is left (a last line without a newline, an open table). */
  end(): void;
}

export function createMarkdownStream(write: (text: string) => void): MarkdownStream {
  let pending = '';
  let fence: string | undefined;
  let table: string[][] = [];

  const flushTable = (): void => {
    if (table.length === 0) return;
    const rows = table.filter((row) => !row.every((cell) => /^:?-{2,}:?$/.test(cell.trim())));
    const widths: number[] = [];
    for (const row of rows)
      row.forEach((cell, index) => (widths[index] = Math.max(widths[index] ?? 0, cell.length)));
    rows.forEach((row, rowIndex) => {
      const cells = row.map((cell, index) => {
        const padded = cell.padEnd(widths[index] ?? 0);
        return rowIndex === 0 ? paint(BOLD, padded) : renderInline(padded);
      });
      write(`${cells.join('  │  ')}\n`);
      if (rowIndex === 0) write(`${paint(DIM, widths.map((width) => '─'.repeat(width)).join('──┼──'))}\n`);
    });
    table = [];
  };

  const renderLine = (raw: string): void => {
    const line = sanitizeForTerminal(raw);
    const fenceMatch = /^\s*(```+|~~~+)\s*([\w+-]*)/.exec(line);
    if (fence !== undefined) {
      if (fenceMatch && fenceMatch[1] === fence) {
        fence = undefined;
        write(`${paint(DIM, '└─')}\n`);
      } else {
        write(`${paint(DIM, '│')} ${highlightCode(line)}\n`);
      }
      return;
    }
    if (fenceMatch) {
      flushTable();
      fence = fenceMatch[1];
      write(`${paint(DIM, `┌─ ${fenceMatch[2] || 'code'}`)}\n`);
      return;
    }
    if (/^\s*\|.*\|\s*$/.test(line)) {
      table.push(
        line
          .trim()
          .slice(1, -1)
          .split('|')
          .map((cell) => cell.trim()),
      );
      return;
    }
    flushTable();
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = heading[1]?.length ?? 1;
      const text = renderInline(heading[2] ?? '');
      write(`${level <= 2 ? paint(BOLD, paint(CYAN, text)) : paint(BOLD, text)}\n`);
      return;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      write(`${paint(DIM, '─'.repeat(40))}\n`);
      return;
    }
    const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
    if (bullet) {
      write(`${bullet[1] ?? ''}${paint(CYAN, '•')} ${renderInline(bullet[2] ?? '')}\n`);
      return;
    }
    const numbered = /^(\s*)(\d+[.)])\s+(.*)$/.exec(line);
    if (numbered) {
      write(`${numbered[1] ?? ''}${paint(CYAN, numbered[2] ?? '')} ${renderInline(numbered[3] ?? '')}\n`);
      return;
    }
    const quote = /^\s*>\s?(.*)$/.exec(line);
    if (quote) {
      write(`${paint(DIM, '│')} ${paint(ITALIC, renderInline(quote[1] ?? ''))}\n`);
      return;
    }
    write(`${renderInline(line)}\n`);
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
        write(`${paint(DIM, '└─')}\n`);
      }
    },
  };
}
