/**
 * What the streaming redactor costs per delta: a reply from bench/corpus streamed in deltas of a given
 * size through `StreamRedactor.push` (key shapes, three exact secrets, with and without a config pattern),
 * against joining the deltas alone. Medians of --rounds (default 30) whole replies, per delta.
 * Prints a table; never fails on noise. Run after `npm run build`: node bench/redact.bench.js
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { compileMatchers } from '../dist/src/core/redact/redact.js';
import { StreamRedactor } from '../dist/src/core/redact/redact-stream.js';
import { median, printTable } from './lib.js';

const roundsIndex = process.argv.indexOf('--rounds');
const rounds = roundsIndex > 0 ? Number(process.argv[roundsIndex + 1]) : 30;

const corpusDirectory = join(import.meta.dirname, 'corpus');
const names = (await readdir(corpusDirectory)).filter((name) => name.endsWith('.txt')).sort();
const text = (await Promise.all(names.map((name) => readFile(join(corpusDirectory, name), 'utf8')))).join(
  '\n',
);

const secrets = ['sk-test-123456789', 'ant-test-987654321', 'tok-0123456789abcdefXYZ0123456789'];
const setups = {
  'shapes + 3 secrets': compileMatchers({ secrets }),
  '+ 1 config pattern': compileMatchers({ secrets, patterns: ['corp-[0-9]{6}'] }),
};

function deltasOf(size) {
  const deltas = [];
  for (let index = 0; index < text.length; index += size) deltas.push(text.slice(index, index + size));
  return deltas;
}

function perDelta(deltas, run) {
  const times = [];
  for (let round = 0; round < rounds; round += 1) {
    const start = performance.now();
    run(deltas);
    times.push(((performance.now() - start) * 1000) / deltas.length);
  }
  return median(times);
}

const rows = [];
for (const size of [8, 32, 128]) {
  const deltas = deltasOf(size);
  const baseline = perDelta(deltas, (all) => {
    let joined = '';
    for (const delta of all) joined += delta;
    return joined;
  });
  rows.push([`${size}-character deltas (${deltas.length}): join only`, `${baseline.toFixed(2)} µs`]);
  for (const [name, matchers] of Object.entries(setups)) {
    const cost = perDelta(deltas, (all) => {
      const redactor = new StreamRedactor(matchers);
      let joined = '';
      for (const delta of all) joined += redactor.push(delta);
      return joined + redactor.flush();
    });
    rows.push([`${size}-character deltas: ${name}`, `${cost.toFixed(2)} µs`]);
  }
}
printTable(`Streaming redactor, per delta (${text.length} characters of corpus, median of ${rounds})`, rows);
