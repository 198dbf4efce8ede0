/**
 * Opening a conversation of 1,000 messages in the web page, in Chromium (playwright-core, the system
 * `chromium`): from the click on it in the list to its visible part on screen (the last reply in the DOM
 * and one frame painted), measured inside the page with performance.now(). Issue 23's target: ≤ 500 ms.
 * Also reports the gzipped size of the page's JavaScript (dist/web/sizes.json; target ≤ 150 KB).
 * Run after `npm run build`: node bench/web-render.bench.js [--rounds N] [--messages N]
 */
/* global document, performance, requestAnimationFrame -- the measuring function runs in the page */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { makeMessagesRollout } from './fixtures.js';
import { median, printTable } from './lib.js';

const option = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const rounds = option('--rounds', 9);
const messages = option('--messages', 1000);
const root = join(import.meta.dirname, '..');
const home = await mkdtemp(join(tmpdir(), 'cody-bench-web-'));
const codyHome = join(home, '.cody');
await makeMessagesRollout(codyHome, messages);

const server = spawn(process.execPath, [join(root, 'bin', 'cody.js'), 'serve', '--port', '0'], {
  cwd: home,
  env: { PATH: process.env.PATH, HOME: home, CODY_HOME: codyHome, NO_COLOR: '1' },
  stdio: ['ignore', 'ignore', 'pipe'],
});
const signIn = await new Promise((resolve, reject) => {
  let stderr = '';
  server.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr += chunk;
    const match = /(http:\/\/\S+\/#code=[\w-]+)/.exec(stderr);
    if (match) resolve(match[1]);
  });
  server.once('exit', (code) => reject(new Error(`cody serve exited ${code}: ${stderr}`)));
});

const browser = await chromium.launch({
  executablePath: process.env.CODY_TEST_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
const samples = [];
let shown = 0;
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await page.goto(signIn);
  await page.locator('.conversation-item').first().waitFor();
  const last = `Part ${Math.ceil(messages / 2) - 1}`;
  for (let round = 0; round <= rounds; round += 1) {
    // From the list with no conversation open: a click on the conversation, then wait in the page.
    await page.locator('.new-conversation').click();
    await page.locator('.conversation.new').waitFor();
    const ms = await page.evaluate(
      ({ last }) =>
        new Promise((resolve) => {
          const started = performance.now();
          document.querySelector('.conversation-item')?.click();
          const check = () => {
            const replies = document.querySelectorAll('.transcript .message.assistant h2');
            if (replies.length > 0 && replies[replies.length - 1].textContent === last) {
              // One frame later it is painted.
              requestAnimationFrame(() => resolve(performance.now() - started));
            } else requestAnimationFrame(check);
          };
          check();
        }),
      { last },
    );
    shown = await page.locator('.transcript .message').count();
    if (round > 0) samples.push(ms); // round 0 warms up the JIT and the server's file cache
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
  await rm(home, { recursive: true, force: true });
}

const sizes = JSON.parse(await readFile(join(root, 'dist', 'web', 'sizes.json'), 'utf8'));
printTable(`web page: open a conversation of ${messages} messages (${rounds} rounds)`, [
  ['median (click → visible part painted)', `${median(samples).toFixed(0)} ms`],
  ['min / max', `${Math.min(...samples).toFixed(0)} / ${Math.max(...samples).toFixed(0)} ms`],
  ['messages in the DOM after opening', String(shown)],
  ['app.js gzipped', `${(sizes['app.js'].gzipBytes / 1024).toFixed(1)} KB`],
  ['app.css gzipped', `${(sizes['app.css'].gzipBytes / 1024).toFixed(1)} KB`],
]);
