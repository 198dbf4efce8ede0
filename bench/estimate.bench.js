/**
 * Token accounting speed (issue target: estimating a 200k-token history after one new item ≤ 5 ms).
 * Builds a ~200k-token history from bench/corpus (user and assistant messages, tool calls with their
 * outputs), records a provider report for it, then times TokenAccountant.estimateHistory after each new
 * item (median and worst of --samples, default 200). For scale it also times whole-history estimates:
 * cold (no report, nothing cached), warm (after a reset, cached) and with the exact o200k tokenizer.
 * Prints a table; never fails on noise. Run after `npm run build`: node bench/estimate.bench.js
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createTokenEstimator, heuristicEstimator, TokenAccountant } from '../dist/src/core/tokens/index.js';
import { median, printTable } from './lib.js';

const TARGET_TOKENS = 200_000;
const TARGET_MS = 5;
const samplesIndex = process.argv.indexOf('--samples');
const samples = samplesIndex > 0 ? Number(process.argv[samplesIndex + 1]) : 200;

const corpusDirectory = join(import.meta.dirname, 'corpus');
const texts = await Promise.all(
  (await readdir(corpusDirectory))
    .filter((name) => name.endsWith('.txt'))
    .sort()
    .map((name) => readFile(join(corpusDirectory, name), 'utf8')),
);

/** The n-th item of a synthetic conversation: a fresh object with fresh text every time. */
function itemAt(index) {
  const text = `${index}: ${texts[index % texts.length]}`;
  switch (index % 4) {
    case 0:
      return { type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
    case 1:
      return {
        type: 'function_call',
        name: 'shell',
        arguments: JSON.stringify({ command: text }),
        call_id: `c${index}`,
      };
    case 2:
      return { type: 'function_call_output', call_id: `c${index - 1}`, output: text };
    default:
      return { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] };
  }
}

const heuristic = heuristicEstimator();
const history = [
  { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'You are Cody.' }] },
];
let historyTokens = 0;
while (historyTokens < TARGET_TOKENS) {
  const item = itemAt(history.length);
  history.push(item);
  historyTokens += heuristic.countItem(item);
}

function time(action) {
  const started = performance.now();
  const result = action();
  return { ms: performance.now() - started, result };
}

const base = [...history];

// Incremental: a report covers the history; each new item is estimated once.
const accountant = new TokenAccountant(heuristicEstimator());
accountant.recordUsage({ inputTokens: historyTokens, outputTokens: 0 }, history.length);
const incremental = [];
for (let sample = 0; sample < samples; sample += 1) {
  history.push(itemAt(history.length));
  incremental.push(time(() => accountant.estimateHistory(history)).ms);
  accountant.recordUsage({ inputTokens: historyTokens, outputTokens: 0 }, history.length);
}

// Whole history, no report: cold (nothing cached), then warm (after a reset the cache is kept).
const fresh = new TokenAccountant(heuristicEstimator());
const cold = time(() => fresh.estimateHistory(base));
fresh.reset();
const warm = time(() => fresh.estimateHistory(base));

const loadStarted = performance.now();
const exact = await createTokenEstimator({ api: 'openai-responses', model: 'gpt-4.1', exact: true });
const loadMs = performance.now() - loadStarted;
const exactAccountant = new TokenAccountant(exact);
const exactWhole = time(() => exactAccountant.estimateHistory(base));

const incrementalMedian = median(incremental);
const incrementalWorst = Math.max(...incremental);
const verdict = incrementalMedian <= TARGET_MS ? 'within' : 'OVER';
printTable(`Token accounting on a ${base.length}-item, ~${Math.round(cold.result / 1000)}k-token history`, [
  [
    `estimateHistory after one new item (median of ${samples})`,
    `${incrementalMedian.toFixed(3)} ms (worst ${incrementalWorst.toFixed(3)} ms; ${verdict} the ${TARGET_MS} ms target)`,
  ],
  ['whole history, heuristic, nothing cached', `${cold.ms.toFixed(1)} ms`],
  ['whole history, heuristic, cached (after reset)', `${warm.ms.toFixed(3)} ms`],
  ['exact o200k estimator: lazy import + build', `${loadMs.toFixed(1)} ms`],
  ['whole history, exact o200k, nothing cached', `${exactWhole.ms.toFixed(1)} ms`],
  [
    'heuristic vs o200k over this history',
    `${cold.result} vs ${exactWhole.result} (${((cold.result / exactWhole.result - 1) * 100).toFixed(1)}%)`,
  ],
]);
