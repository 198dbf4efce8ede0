/**
 * The SDKs' fetch on node:http: what reaches the wire, streaming, cancellation, failures, redirects and
 * compression behave as the built-in fetch does, and the SDK timeouts still fire through it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicClient } from '../../../src/providers/anthropic-messages/client.js';
import { createOpenAIChatClient } from '../../../src/providers/openai-chat/client.js';
import { nodeHttpFetch } from '../../../src/providers/shared/node-http-fetch.js';
import { collectEvents } from '../../providers/collect-events.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const seen: Seen[] = [];
let release: (() => void) | undefined;
let server: Server;
let base: string;

function route(request: IncomingMessage, response: ServerResponse, body: string): void {
  seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
  const path = request.url ?? '';
  if (path === '/json') {
    response.writeHead(201, { 'content-type': 'application/json', 'x-multi': ['a', 'b'] });
    response.end(JSON.stringify({ echo: body }));
  } else if (path === '/stream') {
    // The first chunk goes out at once; the rest only when the test releases it.
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('data: one\n\n');
    release = () => response.end('data: two\n\n');
  } else if (path === '/gzip') {
    response.writeHead(200, { 'content-encoding': 'gzip' });
    response.end(gzipSync('compressed text'));
  } else if (path === '/redirect') {
    response.writeHead(307, { location: '/json' });
    response.end();
  } else if (path === '/see-other') {
    response.writeHead(303, { location: '/json' });
    response.end();
  } else if (path === '/cut') {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('data: partial\n\n');
    setTimeout(() => response.socket?.destroy(), 20);
  } else if (path.includes('/hang')) {
    // Never answers: only a timeout or an abort ends the request.
  } else {
    response.writeHead(204);
    response.end();
  }
}

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => route(request, response, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('nodeHttpFetch', () => {
  it('sends method, headers and body, and returns status, headers and text', async () => {
    const response = await nodeHttpFetch(`${base}/json`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.url).toBe(`${base}/json`);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-multi')).toBe('a, b');
    expect(await response.json()).toEqual({ echo: '{"a":1}' });
    const request = seen.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.headers.authorization).toBe('Bearer k');
    expect(request.headers['content-length']).toBe('7');
  });

  it('streams the body as it arrives', async () => {
    const response = await nodeHttpFetch(`${base}/stream`);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: one\n\n');
    release?.();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('data: two\n\n');
  });

  it('an abort before the answer rejects with the AbortError', async () => {
    const controller = new AbortController();
    const pending = nodeHttpFetch(`${base}/hang`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect(nodeHttpFetch(`${base}/json`, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('an abort mid-stream errors the body with the AbortError', async () => {
    const controller = new AbortController();
    const response = await nodeHttpFetch(`${base}/stream`, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('a refused connection rejects with "fetch failed" and the cause', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const failure = await nodeHttpFetch(`http://127.0.0.1:${port}/`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe('fetch failed');
    expect(((failure as TypeError).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('a connection lost mid-body errors the body', async () => {
    const response = await nodeHttpFetch(`${base}/cut`);
    await expect(response.text()).rejects.toThrow();
  });

  it('decompresses gzip bodies', async () => {
    expect(await (await nodeHttpFetch(`${base}/gzip`)).text()).toBe('compressed text');
  });

  it('follows redirects: 307 keeps method and body, 303 turns into a GET', async () => {
    const kept = await nodeHttpFetch(`${base}/redirect`, { method: 'POST', body: 'payload' });
    expect(await kept.json()).toEqual({ echo: 'payload' });
    expect(kept.url).toBe(`${base}/json`);
    const get = await nodeHttpFetch(`${base}/see-other`, { method: 'POST', body: 'payload' });
    expect(await get.json()).toEqual({ echo: '' });
    expect(seen.at(-1)!.method).toBe('GET');
  });

  it('a 204 has no body', async () => {
    const response = await nodeHttpFetch(`${base}/empty`);
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });
});

describe('SDK timeouts through nodeHttpFetch', () => {
  const request = {
    items: [
      {
        type: 'message' as const,
        role: 'user' as const,
        content: [{ type: 'input_text' as const, text: 'hi' }],
      },
    ],
    tools: [],
  };

  it('OpenAI: a server that never answers → "The request timed out."', async () => {
    const client = createOpenAIChatClient({
      api: 'openai-chat',
      model: 'gpt-4o',
      baseUrl: `${base}/hang`,
      env: { OPENAI_API_KEY: 'k' },
      timeoutMs: 100,
    });
    const result = await collectEvents(client.stream(request));
    expect(result.errors.map((error) => [error.kind, error.message])).toEqual([
      ['network', 'The request timed out.'],
    ]);
  });

  it('Anthropic: a server that never answers → "The request timed out."', async () => {
    const client = createAnthropicClient({
      api: 'anthropic-messages',
      model: 'claude-sonnet-4-6',
      baseUrl: `${base}/hang`,
      env: { ANTHROPIC_API_KEY: 'k' },
      timeoutMs: 100,
    });
    const result = await collectEvents(client.stream(request));
    expect(result.errors.map((error) => [error.kind, error.message])).toEqual([
      ['network', 'The request timed out.'],
    ]);
  });
});
