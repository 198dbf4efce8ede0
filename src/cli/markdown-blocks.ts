/**
 * Block Markdown tokens (from marked's lexer) to terminal lines: paragraphs, headings, lists and quotes
 * word-wrapped at the terminal width with their marker or bar on the first line and their indentation
 * on continuation lines; code is never wrapped and keeps its highlighting.
 */
import type { Token, Tokens } from 'marked';
import { decodeEntities, inlineRuns } from './markdown-inline.js';
import { renderTable } from './markdown-table.js';
import { displayWidth, run, serialize, STYLES, wrapRuns, type Run, type Style } from './markdown-text.js';

const KEYWORDS = new Set(
  (
    'abstract async await break case catch class const continue def default del do elif else enum export extends ' +
    'false final finally fn for from func function go if impl import in interface is let match mod module mut new ' +
    'nil None null package private protected pub public raise return self static struct super switch this throw ' +
    'true True False try type typeof undefined use var void while with yield'
  ).split(' '),
);

const paint = (style: Style, text: string): string => `${style.open}${text}${style.close}`;

/**
 * Keyword, string, number and comment colouring that works well enough for most languages. One pass
 * over the (sanitised) source line: the escapes it inserts are never scanned again.
 */
export function highlightCode(line: string): string {
  const comment = /^(\s*)(\/\/|#|--)(.*)$/.exec(line);
  if (comment) return `${comment[1] ?? ''}${paint(STYLES.dim, `${comment[2] ?? ''}${comment[3] ?? ''}`)}`;
  return line.replace(
    /("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`)|\b(\d+(?:\.\d+)?)\b|\b([A-Za-z_]\w*)\b/g,
    (match, text: string | undefined, number: string | undefined, word: string | undefined) => {
      if (text !== undefined) return paint(STYLES.green, text);
      if (number !== undefined) return paint(STYLES.yellow, number);
      if (word !== undefined && KEYWORDS.has(word)) return paint(STYLES.magenta, word);
      return match;
    },
  );
}

/** A line of a code block: the dim bar, then the highlighted source, never wrapped. */
export const codeLine = (line: string): string => `${paint(STYLES.dim, '│')} ${highlightCode(line)}`;

export interface BlockContext {
  width: number;
  /** Before the block's first line. */
  first: readonly Run[];
  /** Before its other lines. */
  rest: readonly Run[];
  /** Styles of the surrounding block (a quote is italic). */
  styles: readonly Style[];
}

const wrap = (runs: Run[], context: BlockContext): string[] =>
  wrapRuns(runs, context).map((line) => serialize(line));

function renderList(list: Tokens.List, context: BlockContext): string[] {
  const lines: string[] = [];
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
    if (tokens.length === 0) lines.push(serialize([...lead, run(marker, STYLES.cyan), ...box]));
  });
  return lines;
}

function renderChildren(tokens: readonly Token[], context: BlockContext): string[] {
  const lines: string[] = [];
  tokens
    .filter((token) => token.type !== 'space')
    .forEach((token, index) => {
      lines.push(...renderBlock(token, index === 0 ? context : { ...context, first: context.rest }));
    });
  return lines;
}

/** The lines (without newlines) a block token shows as. */
export function renderBlock(token: Token, context: BlockContext): string[] {
  switch (token.type) {
    case 'space':
      return [];
    case 'heading': {
      const styles = token.depth <= 2 ? [STYLES.bold, STYLES.cyan] : [STYLES.bold];
      return wrap(inlineRuns(token.tokens ?? [], [...context.styles, ...styles]), context);
    }
    case 'hr':
      return [serialize([...context.first, run('─'.repeat(Math.min(40, context.width)), STYLES.dim)])];
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
        .map((line) => serialize(context.first) + codeLine(decodeEntities(line)));
    case 'paragraph':
    case 'text':
      if (Array.isArray(token.tokens)) return wrap(inlineRuns(token.tokens, context.styles), context);
      return wrap([run(decodeEntities(String(token.text)), ...context.styles)], context);
    default:
      return wrap([run(decodeEntities(String(token.raw).trimEnd()), ...context.styles)], context);
  }
}
