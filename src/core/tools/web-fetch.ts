/**
 * `web_fetch`: a GET of an http(s) URL, as Markdown (HTML) or text. Network access: the policy asks unless
 * the host is in `webFetch.allowedHosts`. The fetching loads only when a call runs; the conversion (DOM,
 * Readability, turndown) runs in a worker thread of its own, within limits (web-page-convert.ts).
 */
import { z } from 'zod';
import { defineTool, failed, ok, type ToolHandler } from './handler.js';
import { addressRefusal } from './web-address.js';

/** `webFetch` in config.json. */
export interface WebFetchSettings {
  /** Hosts fetched without asking (`example.com`, or `*.example.com` for its subdomains too). */
  allowedHosts?: readonly string[];
  /** Allow loopback, link-local and private addresses (off: they are refused). */
  allowPrivate?: boolean;
}

/** What the model gets when it names no `max_length`. */
export const DEFAULT_WEB_FETCH_LENGTH = 20_000;

const webFetchArguments = z.object({
  url: z.string().min(1),
  max_length: z.number().int().positive().optional(),
});

export function webFetchTool(settings: WebFetchSettings): ToolHandler {
  return defineTool('web_fetch', webFetchArguments, (args) => ({
    access: () => ({ kind: 'network', url: args.url, allowed: hostAllowed(args.url, settings.allowedHosts) }),
    // An address refused at connection is refused before asking too (the lookup still happens, and is
    // checked again, when the fetch runs: a name can resolve differently by then).
    check: () => Promise.resolve(settings.allowPrivate === true ? undefined : addressRefusal(args.url)),
    run: async (context) => {
      const { fetchPage } = await import('./web-fetch-net.js');
      const page = await fetchPage(args.url, {
        allowPrivate: settings.allowPrivate === true,
        ...(context.signal ? { signal: context.signal } : {}),
      });
      if (!page.ok) return failed(page.error);
      const { convertPage } = await import('./web-page-convert.js');
      const converted = await convertPage(page, context.signal ? { signal: context.signal } : {});
      if (!converted.ok) return failed(converted.error);
      const text = converted.text;
      const limit = args.max_length ?? DEFAULT_WEB_FETCH_LENGTH;
      const notes = [
        `URL: ${page.url}`,
        ...(page.truncated ? ['(Only the first 5 MB of the response were read.)'] : []),
      ];
      const body =
        text.length > limit
          ? `${text.slice(0, limit)}\n\n[Content cut at ${limit} of ${text.length} characters: ask again with a larger max_length to see more.]`
          : text;
      return ok(`${notes.join('\n')}\n\n${body}`);
    },
  }));
}

/** Whether the URL's host is one of the allowed hosts (`*.example.com` also covers example.com). */
export function hostAllowed(url: string, allowedHosts: readonly string[] | undefined): boolean {
  if (!allowedHosts || allowedHosts.length === 0) return false;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return allowedHosts.some((entry) => {
    const allowed = entry.toLowerCase();
    if (allowed.startsWith('*.')) return host === allowed.slice(2) || host.endsWith(allowed.slice(1));
    return host === allowed;
  });
}
