/**
 * A fetched page as the model reads it: HTML converted to Markdown in a worker thread (web-page-worker.ts),
 * other text as it is. The worker runs within limits — the HTML's size, its nesting depth, the worker's
 * heap and stack, a wall-clock time — and a page past any of them gives the model a short error. The call's
 * abort signal (Ctrl-C, SIGTERM, a DELETE in `cody serve`) ends the worker at once.
 */
import { Worker } from 'node:worker_threads';
import type { FetchedPage } from './web-fetch-net.js';
import type { PageJob, PageJobResult } from './web-page-worker.js';
import { givePageSlotBack, takePageSlot } from './web-page-slots.js';
import { pageWorkerScript } from './web-page-worker-script.js';

/** Deeper than any real page (Lighthouse calls past 32 excessive); 1,000 levels took Readability 6 s. */
export const WEB_PAGE_MAX_DEPTH = 256;
/** Converting 2 MB of HTML took ~4 s and ~280 MB of heap; more is refused rather than converted. */
export const WEB_PAGE_MAX_HTML_BYTES = 2 * 1024 * 1024;
/** The worker's heap: room for the largest page allowed (above), not for the whole machine. */
export const WEB_PAGE_MAX_HEAP_MB = 512;
/** The worker's stack (Node's default), stated: a deeper recursion fails in the worker, not in Cody. */
export const WEB_PAGE_STACK_MB = 4;
/** The longest a conversion may take, starting the worker included (the fetch itself has 10 s). */
export const WEB_PAGE_TIMEOUT_MS = 15_000;

export interface ConvertPageOptions {
  signal?: AbortSignal;
  /** Tests lower the limits. */
  maxDepth?: number;
  maxHtmlBytes?: number;
  maxHeapMb?: number;
  timeoutMs?: number;
}

export type ConvertedPage = { ok: true; text: string } | { ok: false; error: string };

type Limits = Required<Omit<ConvertPageOptions, 'signal'>>;

let running = 0;

/** Page workers started and not yet exited (a stopped call's worker is gone within moments). */
export function runningPageWorkers(): number {
  return running;
}

export async function convertPage(
  page: Extract<FetchedPage, { ok: true }>,
  options: ConvertPageOptions = {},
): Promise<ConvertedPage> {
  const text = page.body.toString('utf8');
  if (page.contentType !== 'text/html' && page.contentType !== 'application/xhtml+xml')
    return { ok: true, text };
  const limits: Limits = {
    maxDepth: options.maxDepth ?? WEB_PAGE_MAX_DEPTH,
    maxHtmlBytes: options.maxHtmlBytes ?? WEB_PAGE_MAX_HTML_BYTES,
    maxHeapMb: options.maxHeapMb ?? WEB_PAGE_MAX_HEAP_MB,
    timeoutMs: options.timeoutMs ?? WEB_PAGE_TIMEOUT_MS,
  };
  const where = `the page at ${page.url}`;
  if (page.body.length > limits.maxHtmlBytes)
    return {
      ok: false,
      error: `${where} is too large to convert (${megabytes(page.body.length)} MB of HTML, over ${megabytes(limits.maxHtmlBytes)} MB)`,
    };
  const outcome = await runWorker({ html: text, maxDepth: limits.maxDepth }, limits, options.signal);
  if (outcome.ok) return outcome;
  switch (outcome.reason) {
    case 'too-deep':
      return {
        ok: false,
        error: `${where} is too deeply nested to convert (over ${limits.maxDepth} levels)`,
      };
    case 'timeout':
      return { ok: false, error: `${where} took longer than ${limits.timeoutMs / 1000} s to convert` };
    case 'memory':
      return { ok: false, error: `${where} needed more than ${limits.maxHeapMb} MB of memory to convert` };
    case 'stopped':
      return { ok: false, error: 'the fetch was stopped' };
    case 'failed':
      return { ok: false, error: `${where} could not be converted: ${outcome.message}` };
  }
}

type WorkerOutcome =
  | PageJobResult
  | { ok: false; reason: 'timeout' | 'memory' | 'stopped' }
  | { ok: false; reason: 'failed'; message: string };

/** One worker for this page, once a slot is free: its answer, or why it was ended. */
async function runWorker(
  job: PageJob,
  limits: Limits,
  signal: AbortSignal | undefined,
): Promise<WorkerOutcome> {
  if (!(await takePageSlot(signal))) return { ok: false, reason: 'stopped' };
  let started = false;
  try {
    const script = await pageWorkerScript();
    if (signal?.aborted === true) return { ok: false, reason: 'stopped' };
    const outcome = startWorker(script, job, limits, signal);
    started = true;
    return await outcome;
  } finally {
    if (!started) givePageSlotBack();
  }
}

/** Starts the worker; its slot is given back when it has exited (a terminated worker too). */
function startWorker(
  script: URL,
  job: PageJob,
  limits: Limits,
  signal: AbortSignal | undefined,
): Promise<WorkerOutcome> {
  const worker = new Worker(script, {
    workerData: job,
    execArgv: [],
    stdout: true,
    stderr: true,
    resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb, stackSizeMb: WEB_PAGE_STACK_MB },
  });
  running += 1;
  worker.once('exit', () => {
    running -= 1;
    givePageSlotBack();
  });
  // A library's console output would land in the middle of Cody's screen.
  worker.stdout.resume();
  worker.stderr.resume();
  return new Promise((resolve) => {
    const settle = (outcome: WorkerOutcome): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      worker
        .removeListener('message', settle)
        .removeListener('error', onError)
        .removeListener('exit', onExit);
      worker.on('error', () => undefined);
      void worker.terminate();
      resolve(outcome);
    };
    const onAbort = (): void => settle({ ok: false, reason: 'stopped' });
    const onError = (error: Error & { code?: string }): void =>
      settle(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? { ok: false, reason: 'memory' }
          : { ok: false, reason: 'failed', message: error.message },
      );
    const onExit = (code: number): void =>
      settle({ ok: false, reason: 'failed', message: `the converter stopped (exit code ${code})` });
    const timer = setTimeout(() => settle({ ok: false, reason: 'timeout' }), limits.timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', settle).on('error', onError).on('exit', onExit);
  });
}

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '');
}
