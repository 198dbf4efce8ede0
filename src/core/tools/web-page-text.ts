/**
 * HTML as the model reads it: the main content (Readability on linkedom's DOM, the whole body when it
 * finds none) → Markdown (turndown). Loaded only by the page worker (web-page-worker.ts).
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
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
