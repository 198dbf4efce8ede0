/**
 * Block Markdown tokens (from marked's lexer) to terminal rows of styled runs: paragraphs, headings,
 * lists and quotes word-wrapped at the terminal width with their marker or bar on the first row and their
 * indentation on continuation rows; a code line wraps too, with its bar and indentation on every row.
 */
import type { Token, Tokens } from 'marked';
import { decodeEntities, inlineRuns } from './markdown-inline.js';
import { renderTable } from './markdown-table.js';
import { displayWidth, run, runsWidth, STYLES, wrapRuns, type Run, type Style } from './markdown-text.js';

const KEYWORDS = new Set(
  (
    'abstract async await break case catch class const continue def default del do elif else enum export extends ' +
    'false final finally fn for from func function go if impl import in interface is let match mod module mut new ' +
    'nil None null package private protected pub public raise return self static struct super switch this throw ' +
    'true True False try type typeof undefined use var void while with yield'
  ).split(' '),
);

/**
 * Strings, a comment (a whole line starting with `//`, `#` or `--`; or, after code, `//`, `# ` or ` -- `
 * preceded by a space), numbers and words, in one pass over the line.
 */
const CODE_TOKENS =
  /("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`)|((?<=^\s*)(?:\/\/|#|--).*$|(?<=\s)(?:\/\/|#(?= |$)|--(?= |$)).*$)|\b(\d+(?:\.\d+)?)\b|\b([A-Za-z_]\w*)\b/g;

/**
 * Keyword, string, number and comment colouring that works well enough for most languages, as runs (the
 * line is sanitised; styles are never spliced into text).
 */
export function highlightRuns(line: string): Run[] {
  const runs: Run[] = [];
  let at = 0;
  for (const match of line.matchAll(CODE_TOKENS)) {
    const [whole, text, comment, number, word] = match;
    const style =
      text !== undefined
        ? STYLES.green
        : comment !== undefined
          ? STYLES.dim
          : number !== undefined
            ? STYLES.yellow
            : word !== undefined && KEYWORDS.has(word)
              ? STYLES.magenta
              : undefined;
    if (style === undefined) continue;
    if (match.index > at) runs.push(run(line.slice(at, match.index)));
    runs.push(run(whole, style));
    at = match.index + whole.length;
  }
  if (at < line.length) runs.push(run(line.slice(at)));
  return runs;
}

/** Tabs as spaces to the next stop of 4 (a terminal would jump to 8, and the width would be unknown). */
function expandTabs(line: string): string {
  let out = '';
  for (const character of line) out += character === '\t' ? ' '.repeat(4 - (out.length % 4)) : character;
  return out;
}

/**
 * The rows of one line of a code block at `width`: the dim bar then the highlighted source, wrapped with
 * the bar and the line's own indentation on every row (a long line never loses its bar).
 */
export function codeRows(source: string, width: number, lead: readonly Run[] = []): Run[][] {
  const line = expandTabs(source);
  const indent = /^ */.exec(line)?.[0] ?? '';
  const bar = [...lead, run('│', STYLES.dim), run(' ')];
  const prefix = indent === '' ? bar : [...bar, run(indent)];
  if (line.trim() === '') return [bar];
  return wrapRuns(highlightRuns(line.slice(indent.length)), { width, first: prefix, rest: prefix });
}

export interface BlockContext {
  width: number;
  /** Before the block's first line. */
  first: readonly Run[];
  /** Before its other lines. */
  rest: readonly Run[];
  /** Styles of the surrounding block (a quote is italic). */
  styles: readonly Style[];
  /**
   * The block is still streaming: its text as far as its layout is settled (markdown-settled.ts), and
   * nothing added under its last row yet (a heading's rule).
   */
  settle?: (runs: readonly Run[]) => Run[];
}

function wrap(runs: Run[], context: BlockContext): Run[][] {
  const shown = context.settle ? context.settle(runs) : runs;
  return shown.length === 0 && runs.length > 0 ? [] : wrapRuns(shown, context);
}

function renderList(list: Tokens.List, context: BlockContext): Run[][] {
  const lines: Run[][] = [];
  const start = typeof list.start === 'number' ? list.start : 1;
  list.items.forEach((item, index) => {
    const marker = list.ordered ? `${start + index}.` : '•';
    const lead = index === 0 ? context.first : context.rest;
    const indent = run(' '.repeat(displayWidth(marker) + 1));
    const tokens = item.tokens.filter((token) => token.type !== 'checkbox');
    const box = item.task ? [run(item.checked === true ? '[x] ' : '[ ] ', ...context.styles)] : [];
    tokens.forEach((token, childIndex) => {
      const first =
        childIndex === 0 ? [...lead, run(marker, STYLES.cyan), run(' '), ...box] : [...context.rest, indent];
      lines.push(...renderBlock(token, { ...context, first, rest: [...context.rest, indent] }));
    });
    if (tokens.length === 0) lines.push([...lead, run(marker, STYLES.cyan), ...box]);
  });
  return lines;
}

function renderChildren(tokens: readonly Token[], context: BlockContext): Run[][] {
  const lines: Run[][] = [];
  tokens
    .filter((token) => token.type !== 'space')
    .forEach((token, index) => {
      lines.push(...renderBlock(token, index === 0 ? context : { ...context, first: context.rest }));
    });
  return lines;
}

/**
 * A heading: `#` bold and cyan with a heavy rule under it as wide as its text (so it reads as the
 * largest without colour too), `##` bold and cyan, deeper ones bold.
 */
function renderHeading(token: Tokens.Heading, context: BlockContext): Run[][] {
  const styles = token.depth <= 2 ? [STYLES.bold, STYLES.cyan] : [STYLES.bold];
  const rows = wrap(inlineRuns(token.tokens, [...context.styles, ...styles]), context);
  if (token.depth !== 1 || context.settle !== undefined) return rows;
  const text = Math.max(...rows.map((row) => runsWidth(row))) - runsWidth(context.first);
  return [
    ...rows,
    [...context.rest, run('━'.repeat(Math.max(1, Math.min(text, context.width))), STYLES.dim)],
  ];
}

/** The rows (runs without newlines) a block token shows as. */
export function renderBlock(token: Token, context: BlockContext): Run[][] {
  switch (token.type) {
    case 'space':
      return [];
    case 'heading':
      return renderHeading(token as Tokens.Heading, context);
    case 'hr':
      return [[...context.first, run('─'.repeat(Math.min(40, context.width)), STYLES.dim)]];
    case 'list':
      return renderList(token as Tokens.List, context);
    case 'blockquote': {
      const bar = run('│ ', STYLES.dim);
      const inner = { ...context, first: [...context.first, bar], rest: [...context.rest, bar] };
      return renderChildren(token.tokens ?? [], { ...inner, styles: [...context.styles, STYLES.italic] });
    }
    case 'table':
      return renderTable(token as Tokens.Table, context.width);
    case 'code':
      return String(token.text)
        .split('\n')
        .flatMap((line) => codeRows(decodeEntities(line), context.width, context.first));
    case 'paragraph':
    case 'text':
      if (Array.isArray(token.tokens)) return wrap(inlineRuns(token.tokens, context.styles), context);
      return wrap([run(decodeEntities(String(token.text)), ...context.styles)], context);
    default:
      return wrap([run(decodeEntities(String(token.raw).trimEnd()), ...context.styles)], context);
  }
}
