/**
 * A loopback page server for the web_fetch tests: one HTML article at `/page` (and any other HTML pages
 * it is given, by path), counting the requests it answers (a refused or declined fetch must leave it at 0).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export const ARTICLE_PAGE =
  '<html><head><title>Cody page</title></head><body><article><h1>Cody page</h1><p>The answer is <em>forty-two</em>, as every careful reader of this long enough paragraph knows.</p></article></body></html>';

export interface PageServer {
  /** The article's address on 127.0.0.1. */
  url: string;
  /** The address of another page it was given. */
  urlOf(path: string): string;
  /** How many requests it has answered. */
  hits(): number;
  /** The paths asked for, in order. */
  requested(): string[];
  close(): Promise<void>;
}

export async function startPageServer(pages: Record<string, string> = {}): Promise<PageServer> {
  const requested: string[] = [];
  const server = createServer((request, response) => {
    requested.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'text/html' }).end(pages[request.url ?? ''] ?? ARTICLE_PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/page`,
    urlOf: (path) => `${origin}${path}`,
    hits: () => requested.length,
    requested: () => [...requested],
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
