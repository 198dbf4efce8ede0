/**
 * In Chromium: signing in with the printed one-time link (cookie flags, the code gone from the address
 * bar, usable once), a page on another loopback port that can neither read nor change anything, and a
 * DNS-rebound name (`evil.example` resolved to 127.0.0.1) that is refused.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../e2e/harness.js';
import { apiCall, launchBrowser, SCREENSHOTS, startWebServe, type WebServe } from './harness.js';
import type { Browser } from 'playwright-core';

let harness: Harness;
let serve: WebServe;
let browser: Browser;
let otherSite: Server;
let otherUrl = '';

beforeAll(async () => {
  harness = await createHarness();
  serve = await startWebServe(harness);
  const port = new URL(serve.url).port;
  // `evil.example` resolves to this machine, as a rebinding attacker's name would.
  browser = await launchBrowser([`--host-resolver-rules=MAP evil.example 127.0.0.1`]);
  otherSite = createServer((_request, response) => {
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
    await context.close();
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
