/**
 * What hooks cost per tool call: a turn of 20 `list_directory` calls through the engine (createCody, a
 * scripted model, full-auto) with no hooks configured, with one trivial PreToolUse hook (`true`), and with
 * a PreToolUse and a PostToolUse hook. Medians of --rounds (default 7) turns, interleaved, per call.
 * Prints a table; never fails on noise. Run after `npm run build`: node bench/hooks.bench.js
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCody } from '../dist/src/core/engine/cody.js';
import { median, printTable } from './lib.js';

const roundsIndex = process.argv.indexOf('--rounds');
const rounds = roundsIndex > 0 ? Number(process.argv[roundsIndex + 1]) : 7;
const CALLS = 20;

function client() {
  let count = 0;
  return {
    api: 'openai-chat',
    model: 'gpt-4.1-mini',
    async *stream() {
      count += 1;
      if (count <= CALLS) {
        const call = { type: 'function_call', name: 'list_directory', arguments: '{}', call_id: `c${count}` };
        yield { type: 'item', item: call };
        yield { type: 'finish', reason: 'tool-calls' };
        return;
      }
      yield {
        type: 'item',
        item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] },
      };
      yield { type: 'finish', reason: 'stop' };
    },
  };
}

const hook = { type: 'command', command: 'true' };
const setups = {
  'no hooks': undefined,
  '1 PreToolUse hook (true)': { PreToolUse: [{ matcher: '*', hooks: [hook] }] },
  'PreToolUse + PostToolUse': { PreToolUse: [{ hooks: [hook] }], PostToolUse: [{ hooks: [hook] }] },
};

async function turn(hooks) {
  const home = await mkdtemp(join(tmpdir(), 'cody-bench-hooks-'));
  if (hooks) await writeFile(join(home, 'config.json'), JSON.stringify({ hooks }));
  const model = client();
  const cody = createCody({
    home,
    env: {},
    cwd: home,
    approvalPolicy: 'full-auto',
    clientFactory: async () => model,
  });
  const conversation = await cody.create({ provider: 'openai', api: 'chat', model: 'gpt-4.1-mini' });
  const started = performance.now();
  for await (const event of conversation.submit('go')) void event;
  const elapsed = performance.now() - started;
  await cody.close();
  await rm(home, { recursive: true, force: true });
  return elapsed;
}

const times = Object.fromEntries(Object.keys(setups).map((name) => [name, []]));
await turn(undefined);
for (let round = 0; round < rounds; round += 1)
  for (const [name, hooks] of Object.entries(setups)) times[name].push(await turn(hooks));
const base = median(times['no hooks']) / CALLS;
printTable(
  `Per tool call (median of ${rounds} turns of ${CALLS} calls)`,
  Object.keys(setups).map((name) => {
    const perCall = median(times[name]) / CALLS;
    const overhead = name === 'no hooks' ? '' : `  (+${(perCall - base).toFixed(1)} ms)`;
    return [name, `${perCall.toFixed(2)} ms${overhead}`];
  }),
);
