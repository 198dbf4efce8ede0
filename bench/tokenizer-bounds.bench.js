/**
 * Exact token counting on pathological texts (issue 7.4): gpt-tokenizer's o200k count of a run
 * without a break grows quadratically with its length; Cody's exact estimator counts such runs in
 * bounded slices and prices texts over 1,000,000 characters with the heuristic. Prints, per text,
 * the median time of the raw tokenizer (not timed where one count takes minutes, or seconds for 20 MB
 * of prose) and of Cody's
 * bounded count, and how far apart the two counts are. Run after `npm run build`:
 *   node bench/tokenizer-bounds.bench.js [--samples 5]
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { exactEstimator } from '../dist/src/core/tokens/create-token-estimator.js';
import { median } from './lib.js';

const samplesIndex = process.argv.indexOf('--samples');
const samples = samplesIndex > 0 ? Math.max(3, Number(process.argv[samplesIndex + 1])) : 5;
const plain = { disallowedSpecial: new Set() };
const raw = (text) => countTokens(text, plain);
const bounded = exactEstimator('o200k', raw);

const readme = await readFile(join(import.meta.dirname, '..', 'README.md'), 'utf8');
const prose = (length) => readme.repeat(Math.ceil(length / readme.length)).slice(0, length);

/**
 * [label, text for sample n, whether the raw tokenizer is quick enough to time]. gpt-tokenizer caches
 * the pieces it has merged, so each sample of a run uses another character: every count starts cold.
 */
const LETTERS = 'HJKLMNPQRSTVWXZ';
const PUNCTUATION = '-=~#*+_.!?%&^|/';
const cases = [
  ['prose 100k', () => prose(100_000), true],
  ['prose 1M', () => prose(1_000_000), true],
  ['prose 20M (heuristic)', () => prose(20_000_000), false],
  ['one letter × 20k', (n) => LETTERS[n].repeat(20_000), true],
  ['one letter × 1M', (n) => LETTERS[n].repeat(1_000_000), false],
  ['one letter × 20M', (n) => LETTERS[n].repeat(20_000_000), false],
  ['spaces × 4k', (n) => ' '.repeat(4_000 + n), true],
  ['spaces × 1M', (n) => ' '.repeat(1_000_000 + n), false],
  ['one punctuation × 1M', (n) => PUNCTUATION[n].repeat(1_000_000), false],
  ['"中" × 1M', (n) => '中'.repeat(1_000_000 + n), false],
];

raw('warm up the encoder: hello, world');
/** Times Cody's count (and the raw one) on each sample, alternating which goes first: equal caches. */
const measure = (make, timeRaw) => {
  const mine = [];
  const theirs = [];
  let tokens = { mine: 0, theirs: 0 };
  for (let sample = 0; sample < samples; sample += 1) {
    const text = make(sample);
    const order = sample % 2 === 0 ? ['mine', 'theirs'] : ['theirs', 'mine'];
    for (const who of order) {
      if (who === 'theirs' && !timeRaw) continue;
      const started = performance.now();
      tokens[who] = who === 'mine' ? bounded.countText(text) : raw(text);
      (who === 'mine' ? mine : theirs).push(performance.now() - started);
    }
  }
  return { mine: median(mine), theirs: timeRaw ? median(theirs) : undefined, tokens };
};

const header = ['text', 'gpt-tokenizer ms', 'Cody ms', 'exact tokens', 'Cody tokens', 'difference'];
const rows = cases.map(([label, make, timeRaw]) => {
  const { mine, theirs, tokens } = measure(make, timeRaw);
  return [
    label,
    theirs === undefined ? '(not timed)' : theirs.toFixed(1),
    mine.toFixed(1),
    theirs === undefined ? '' : String(tokens.theirs),
    String(tokens.mine),
    theirs === undefined ? '' : `${(((tokens.mine - tokens.theirs) / tokens.theirs) * 100).toFixed(2)}%`,
  ];
});
const widths = header.map((title, column) =>
  Math.max(title.length, ...rows.map((row) => row[column].length)),
);
process.stdout.write(`\nExact counting bounds (o200k; medians of ${samples} cold samples)\n`);
for (const row of [header, ...rows]) {
  process.stdout.write(`  ${row.map((cell, column) => cell.padEnd(widths[column])).join('  ')}\n`);
}
