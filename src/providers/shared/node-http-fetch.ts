/**
 * A `fetch` for the provider SDKs that runs on `node:http`/`node:https` instead of Node's built-in
 * fetch (undici). Node 20's fetch compiles a WebAssembly HTTP parser on first use, which costs a
 * one-shot CLI ~100 ms of CPU and keeps the process alive after its last write until the compile is
 * done (see DECISIONS.md). The SDKs see the same contract as with the built-in fetch: a standard
 * `Response` whose body is a web `ReadableStream`; network failures reject with `TypeError('fetch
 * failed', { cause })`; an abort rejects (or errors the body mid-stream) with the signal's reason.
 */
import { type IncomingMessage, type OutgoingHttpHeaders, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import * as zlib from 'node:zlib';

const MAX_REDIRECTS = 20;
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

type FetchInput = string | URL | Request;

interface PreparedRequest {
  url: URL;
  method: string;
  headers: Headers;
  body: Uint8Array | string | undefined;
}

/** The fetch function to hand an SDK (`fetch` option, or Gemini's `httpOptions.fetch`). */
export function nodeHttpFetch(input: FetchInput, init?: RequestInit): Promise<Response> {
  return prepare(input, init).then((request) => send(request, init?.signal ?? undefined, 0));
}

async function prepare(input: FetchInput, init: RequestInit | undefined): Promise<PreparedRequest> {
  const base = input instanceof Request ? input : undefined;
  const url = new URL(base ? base.url : input.toString());
  const method = (init?.method ?? base?.method ?? 'GET').toUpperCase();
  const headers = new Headers(init?.headers ?? base?.headers);
  const rawBody = init?.body !== undefined ? init.body : base && base.body ? await base.arrayBuffer() : null;
  return { url, method, headers, body: await bodyBytes(rawBody, headers) };
}

/** The request body as bytes or text: everything the SDKs send (JSON text, bytes, forms, blobs, streams). */
async function bodyBytes(
  body: RequestInit['body'] | ArrayBuffer,
  headers: Headers,
): Promise<Uint8Array | string | undefined> {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string') {
    if (!headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
    return body;
  }
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  // Anything else (URLSearchParams, Blob, FormData, ReadableStream) is serialised the standard way.
  const standard = new Request('http://localhost/', { method: 'POST', body, duplex: 'half' } as RequestInit);
  const type = standard.headers.get('content-type');
  if (type !== null && !headers.has('content-type')) headers.set('content-type', type);
  return new Uint8Array(await standard.arrayBuffer());
}

function send(
  request: PreparedRequest,
  signal: AbortSignal | undefined,
  redirects: number,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of request.headers) headers[name] = value;
    headers['accept'] ??= '*/*';
    headers['accept-encoding'] ??= 'gzip, deflate, br';
    if (request.body !== undefined) headers['content-length'] = Buffer.byteLength(request.body);
    const requestOf = request.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = requestOf(request.url, { method: request.method, headers });
    let response: IncomingMessage | undefined;
    const onAbort = (): void => {
      const reason = abortReason(signal);
      // Before the head: the promise rejects. After it: the body stream errors with the reason.
      if (response) response.destroy(reason);
      else reject(reason);
      outgoing.destroy(reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = (): void => signal?.removeEventListener('abort', onAbort);
    outgoing.on('error', (error) => {
      settle();
      reject(signal?.aborted ? abortReason(signal) : new TypeError('fetch failed', { cause: error }));
    });
    outgoing.on('response', (incoming) => {
      response = incoming;
      const location = incoming.headers.location;
      if (isRedirect(incoming.statusCode) && location !== undefined) {
        incoming.resume();
        settle();
        if (redirects >= MAX_REDIRECTS) {
          reject(new TypeError('fetch failed', { cause: new Error('redirect count exceeded') }));
          return;
        }
        send(redirected(request, incoming.statusCode ?? 0, location), signal, redirects + 1).then(
          resolve,
          reject,
        );
        return;
      }
      incoming.on('close', settle);
      resolve(toResponse(incoming, request));
    });
    outgoing.end(request.body);
  });
}

function toResponse(incoming: IncomingMessage, request: PreparedRequest): Response {
  const status = incoming.statusCode ?? 0;
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
  const hasBody = request.method !== 'HEAD' && !NULL_BODY_STATUSES.has(status);
  if (!hasBody) incoming.resume();
  const body = hasBody ? decoded(incoming) : null;
  const response = new Response(body ? (Readable.toWeb(body) as ReadableStream<Uint8Array>) : null, {
    status,
    statusText: incoming.statusMessage ?? '',
    headers,
  });
  Object.defineProperty(response, 'url', { value: request.url.toString() });
  return response;
}

/** The body, decompressed the way fetch does (gzip, deflate, br). */
function decoded(incoming: IncomingMessage): Readable {
  const encoding = incoming.headers['content-encoding']?.trim().toLowerCase();
  if (encoding !== 'gzip' && encoding !== 'x-gzip' && encoding !== 'deflate' && encoding !== 'br')
    return incoming;
  const decoder =
    encoding === 'br'
      ? zlib.createBrotliDecompress()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  incoming.on('error', (error) => decoder.destroy(error));
  return incoming.pipe(decoder);
}

function isRedirect(status: number | undefined): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** The follow-up request of a redirect, as the fetch standard builds it. */
function redirected(request: PreparedRequest, status: number, location: string): PreparedRequest {
  const url = new URL(location, request.url);
  const headers = new Headers(request.headers);
  // Credentials never follow a redirect to another origin.
  if (url.origin !== request.url.origin) {
    headers.delete('authorization');
    headers.delete('proxy-authorization');
    headers.delete('cookie');
  }
  const toGet = status === 303 || ((status === 301 || status === 302) && request.method === 'POST');
  if (toGet) {
    for (const name of ['content-type', 'content-length', 'content-encoding', 'content-language'])
      headers.delete(name);
    return { url, method: request.method === 'HEAD' ? 'HEAD' : 'GET', headers, body: undefined };
  }
  return { ...request, url, headers };
}

/** What an aborted fetch rejects with: the signal's reason, as the built-in fetch does. */
function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError');
}
