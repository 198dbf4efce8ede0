/**
 * A fetched page as the model reads it: HTML → the main content (Readability on linkedom's DOM, the whole
 * body when it finds none) → Markdown (turndown); other text types as they are. Loaded only by web_fetch.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import type { FetchedPage } from './web-fetch-net.js';

export function pageText(page: Extract<FetchedPage, { ok: true }>): Promise<string> {
  const text = page.body.toString('utf8');
  const html = page.contentType === 'text/html' || page.contentType === 'application/xhtml+xml';
  return Promise.resolve(html ? htmlToMarkdown(text) : text);
}

export function htmlToMarkdown(html: string): string {
  const turndown = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
  });
  turndown.remove(['script', 'style', 'noscript', 'iframe']);
  const article = mainContent(html);
  const body = turndown.turndown(article?.content ?? bodyOf(html)).trim();
  const title = article?.title?.trim();
  return title && !body.startsWith(`# ${title}`) ? `# ${title}\n\n${body}` : body;
}

function mainContent(html: string): { title?: string | null; content?: string | null } | undefined {
  try {
    const { document } = parseHTML(html);
    const article = new Readability(
      document as unknown as ConstructorParameters<typeof Readability>[0],
    ).parse();
    return article?.content ? article : undefined;
  } catch {
    return undefined;
  }
}

function bodyOf(html: string): string {
  try {
    const { document } = parseHTML(html);
    return document.body?.innerHTML ?? html;
  } catch {
    return html;
  }
}
