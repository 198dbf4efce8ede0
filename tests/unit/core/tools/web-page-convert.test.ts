/**
 * web_fetch converts a page in a worker thread within limits (issue 36, item 7): pages of 1,000, 2,000 and
 * 5,000 unclosed `<div>`s (22 s, a stack overflow, and over 14 minutes on the main thread before) get a
 * short error while the main thread keeps ticking; a slow page within the limits is stopped at once by
 * the call's abort signal (its worker ended) or by the time limit; at most two pages convert at once; a
 * page too large, or one that needs more memory than the worker has, gets a short error too.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolRuntime, type CodyToolRuntime } from '../../../../src/core/tools/runtime.js';
import type { ToolResult } from '../../../../src/core/tools/tool-decision.js';
import { convertPage, runningPageWorkers } from '../../../../src/core/tools/web-page-convert.js';

const SECTION =
  '<section><h2>A heading</h2><p>A paragraph with <a href="/next">a link</a> and <em>some emphasis</em>, long enough to read as text.</p><ul><li>one</li><li>two</li></ul></section>';
/** 1.9 MB of ordinary article HTML (within the limits): seconds of work for Readability and turndown. */
const SLOW_PAGE = `<html><body><article>${SECTION.repeat(Math.floor((1.9 * 1024 * 1024) / SECTION.length))}</article></body></html>`;
const unclosedDivs = (count: number): string => `<html><body>${'<div>x'.repeat(count)}</body></html>`;

const pages = new Map<string, string>();
let server: Server;
let base: string;
let dir: string;
let tools: CodyToolRuntime;

beforeAll(async () => {
  server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end(pages.get(request.url ?? '') ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'cody-web-convert-'));
  tools = createToolRuntime({
    cwd: dir,
    policy: 'full-auto',
    webFetch: { allowPrivate: true },
    detectSandbox: () => ({ available: false, why: 'test' }),
  });
  // The first call from the TypeScript sources bundles the worker (web-page-worker-script.ts): not timed here.
  await convertPage(textPage('<p>warm</p>'));
});

afterAll(async () => {
  await tools.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

function textPage(html: string): Parameters<typeof convertPage>[0] {
  return {
    ok: true,
    url: 'https://example.com/page',
    status: 200,
    contentType: 'text/html',
    body: Buffer.from(html),
    truncated: false,
  };
}

/** Serves `html` at `path`; returns its URL. */
function serve(path: string, html: string): string {
  pages.set(path, html);
  return `${base}${path}`;
}

/** Runs web_fetch on `url` as a turn would, with the longest gap between 10 ms ticks of the main thread. */
async function fetchWhileTicking(
  url: string,
  signal?: AbortSignal,
): Promise<{ result: ToolResult; longestGapMs: number }> {
  let last = performance.now();
  let longestGapMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
  }, 10);
  try {
    const call = {
      type: 'function_call' as const,
      name: 'web_fetch',
      arguments: JSON.stringify({ url }),
      call_id: 'fetch_1',
    };
    const result = await tools.run(call, signal ? { signal } : {});
    return { result, longestGapMs: Math.max(longestGapMs, performance.now() - last) };
  } finally {
    clearInterval(ticker);
  }
}

/** Far below the seconds a conversion on the main thread held it, with room for a loaded machine. */
const RESPONSIVE_MS = 500;

describe('web_fetch page conversion off the main thread', () => {
  it.each([1_000, 2_000, 5_000])(
    'a page of %i unclosed <div>s gets a short error, the main thread ticking meanwhile',
    async (count) => {
      const url = serve(`/divs-${count}`, unclosedDivs(count));
      const { result, longestGapMs } = await fetchWhileTicking(url);
      expect(result).toEqual({
        status: 'error',
        output: `Error: the page at ${url} is too deeply nested to convert (over 256 levels)`,
      });
      expect(longestGapMs).toBeLessThan(RESPONSIVE_MS);
    },
  );

  it('the abort signal stops a slow conversion at once and ends its worker', async () => {
    const url = serve('/slow', SLOW_PAGE);
    const controller = new AbortController();
    let abortedAt = 0;
    const abort = setTimeout(() => {
      abortedAt = performance.now();
      controller.abort();
    }, 800);
    const { result, longestGapMs } = await fetchWhileTicking(url, controller.signal);
    clearTimeout(abort);
    expect(abortedAt).toBeGreaterThan(0);
    expect(performance.now() - abortedAt).toBeLessThan(RESPONSIVE_MS);
    expect(result).toEqual({ status: 'error', output: 'Error: the fetch was stopped' });
    expect(longestGapMs).toBeLessThan(RESPONSIVE_MS);
    await expect.poll(() => runningPageWorkers(), { timeout: 2_000 }).toBe(0);
  });

  it('a conversion past the time limit gets a short error, and its worker is ended', async () => {
    const started = performance.now();
    expect(await convertPage(textPage(SLOW_PAGE), { timeoutMs: 300 })).toEqual({
      ok: false,
      error: 'the page at https://example.com/page took longer than 0.3 s to convert',
    });
    expect(performance.now() - started).toBeLessThan(300 + RESPONSIVE_MS);
    await expect.poll(() => runningPageWorkers(), { timeout: 2_000 }).toBe(0);
  });

  it('converts at most two pages at once; a call waiting its turn is stopped at once', async () => {
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, runningPageWorkers())), 5);
    const timed = [1, 2, 3].map(() => convertPage(textPage(SLOW_PAGE), { timeoutMs: 400 }));
    const waiting = new AbortController();
    const stopped = convertPage(textPage(SLOW_PAGE), { signal: waiting.signal });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stoppedAt = performance.now();
    waiting.abort();
    expect(await stopped).toEqual({ ok: false, error: 'the fetch was stopped' });
    expect(performance.now() - stoppedAt).toBeLessThan(RESPONSIVE_MS);
    const results = await Promise.all(timed);
    clearInterval(sampler);
    for (const result of results)
      expect(result).toEqual({
        ok: false,
        error: 'the page at https://example.com/page took longer than 0.4 s to convert',
      });
    expect(most).toBe(2);
    await expect.poll(() => runningPageWorkers(), { timeout: 2_000 }).toBe(0);
  });

  it('a page over 2 MB of HTML is refused before it is parsed', async () => {
    const paragraph = '<p>A paragraph of ordinary text, repeated to make the page large.</p>';
    const url = serve('/large', `<html><body>${paragraph.repeat(40_000)}</body></html>`);
    const { result } = await fetchWhileTicking(url);
    expect(result).toEqual({
      status: 'error',
      output: `Error: the page at ${url} is too large to convert (2.6 MB of HTML, over 2 MB)`,
    });
  });

  it('a page that needs more memory than the worker has gets a short error', async () => {
    const paragraph = '<p>A paragraph of ordinary text with <a href="/x">a link</a> in it.</p>';
    const converted = await convertPage(textPage(`<html><body>${paragraph.repeat(20_000)}</body></html>`), {
      maxHeapMb: 8,
    });
    expect(converted).toEqual({
      ok: false,
      error: 'the page at https://example.com/page needed more than 8 MB of memory to convert',
    });
  });

  it('a page within the limits converts as before', async () => {
    const url = serve(
      '/ok',
      '<html><head><title>Fine</title></head><body><p>One <b>two</b></p></body></html>',
    );
    const { result, longestGapMs } = await fetchWhileTicking(url);
    expect(result).toEqual({ status: 'ok', output: `URL: ${url}\n\n# Fine\n\nOne **two**` });
    expect(longestGapMs).toBeLessThan(RESPONSIVE_MS);
  });
});
