/**
 * Exact o200k tokenizers compared, for the choice recorded in DECISIONS.md: js-tiktoken (lite build
 * + o200k ranks) against gpt-tokenizer (o200k_base entry point), with Cody's heuristic for scale.
 *   - encoder build: import + first count, in a fresh `node` per sample (every `cody chat` is a new
 *     process), with the memory it added (RSS and heap after a GC); medians of --samples (default 7);
 *   - counting throughput on bench/corpus (in process, after warm-up; medians of 5 passes);
 *   - whether both count every corpus file identically.
 * Prints a table; never fails on noise. Run after `npm run build`: node bench/tokenizer.bench.js
 */
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { Buffer } from 'node:buffer';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { median, printTable } from './lib.js';

const samplesIndex = process.argv.indexOf('--samples');
const samples = samplesIndex > 0 ? Math.max(5, Number(process.argv[samplesIndex + 1])) : 7;
const root = join(import.meta.dirname, '..');
const corpusDirectory = join(import.meta.dirname, 'corpus');

/** How each contender is loaded and asked for its first count, as a module body run by `node -e`. */
const loaders = {
  'gpt-tokenizer 4 (o200k_base)': `
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
    count = (text) => countTokens(text, { disallowedSpecial: new Set() });`,
  'js-tiktoken 1 (lite + o200k ranks)': `
    const { Tiktoken } = await import('js-tiktoken/lite');
    const { default: ranks } = await import('js-tiktoken/ranks/o200k_base');
    const encoder = new Tiktoken(ranks);
    count = (text) => encoder.encode(text, [], []).length;`,
  'Cody heuristic (no tokenizer)': `
    const { heuristicCountText } = await import('./dist/src/core/tokens/heuristic-estimator.js');
    count = heuristicCountText;`,
};

function measureBuild(loader) {
  const script = `
    globalThis.gc();
    const before = process.memoryUsage();
    const started = performance.now();
    let count;
    ${loader}
    count('warm up the encoder: hello, world');
    const buildMs = performance.now() - started;
    globalThis.gc();
    const after = process.memoryUsage();
    process.stdout.write(JSON.stringify({
      buildMs,
      rssMiB: (after.rss - before.rss) / 2 ** 20,
      heapMiB: (after.heapUsed + after.external - before.heapUsed - before.external) / 2 ** 20,
    }));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(stderr))));
  });
}

const builds = new Map(Object.keys(loaders).map((name) => [name, []]));
for (let round = 0; round < samples; round += 1) {
  // Interleaved, so machine noise hits every contender alike.
  for (const [name, loader] of Object.entries(loaders)) builds.get(name).push(await measureBuild(loader));
}
const format = (value, digits = 1) => value.toFixed(digits).padStart(8);
printTable(
  `Encoder build in a fresh process (median of ${samples}): import + first count, memory added`,
  [...builds].map(([name, runs]) => [
    name,
    `${format(median(runs.map((run) => run.buildMs)))} ms` +
      `${format(median(runs.map((run) => run.rssMiB)))} MiB RSS` +
      `${format(median(runs.map((run) => run.heapMiB)))} MiB heap+external`,
  ]),
);

const corpus = await Promise.all(
  (await readdir(corpusDirectory))
    .filter((name) => name.endsWith('.txt'))
    .sort()
    .map(async (name) => ({ name, text: await readFile(join(corpusDirectory, name), 'utf8') })),
);
// The same three, loaded in this process for counting.
const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
const { Tiktoken } = await import('js-tiktoken/lite');
const { default: ranks } = await import('js-tiktoken/ranks/o200k_base');
const { heuristicCountText } = await import('../dist/src/core/tokens/heuristic-estimator.js');
const encoder = new Tiktoken(ranks);
const counters = {
  'gpt-tokenizer 4 (o200k_base)': (text) => countTokens(text, { disallowedSpecial: new Set() }),
  'js-tiktoken 1 (lite + o200k ranks)': (text) => encoder.encode(text, [], []).length,
  'Cody heuristic (no tokenizer)': heuristicCountText,
};

const gpt = counters['gpt-tokenizer 4 (o200k_base)'];
const tiktoken = counters['js-tiktoken 1 (lite + o200k ranks)'];
const passes = 5;
const corpusText = corpus.map((file) => file.text).join('\n');
const repeated = Array.from({ length: 20 }, (_, index) => `${index}\n${corpusText}`);
const megabytes = repeated.reduce((sum, text) => sum + Buffer.byteLength(text), 0) / 1e6;
const throughput = [];
let tokens = 0;
for (const [name, count] of Object.entries(counters)) {
  const times = [];
  for (let pass = 0; pass < passes + 1; pass += 1) {
    const started = performance.now();
    let counted = 0;
    for (const text of repeated) counted += count(text);
    times.push(performance.now() - started);
    if (name === 'gpt-tokenizer 4 (o200k_base)') tokens = counted;
  }
  const rate = (ms) => `${format(megabytes / (ms / 1000))} MB/s`;
  throughput.push([name, `first pass ${rate(times[0])}   then ${rate(median(times.slice(1)))}`]);
}
printTable(
  `Counting throughput on the corpus ×20 (${megabytes.toFixed(2)} MB, ${tokens} o200k tokens; ` +
    `the first pass pays for JIT warm-up and empty caches; gpt-tokenizer caches merges)`,
  throughput,
);

printTable(
  'Counts per corpus file (gpt-tokenizer / js-tiktoken / heuristic)',
  corpus.map(({ name, text }) => {
    const exact = gpt(text);
    const other = tiktoken(text);
    const heuristic = counters['Cody heuristic (no tokenizer)'](text);
    const error = ((heuristic / exact - 1) * 100).toFixed(1);
    return [name, `${exact} / ${other} / ${heuristic} (${error}%)${exact === other ? '' : '  MISMATCH'}`];
  }),
);

const mismatches = corpus.filter(({ text }) => gpt(text) !== tiktoken(text)).length;
process.stdout.write(
  `\nExact counts ${mismatches === 0 ? 'identical' : `differ on ${mismatches} file(s)`} across ${corpus.length} corpus files.\n`,
);
