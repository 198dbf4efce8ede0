/**
 * Inline Markdown tokens (from marked's lexer) to styled runs: emphasis, code spans, links, breaks. The
 * tokens hold the source text, already sanitised; styles are attached to runs, never spliced into text.
 */
import type { Token } from 'marked';
import { sanitizeForTerminal } from './sanitize.js';
import { LINE_BREAK, run, STYLES, type Run, type Style } from './markdown-text.js';

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The common HTML entities models write; a numeric one that names a control character stays escaped. */
export function decodeEntities(text: string): string {
  const decoded = text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]+);/gi, (entity, name: string) => {
    if (!name.startsWith('#')) return NAMED[name.toLowerCase()] ?? entity;
    const code =
      name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
  return sanitizeForTerminal(decoded);
}

const childTokens = (token: Token): Token[] | undefined =>
  'tokens' in token && Array.isArray(token.tokens) ? (token.tokens as Token[]) : undefined;

function linkRuns(label: Run[], href: string, styles: readonly Style[]): Run[] {
  const url = run(href, ...styles, STYLES.underline);
  const text = label.map((piece) => piece.text).join('');
  if (text === href || `mailto:${text}` === href || text === '') return [url];
  return [...label, run(' (', ...styles), url, run(')', ...styles)];
}

/** Runs for a list of inline tokens, each carrying `styles` plus its own. */
export function inlineRuns(tokens: readonly Token[], styles: readonly Style[] = []): Run[] {
  const runs: Run[] = [];
  for (const token of tokens) runs.push(...tokenRuns(token, styles));
  return runs;
}

function tokenRuns(token: Token, styles: readonly Style[]): Run[] {
  const children = childTokens(token);
  switch (token.type) {
    case 'strong':
      return inlineRuns(children ?? [], [...styles, STYLES.bold]);
    case 'em':
      return inlineRuns(children ?? [], [...styles, STYLES.italic]);
    case 'del':
      return inlineRuns(children ?? [], [...styles, STYLES.strike]);
    case 'codespan':
      return [run(decodeEntities(String(token.text)), ...styles, STYLES.cyan)];
    case 'br':
      return [LINE_BREAK];
    case 'link':
      return linkRuns(inlineRuns(children ?? [], styles), decodeEntities(String(token.href)), styles);
    case 'image':
      return [
        run(`[image: ${decodeEntities(String(token.text))}] (`, ...styles),
        run(decodeEntities(String(token.href)), ...styles, STYLES.underline),
        run(')', ...styles),
      ];
    case 'html':
      // A <br> (in a table cell, in a line) is a line break, though not the end of a source line: its
      // own run, not LINE_BREAK. Any other tag is shown as written.
      if (/^<br\s*\/?>$/i.test(String(token.text))) return [{ text: '\n', styles: [] }];
      return [run(decodeEntities(String(token.text)), ...styles)];
    case 'checkbox':
      return [run(token.checked === true ? '[x] ' : '[ ] ', ...styles)];
    default:
      if (children) return inlineRuns(children, styles);
      return [run(decodeEntities(String('text' in token ? token.text : token.raw)), ...styles)];
  }
}
