/**
 * The page worker (a worker thread, started by web-page-convert.ts for each page): the nesting check,
 * then HTML → Markdown. It runs off the main thread so a page that is slow to convert never holds up
 * Cody's signals, its prompt or `cody serve`; the main thread bounds its time and memory. Bundled as an
 * entry of its own (dist/bundle/web-page-worker.js, scripts/bundle.js).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { htmlNestingDepth } from './web-page-depth.js';

/** What the worker is given. */
export interface PageJob {
  html: string;
  maxDepth: number;
}

/** What it answers: the Markdown, or why there is none. */
export type PageJobResult =
  | { ok: true; text: string }
  | { ok: false; reason: 'too-deep'; depth: number }
  | { ok: false; reason: 'failed'; message: string };

async function convert(job: PageJob): Promise<PageJobResult> {
  const depth = htmlNestingDepth(job.html, job.maxDepth);
  if (depth > job.maxDepth) return { ok: false, reason: 'too-deep', depth };
  // Loaded after the check: a page refused for its depth never pays for the DOM and Markdown libraries.
  const { htmlToMarkdown } = await import('./web-page-text.js');
  try {
    return { ok: true, text: htmlToMarkdown(job.html) };
  } catch (error) {
    // Past the stack (stackSizeMb), the recursion of the converter is a RangeError: too deep after all.
    if (error instanceof RangeError) return { ok: false, reason: 'too-deep', depth };
    return { ok: false, reason: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.postMessage(await convert(workerData as PageJob));
