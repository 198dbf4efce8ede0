/**
 * The browser suite's harness: the built `cody serve` with a temporary CODY_HOME against the in-process
 * fake provider (with a per-chunk delay, so a reply streams for a while), and Chromium from the system
 * (`/usr/bin/chromium`, driven by playwright-core). One browser per test file keeps the suite quick.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CODY_BIN, createHarness, REPO_ROOT, type Harness } from '../e2e/harness.js';

export const CHROMIUM_PATH = process.env.CODY_TEST_CHROMIUM ?? '/usr/bin/chromium';
/**
 * Where the tests save their screenshots of the main screens: dist/screenshots (not committed) on every
 * run, so `npm test` leaves the work tree clean; docs/screenshots (committed, the README shows them) when
 * CODY_UPDATE_SCREENSHOTS=1.
 */
export const SCREENSHOTS = join(
  REPO_ROOT,
  ...(process.env.CODY_UPDATE_SCREENSHOTS === '1' ? ['docs', 'screenshots'] : ['dist', 'screenshots']),
);

export interface WebServe {
  url: string;
  token: string;
  /** The one-time sign-in link the server printed. */
  signInUrl: string;
  child: ChildProcess;
  stderr(): string;
  stop(): Promise<number | null>;
}

/** Starts `cody serve --port 0` (extra args after) and waits for its sign-in link. */
export async function startWebServe(
  harness: Harness,
  args: string[] = [],
  command = 'serve',
): Promise<WebServe> {
  const child = spawn(process.execPath, [CODY_BIN, command, '--port', '0', ...args], {
    cwd: harness.home,
    env: harness.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const found = await new Promise<{ url: string; signInUrl: string }>((resolve, reject) => {
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
      const signInUrl = /(http:\/\/\S+\/#code=[\w-]+)/.exec(stderr)?.[1];
      if (url && signInUrl) resolve({ url, signInUrl });
      else if (url && command === 'web' && /cody web: opened/.test(stderr)) resolve({ url, signInUrl: '' });
    });
    void exited.then((code) => reject(new Error(`cody ${command} exited ${code}: ${stderr}`)));
  });
  const token = (await readFile(join(harness.env.CODY_HOME ?? '', 'serve-token'), 'utf8')).trim();
  return {
    ...found,
    token,
    child,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export async function launchBrowser(args: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', ...args] });
}

export interface WebSuite {
  harness: Harness;
  serve: WebServe;
  browser: Browser;
  context: BrowserContext;
  /** A page of the signed-in context. */
  page: Page;
  /** Every request the context's pages made to anywhere but the server (the page must work offline). */
  foreignRequests: string[];
  close(): Promise<void>;
}

/**
 * A server, a browser, and one context signed in with the printed link (pages of that context share the
 * session cookie).
 */
/**
 * The model the browser suites were written against, pinned so a change of Cody's default model (issue
 * 33) does not change what they assert (its price, its window).
 */
const SUITE_CONFIG = { provider: 'openai', model: 'gpt-4.1-mini' };

export async function startWebSuite(options: { chunkDelayMs?: number } = {}): Promise<WebSuite> {
  const harness = await createHarness(options);
  await harness.writeConfig(SUITE_CONFIG);
  const serve = await startWebServe(harness);
  const browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1200, height: 760 } });
  // Anything the Content-Security-Policy blocks is a page bug (or an attack that got as far as the DOM).
  await context.addInitScript(
    "document.addEventListener('securitypolicyviolation', (event) => ((window.__cspViolations ??= []).push(event.violatedDirective + ' ' + event.blockedURI)));",
  );
  const foreignRequests: string[] = [];
  context.on('request', (request) => {
    if (!request.url().startsWith(`${serve.url}/`)) foreignRequests.push(request.url());
  });
  const page = await context.newPage();
  await page.goto(serve.signInUrl);
  await page.locator('.layout').waitFor();
  return {
    harness,
    serve,
    browser,
    context,
    page,
    foreignRequests,
    close: async () => {
      await browser.close();
      await serve.stop();
      await harness.close();
    },
  };
}

/** A bearer-token call to the server (what a program does), for setting up and checking. */
export async function apiCall(
  serve: WebServe,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${serve.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${serve.token}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return response.json();
}
