/**
 * web_fetch's network side against loopback page servers: HTML to Markdown (main content), text as it
 * is, binary refused, at most 5 MB read, at most 5 redirects, the timeout, http(s) only, and private
 * addresses refused (directly, and through a redirect from a host that passed the check), with the
 * connection made to the address that was checked.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { privateAddressReason } from '../../../../src/core/tools/web-address.js';
import { fetchPage, WEB_FETCH_MAX_BYTES } from '../../../../src/core/tools/web-fetch-net.js';
import { convertPage } from '../../../../src/core/tools/web-page-convert.js';
import { hostAllowed } from '../../../../src/core/tools/web-fetch.js';

const ARTICLE = `<!doctype html><html><head><title>Release notes</title><script>window.secret = 1</script></head>
<body><nav><a href="/">Home</a> · <a href="/blog">Blog</a></nav>
<article><h1>Release notes</h1><p>Version 2 adds <strong>plans</strong> and <a href="https://example.com/docs">docs</a>.</p>
<p>It also fixes a long list of bugs reported by users over the last months, which we are grateful for.</p>
<ul><li>First fix</li><li>Second fix</li></ul><pre><code>npm install cody</code></pre></article>
<footer>© 2026</footer></body></html>`;

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
const servers: Server[] = [];

async function serve(handler: Handler, host = '127.0.0.1'): Promise<{ url: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(`${request.headers.host ?? ''}${request.url ?? ''}`);
    handler(request, response);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { url: `http://${host}:${(server.address() as AddressInfo).port}`, hits };
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const open = { allowPrivate: true };

/** The page as the model reads it (converted in the page worker). */
async function pageText(page: Parameters<typeof convertPage>[0]): Promise<string> {
  const converted = await convertPage(page);
  if (!converted.ok) throw new Error(converted.error);
  return converted.text;
}

describe('web_fetch over the network', () => {
  it('turns an HTML page into Markdown of its main content', async () => {
    const { url } = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
    });
    const page = await fetchPage(`${url}/notes`, open);
    if (!page.ok) throw new Error(page.error);
    const markdown = await pageText(page);
    expect(markdown).toMatch(/^# Release notes/);
    expect(markdown).toContain('Version 2 adds **plans** and [docs](https://example.com/docs).');
    expect(markdown).toMatch(/-\s+First fix/);
    expect(markdown).toContain('```\nnpm install cody\n```');
    expect(markdown).not.toContain('window.secret');
    expect(markdown).not.toContain('<p>');
  });

  it('returns other text types as they are, and refuses binary content', async () => {
    const { url } = await serve((request, response) => {
      if (request.url === '/data.json')
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1}');
      else if (request.url === '/image.png')
        response
          .writeHead(200, { 'content-type': 'image/png' })
          .end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]));
      else response.writeHead(200).end(Buffer.from([1, 2, 0, 3, 0, 4]));
    });
    const json = await fetchPage(`${url}/data.json`, open);
    expect(json.ok && (await pageText(json))).toBe('{"a":1}');
    expect(await fetchPage(`${url}/image.png`, open)).toEqual({
      ok: false,
      error: `${url}/image.png is image/png, not text: web_fetch reads only web pages and text`,
    });
    const untyped = await fetchPage(`${url}/blob`, open);
    expect(untyped.ok ? 'fetched' : untyped.error).toMatch(/looks binary/);
  });

  it('reads at most 5 MB', async () => {
    const { url } = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = 'x'.repeat(1024 * 1024);
      for (let index = 0; index < 7; index += 1) response.write(chunk);
      response.end();
    });
    const page = await fetchPage(url, open);
    if (!page.ok) throw new Error(page.error);
    expect(page.body.length).toBe(WEB_FETCH_MAX_BYTES);
    expect(page.truncated).toBe(true);
  });

  it('follows at most 5 redirects', async () => {
    const { url, hits } = await serve((request, response) => {
      const hop = Number(/\/hop\/(\d+)/.exec(request.url ?? '')?.[1] ?? 0);
      if (hop < 10) response.writeHead(302, { location: `/hop/${hop + 1}` }).end();
      else response.end('end');
    });
    const five = await serve((request, response) => {
      const hop = Number(/\/hop\/(\d+)/.exec(request.url ?? '')?.[1] ?? 0);
      if (hop < 5) response.writeHead(301, { location: `/hop/${hop + 1}` }).end();
      else response.writeHead(200, { 'content-type': 'text/plain' }).end(`arrived after ${hop}`);
    });
    const arrived = await fetchPage(`${five.url}/hop/0`, open);
    expect(arrived.ok && arrived.body.toString()).toBe('arrived after 5');
    expect(arrived.ok && arrived.url).toBe(`${five.url}/hop/5`);
    expect(await fetchPage(`${url}/hop/0`, open)).toEqual({
      ok: false,
      error: `too many redirects (more than 5) from ${url}/hop/0`,
    });
    expect(hits).toHaveLength(6);
  });

  it('refuses loopback and private addresses unless allowed, also after a redirect', async () => {
    const inside = await serve((_request, response) => response.end('internal secret'));
    const refused = await fetchPage(`${inside.url}/`, { allowPrivate: false });
    expect(refused.ok ? 'fetched' : refused.error).toMatch(
      /^web_fetch refuses http:\/\/127\.0\.0\.1:\d+\/: 127\.0\.0\.1 is a loopback address \(set "webFetch": \{ "allowPrivate": true \} in config\.json to allow it\)\.$/,
    );
    const named = await fetchPage(`http://intranet.test:1/`, {
      allowPrivate: false,
      resolve: () => Promise.resolve(['93.184.216.34', '10.0.0.7']),
    });
    expect(named.ok ? 'fetched' : named.error).toMatch(
      /^web_fetch refuses http:\/\/intranet\.test:1\/: intranet\.test resolves to 10\.0\.0\.7, a private address \(set/,
    );
    // A host that passes the check (127.0.0.2 stands in for a public address) redirects to 127.0.0.1.
    const outside = await serve((_request, response) => {
      response.writeHead(302, { location: `${inside.url}/secret` }).end();
    }, '127.0.0.2');
    const redirected = await fetchPage(`${outside.url}/`, {
      allowPrivate: false,
      addressCheck: (address) => (address === '127.0.0.2' ? undefined : privateAddressReason(address)),
    });
    expect(redirected.ok ? 'fetched' : redirected.error).toMatch(
      /^web_fetch refuses http:\/\/127\.0\.0\.1:\d+\/secret: 127\.0\.0\.1 is a loopback address/,
    );
    expect(outside.hits).toHaveLength(1);
    expect(inside.hits).toEqual([]);
  });

  it('connects to the address it checked, sending the host name it was given', async () => {
    const { url, hits } = await serve((_request, response) => response.end('pinned'));
    const port = new URL(url).port;
    const page = await fetchPage(`http://pinned.test:${port}/page`, {
      allowPrivate: true,
      resolve: () => Promise.resolve(['127.0.0.1']),
    });
    expect(page.ok && page.body.toString()).toBe('pinned');
    expect(hits).toEqual([`pinned.test:${port}/page`]);
  });

  it('fetches only http and https, and gives up after the timeout', async () => {
    expect(await fetchPage('file:///etc/passwd', open)).toEqual({
      ok: false,
      error: 'only http and https URLs can be fetched, not file (file:///etc/passwd)',
    });
    const { url } = await serve(() => undefined);
    const started = Date.now();
    expect(await fetchPage(url, { ...open, timeoutMs: 300 })).toEqual({
      ok: false,
      error: `${url} did not answer within 0.3 s`,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('classifies addresses and allowed hosts', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '100.64.0.1',
    ])
      expect(privateAddressReason(address), address).toBeDefined();
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(privateAddressReason(address), address).toBeUndefined();
    expect(hostAllowed('https://docs.example.com/a', ['*.example.com'])).toBe(true);
    expect(hostAllowed('https://example.com/a', ['*.example.com'])).toBe(true);
    expect(hostAllowed('https://evil-example.com/a', ['*.example.com'])).toBe(false);
    expect(hostAllowed('https://Example.COM/a', ['example.com'])).toBe(true);
    expect(hostAllowed('https://example.org/a', ['example.com'])).toBe(false);
  });
});
