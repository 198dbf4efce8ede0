/**
 * The web page's files (built by scripts/bundle-web.js into dist/web/), served at `/` on the API's own
 * origin. Only the files named here are ever read: no path from a request reaches the file system.
 */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** URL path → file in dist/web and its content type. */
const PAGE_FILES: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/index.html': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/assets/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/assets/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};

export interface PageFile {
  type: string;
  body: Buffer;
}

export function isPagePath(pathname: string): boolean {
  return Object.hasOwn(PAGE_FILES, pathname);
}

/**
 * Where dist/web is from this module: dist/bundle/*.js (the bundled CLI), dist/src/server/*.js (tsc's
 * output) or src/server/*.ts (the test runner).
 */
export function defaultWebRoot(): string | undefined {
  for (const relative of ['../web/', '../../web/', '../../dist/web/']) {
    const candidate = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(`${candidate}index.html`)) return candidate;
  }
  return undefined;
}

/** Reads the page's files once each, on first request. */
export function pageFiles(root: string | undefined): (pathname: string) => Promise<PageFile | undefined> {
  const cache = new Map<string, Promise<PageFile | undefined>>();
  return (pathname) => {
    const entry = PAGE_FILES[pathname];
    if (!entry || root === undefined) return Promise.resolve(undefined);
    let file = cache.get(entry.file);
    if (!file) {
      file = readFile(`${root}${entry.file}`).then(
        (body) => ({ type: entry.type, body }),
        () => undefined,
      );
      cache.set(entry.file, file);
    }
    return file;
  };
}
