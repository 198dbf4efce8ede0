/**
 * In Chromium: signing in with the printed one-time link (cookie flags, the code gone from the address
 * bar, usable once), a page on another loopback port that can neither read nor change anything, the
 * session cookie that port is sent refused when replayed (the session's secret is in the page's
 * sessionStorage), reload and sign-out, and a DNS-rebound name (`evil.example` resolved to 127.0.0.1)
 * that is refused.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../e2e/harness.js';
import { apiCall, launchBrowser, SCREENSHOTS, startWebServe, type WebServe } from './harness.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';

let harness: Harness;
let serve: WebServe;
let browser: Browser;
let otherSite: Server;
let otherUrl = '';
/** The context and page the printed link signed in (the link works once): the later tests go on with it. */
let linked: { context: BrowserContext; page: Page };
/** The Cookie headers the browser sent to the other port. */
const otherCookies: string[] = [];

beforeAll(async () => {
  harness = await createHarness();
  serve = await startWebServe(harness);
  const port = new URL(serve.url).port;
  // `evil.example` resolves to this machine, as a rebinding attacker's name would.
  browser = await launchBrowser([`--host-resolver-rules=MAP evil.example 127.0.0.1`]);
  otherSite = createServer((request, response) => {
    if (request.headers.cookie !== undefined) otherCookies.push(request.headers.cookie);
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<!doctype html><title>another site</title><p>another site</p>');
  });
  await new Promise<void>((resolve) => otherSite.listen(0, '127.0.0.1', resolve));
  otherUrl = `http://127.0.0.1:${(otherSite.address() as AddressInfo).port}`;
  expect(port).not.toBe('');
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => otherSite?.close(resolve));
  await serve?.stop();
  await harness?.close();
});

describe('signing the browser in', () => {
  it('trades the printed one-time link for an HttpOnly SameSite=Strict cookie and removes the code', async () => {
    expect(serve.signInUrl).toMatch(new RegExp(`^${serve.url}/#code=`));
    const context = await browser.newContext({ viewport: { width: 1200, height: 760 } });
    const page = await context.newPage();
    await page.goto(serve.signInUrl);
    await page.locator('.layout').waitFor();
    expect(page.url()).toBe(`${serve.url}/`);
    expect(await page.evaluate('location.hash')).toBe('');
    // replaceState: the entry that held the code was replaced, so no history entry holds it.
    expect(await page.evaluate('history.length')).toBe(2);
    const cookies = await context.cookies(serve.url);
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookies[0]?.name).toMatch(/^cody_session_\d+$/);
    expect(cookies[0]?.value).not.toContain(serve.token);
    expect(await page.evaluate('document.cookie')).toBe('');
    await page.screenshot({ path: join(SCREENSHOTS, 'web-empty.png') });
    linked = { context, page };

    // The same link in a fresh browser: refused, with the sign-in form and why.
    const second = await browser.newContext();
    const again = await second.newPage();
    await again.goto(serve.signInUrl);
    await again.locator('.sign-in').waitFor();
    await expect
      .poll(() => again.locator('.sign-in [role=alert]').textContent())
      .toMatch(/already used|expired/);
    expect(await second.cookies(serve.url)).toEqual([]);
    await again.screenshot({ path: join(SCREENSHOTS, 'web-sign-in.png') });
    // Pasting the API token signs it in.
    await again.locator('.sign-in input[type=password]').fill(serve.token);
    await again.locator('.sign-in button[type=submit]').click();
    await again.locator('.layout').waitFor();
    await second.close();
  });
});

describe('other pages and names', () => {
  it('a page on another loopback port can neither read nor change anything, even with a session', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(serve.signInUrl.replace(/#code=.*/, ''));
    // Signed in (by token) so the browser holds a session cookie the other page's requests would carry.
    await page.locator('.sign-in input[type=password]').fill(serve.token);
    await page.locator('.sign-in button[type=submit]').click();
    await page.locator('.layout').waitFor();
    const before = (await apiCall(serve, 'GET', '/conversations')) as { conversations: unknown[] };

    const other = await context.newPage();
    await other.goto(otherUrl);
    const outcome = await other.evaluate(`(async (api) => {
      const result = {};
      try {
        const read = await fetch(api + '/conversations', { credentials: 'include' });
        result.read = 'read ' + read.status + ' ' + (await read.text());
      } catch (error) { result.read = 'blocked'; }
      try {
        const posted = await fetch(api + '/conversations', { method: 'POST', credentials: 'include',
          headers: { 'content-type': 'application/json', 'x-cody-request': '1' }, body: '{}' });
        result.post = 'posted ' + posted.status;
      } catch (error) { result.post = 'blocked'; }
      try {
        await fetch(api + '/conversations', { method: 'POST', mode: 'no-cors', credentials: 'include',
          headers: { 'content-type': 'text/plain' }, body: '{}' });
        result.simple = 'sent';
      } catch (error) { result.simple = 'blocked'; }
      return result;
    })(${JSON.stringify(serve.url)})`);
    expect(outcome).toMatchObject({ read: 'blocked', post: 'blocked' });
    // A "simple" request leaves the browser, but the server refuses it: nothing was made.
    const after = (await apiCall(serve, 'GET', '/conversations')) as { conversations: unknown[] };
    expect(after.conversations).toHaveLength(before.conversations.length);
    await context.close();
  });

  it('a cookie another port is sent cannot be replayed; reload keeps the session, sign-out ends it', async () => {
    const { context, page } = linked;
    const secret = String(await page.evaluate("sessionStorage.getItem('cody.session')"));
    expect(secret).toMatch(/^[\w-]{40,}$/);
    // The browser sends the session cookie to another service on this host (another port)…
    const other = await context.newPage();
    await other.goto(otherUrl);
    const stolen = otherCookies.at(-1)?.match(/cody_session_\d+=[\w-]+/)?.[0] ?? '';
    expect(stolen).not.toBe('');
    // …which replays it with X-Cody-Request: refused, nothing made.
    const replay = (headers: Record<string, string>) =>
      fetch(`${serve.url}/conversations`, {
        method: 'POST',
        headers: { cookie: stolen, 'x-cody-request': '1', 'content-type': 'application/json', ...headers },
        body: '{}',
      });
    const count = async () =>
      ((await apiCall(serve, 'GET', '/conversations')) as { conversations: unknown[] }).conversations.length;
    const before = await count();
    const refused = await replay({});
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'session-secret' } });
    expect((await replay({ origin: serve.url })).status).toBe(403);
    expect(await count()).toBe(before);
    // The page itself keeps working, after a reload too (the secret is in this tab's sessionStorage).
    await page.reload();
    await page.locator('.layout').waitFor();
    // A conversation a program makes shows up at once: the list's event stream carries the secret too
    // (quicker than the 5 s poll the page falls back to without a stream).
    const made = (await apiCall(serve, 'POST', '/conversations', {})) as { id: string };
    await apiCall(serve, 'POST', `/conversations/${made.id}/messages`, { text: 'after a reload' });
    await page.locator(`.conversation-item[data-id="${made.id}"]`).waitFor({ timeout: 4_000 });
    // A new tab of the page gets the secret from the tab already signed in.
    const tab = await context.newPage();
    await tab.goto(serve.url);
    await tab.locator('.layout').waitFor();
    // Sign out: the page says so, and the old cookie with its secret is refused.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.locator('.sign-in').waitFor();
    expect(await page.locator('.sign-in [role=status]').innerText()).toMatch(/Signed out/);
    expect(await page.evaluate("sessionStorage.getItem('cody.session')")).toBeNull();
    await tab.locator('.sign-in').waitFor();
    const after = await replay({ 'x-cody-session': secret });
    expect(after.status).toBe(401);
    await context.close();
  });

  it('refuses a page reached by another name (DNS rebinding): Host evil.example gets 421', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const port = new URL(serve.url).port;
    const response = await page.goto(`http://evil.example:${port}/`);
    expect(response?.status()).toBe(421);
    const api = await page.goto(`http://evil.example:${port}/conversations`);
    expect(api?.status()).toBe(421);
    await context.close();
  });
});
