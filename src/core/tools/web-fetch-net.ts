/**
 * The network side of web_fetch: GET over http(s) only, at most 5 redirects, each hop's host resolved and
 * every address checked (private addresses refused unless allowed), the connection made to the address
 * that was checked (no second lookup: DNS rebinding), a 10 s timeout for the whole fetch, at most 5 MB read.
 */
import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { privateAddressReason, refusedSentence } from './web-address.js';

export const WEB_FETCH_MAX_REDIRECTS = 5;
export const WEB_FETCH_TIMEOUT_MS = 10_000;
export const WEB_FETCH_MAX_BYTES = 5 * 1024 * 1024;

export interface FetchPageOptions {
  allowPrivate: boolean;
  signal?: AbortSignal;
  /** The host's addresses (default: the system resolver, every address). Tests inject it. */
  resolve?: (host: string) => Promise<string[]>;
  /** Why an address may not be fetched (default privateAddressReason). Tests inject it. */
  addressCheck?: (address: string) => string | undefined;
  timeoutMs?: number;
  maxBytes?: number;
}

export type FetchedPage =
  | { ok: true; url: string; status: number; contentType: string; body: Buffer; truncated: boolean }
  | { ok: false; error: string };

export async function fetchPage(url: string, options: FetchPageOptions): Promise<FetchedPage> {
  const timeoutMs = options.timeoutMs ?? WEB_FETCH_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let current = url;
  try {
    for (let hop = 0; ; hop += 1) {
      const target = await checkedTarget(current, options);
      if ('error' in target) return { ok: false, error: target.error };
      const response = await get(target.url, target.address, signal);
      const location = response.headers.location;
      if (response.statusCode !== undefined && isRedirect(response.statusCode) && location !== undefined) {
        response.destroy();
        if (hop >= WEB_FETCH_MAX_REDIRECTS)
          return {
            ok: false,
            error: `too many redirects (more than ${WEB_FETCH_MAX_REDIRECTS}) from ${url}`,
          };
        current = new URL(location, target.url).href;
        continue;
      }
      return await readResponse(response, target.url.href, options.maxBytes ?? WEB_FETCH_MAX_BYTES);
    }
  } catch (error) {
    if (timeout.aborted)
      return { ok: false, error: `${current} did not answer within ${timeoutMs / 1000} s` };
    if (options.signal?.aborted === true) return { ok: false, error: 'the fetch was stopped' };
    return {
      ok: false,
      error: `could not fetch ${current}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** The URL parsed and its host resolved to an address that may be fetched, or why not. */
async function checkedTarget(
  text: string,
  options: FetchPageOptions,
): Promise<{ url: URL; address: { address: string; family: number } } | { error: string }> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { error: `not a URL: ${text}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return {
      error: `only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')} (${text})`,
    };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses =
    isIP(host) !== 0
      ? [host]
      : await (options.resolve ?? systemResolve)(host).catch((error: unknown) => {
          throw new Error(
            `${host} could not be resolved (${error instanceof Error ? error.message : String(error)})`,
          );
        });
  if (addresses.length === 0) return { error: `${host} has no address` };
  if (!options.allowPrivate) {
    for (const address of addresses) {
      const kind = (options.addressCheck ?? privateAddressReason)(address);
      if (kind !== undefined)
        return {
          error: refusedSentence(
            url.href,
            host === address ? `${host} is ${kind}` : `${host} resolves to ${address}, ${kind}`,
          ),
        };
    }
  }
  const address = addresses[0] ?? host;
  return { url, address: { address, family: isIP(address) === 6 ? 6 : 4 } };
}

async function systemResolve(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
}

/** A GET that connects to the checked address (the URL's host name still goes in Host and TLS SNI). */
function get(
  url: URL,
  address: { address: string; family: number },
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const pinned: LookupFunction = (_host, lookupOptions, callback) => {
    if (lookupOptions.all === true) callback(null, [address]);
    else callback(null, address.address, address.family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, {
      method: 'GET',
      lookup: pinned,
      signal,
      headers: {
        'user-agent': 'Cody web_fetch',
        accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5',
      },
    });
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
}

const TEXT_TYPES =
  /^(text\/|application\/(json|xml|xhtml\+xml|javascript|ecmascript|ld\+json|rss\+xml|atom\+xml)|application\/[\w.+-]+\+(json|xml)$)/i;

/** The body, at most maxBytes of it; binary content is refused without reading it. */
async function readResponse(response: IncomingMessage, url: string, maxBytes: number): Promise<FetchedPage> {
  const status = response.statusCode ?? 0;
  const contentType = (response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (contentType !== '' && !TEXT_TYPES.test(contentType)) {
    response.destroy();
    return {
      ok: false,
      error: `${url} is ${contentType}, not text: web_fetch reads only web pages and text`,
    };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    const room = maxBytes - size;
    if (chunk.length >= room) {
      chunks.push(chunk.subarray(0, room));
      size += room;
      truncated = chunk.length > room || !response.readableEnded;
      response.destroy();
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  const body = Buffer.concat(chunks);
  if (contentType === '' && body.subarray(0, 8000).includes(0)) {
    return { ok: false, error: `${url} looks binary, not text: web_fetch reads only web pages and text` };
  }
  if (status >= 400) return { ok: false, error: `${url} answered HTTP ${status}` };
  return { ok: true, url, status, contentType, body, truncated };
}
