/**
 * From a text delta leaving the provider to it being on the terminal: the REPL in a real pseudo-terminal
 * (util-linux `script`), the fake provider in this process sending one marked delta every 250 ms (issue
 * 21's slow provider). Each delta's send time is taken where the fake writes it to the socket; its screen
 * time where the terminal's output first contains its marker. Colour on (the Markdown path: each word
 * is drawn as it arrives) and with NO_COLOR (the same without colour). Run after `npm run build`:
 * node bench/reply-latency.bench.js [--deltas N]
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { ServerResponse } from 'node:http';
import { Buffer } from 'node:buffer';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout } from 'node:timers';
import { median, printTable } from './lib.js';
import { FakeProviderServer } from '../dist/tests/fake-provider/server.js';

const deltasIndex = process.argv.indexOf('--deltas');
const count = deltasIndex > 0 ? Number(process.argv[deltasIndex + 1]) : 20;
const cody = join(import.meta.dirname, '..', 'bin', 'cody.js');
const now = () => Number(process.hrtime.bigint()) / 1e6;

/** When each marker was written to a socket by the fake provider (this process). */
const sent = new Map();
const write = ServerResponse.prototype.write;
ServerResponse.prototype.write = function (chunk, ...rest) {
  const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  for (const marker of text.match(/mk\d{3}x/g) ?? []) if (!sent.has(marker)) sent.set(marker, now());
  return write.call(this, chunk, ...rest);
};

async function run(extraEnv) {
  sent.clear();
  const server = new FakeProviderServer({ chunkDelayMs: 250 });
  const url = await server.start();
  const home = await mkdtemp(join(tmpdir(), 'cody-bench-latency-'));
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    CODY_HOME: join(home, '.cody'),
    TERM: 'xterm-256color',
    OPENAI_BASE_URL: `${url}/v1`,
    OPENAI_API_KEY: 'sk-test-bench',
    ...extraEnv,
  };
  const markers = Array.from({ length: count }, (_, index) => `mk${String(index).padStart(3, '0')}x`);
  // One line, as a reply that is one long paragraph: every delta lands in the open line.
  server.enqueue({ type: 'reply', textDeltas: markers.map((marker) => `${marker} `) });
  const shown = new Map();
  await new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', `${process.execPath} ${cody}`, '/dev/null'], {
      env,
      stdio: ['pipe', 'pipe', 'inherit'],
      cwd: home,
    });
    let seen = '';
    let asked = false;
    child.stdout.on('data', (chunk) => {
      const at = now();
      seen += chunk.toString('utf8');
      if (!asked && seen.includes('› ')) {
        asked = true;
        child.stdin.write('go\r');
      }
      for (const marker of seen.match(/mk\d{3}x/g) ?? []) if (!shown.has(marker)) shown.set(marker, at);
      if (shown.size === count && /\$0\.\d+/.test(seen.slice(seen.lastIndexOf(markers.at(-1))))) {
        child.stdin.write('\u0004');
      }
    });
    child.on('close', resolve);
    child.on('error', reject);
    setTimeout(() => child.kill(), 60_000).unref();
  });
  await server.stop?.();
  await rm(home, { recursive: true, force: true });
  return markers
    .filter((marker) => sent.has(marker) && shown.has(marker))
    .map((marker) => shown.get(marker) - sent.get(marker));
}

const colour = await run({});
const plain = await run({ NO_COLOR: '1' });
const describe = (values) =>
  `median ${median(values).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms (${values.length} deltas)`;
printTable('From a delta sent to it on the terminal (250 ms between deltas)', [
  ['colour (Markdown, each whole word drawn at once)', describe(colour)],
  ['NO_COLOR (Markdown, no colour)', describe(plain)],
]);
