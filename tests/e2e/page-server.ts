/**
 * A loopback page server for the web_fetch tests: one HTML article at `/page`, counting the requests it
 * answers (a refused or declined fetch must leave it at 0).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export const ARTICLE_PAGE =
  '<html><head><title>Cody page</title></head><body><article><h1>Cody page</h1><p>The answer is <em>forty-two</em>, as every careful reader of this long enough paragraph knows.</p></article></body></html>';

export interface PageServer {
  /** The article's address on 127.0.0.1. */
  url: string;
  /** How many requests it has answered. */
  hits(): number;
  close(): Promise<void>;
}

export async function startPageServer(): Promise<PageServer> {
  let hits = 0;
  const server = createServer((_request, response) => {
    hits += 1;
    response.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE_PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`,
    hits: () => hits,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
