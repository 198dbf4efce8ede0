/**
 * `cody web`: starts the server and opens the page with the platform's opener (`xdg-open` here), the
 * one-time sign-in link as its one argument; with no opener on PATH it prints the link instead.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../e2e/harness.js';
import { startWebServe, type WebServe } from './harness.js';

let harness: Harness;
let serve: WebServe | undefined;

beforeEach(async () => {
  harness = await createHarness();
});
afterEach(async () => {
  await serve?.stop();
  serve = undefined;
  await harness.close();
});

async function signIn(url: string, code: string): Promise<number> {
  const response = await fetch(`${url}/auth/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  return response.status;
}

describe('cody web', () => {
  it('opens the sign-in link with xdg-open, passed as one argument', async () => {
    const bin = join(harness.home, 'bin');
    await mkdir(bin);
    const recorded = join(harness.home, 'opened.txt');
    await writeFile(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s|%s' "$#" "$1" > '${recorded}'\n`);
    await chmod(join(bin, 'xdg-open'), 0o755);
    harness.env.PATH = bin;
    serve = await startWebServe(harness, [], 'web');
    expect(serve.stderr()).toContain('cody web: opened the web page in your browser');
    const [count, link] = (await readFile(recorded, 'utf8')).split('|');
    expect(count).toBe('1');
    expect(link).toMatch(new RegExp(`^${serve.url}/#code=[\\w-]{40,}$`));
    // The link is not printed when the browser got it, and it signs in (once).
    expect(serve.stderr()).not.toContain('#code=');
    const code = link?.split('#code=')[1] ?? '';
    expect(await signIn(serve.url, code)).toBe(200);
    expect(await signIn(serve.url, code)).toBe(401);
  });

  it('prints the link when there is no opener', async () => {
    harness.env.PATH = join(harness.home, 'empty-bin');
    serve = await startWebServe(harness, [], 'web');
    expect(serve.stderr()).toMatch(
      /cody web: could not open a browser; open this one-time sign-in link: http:\/\//,
    );
    const code = serve.signInUrl.split('#code=')[1] ?? '';
    expect(await signIn(serve.url, code)).toBe(200);
  });

  it('--host 0.0.0.0 --allow-remote: a loopback sign-in link that signs in, and says so', async () => {
    harness.env.PATH = join(harness.home, 'empty-bin');
    serve = await startWebServe(harness, ['--host', '0.0.0.0', '--allow-remote'], 'web');
    expect(serve.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
    expect(serve.stderr()).toContain("the sign-in link uses this machine's loopback address");
    const port = new URL(serve.url).port;
    expect(serve.signInUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/#code=[\\w-]{40,}$`));
    const code = serve.signInUrl.split('#code=')[1] ?? '';
    expect(await signIn(`http://127.0.0.1:${port}`, code)).toBe(200);
  });

  it('cody serve --host 0.0.0.0 --allow-remote prints a loopback link; without --allow-remote it refuses', async () => {
    serve = await startWebServe(harness, ['--host', '0.0.0.0', '--allow-remote']);
    const port = new URL(serve.url).port;
    expect(serve.signInUrl.startsWith(`http://127.0.0.1:${port}/#code=`)).toBe(true);
    expect(serve.stderr()).not.toMatch(/0\.0\.0\.0:\d+\/#code=/);
    await serve.stop();
    serve = undefined;
    await expect(startWebServe(harness, ['--host', '0.0.0.0'], 'web')).rejects.toThrow(/--allow-remote/);
  });
});
