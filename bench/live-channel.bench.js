/**
 * What the live channel costs a turn (issue 23): the same in-process turns (a scripted model streaming
 * 2,000 deltas, no delay, rollouts written as ever) with the channel as shipped and nobody listening,
 * with it switched off (LivePublisher's methods made no-ops), and with a second engine watching. Rounds
 * interleaved, in a turning order; the median and best turn of each. Run after `npm run build`: node bench/live-channel.bench.js
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout } from 'node:timers';
import { median, printTable } from './lib.js';
import { createCody } from '../dist/src/core/index.js';
import { LivePublisher } from '../dist/src/core/live-channel/publisher.js';

const DELTAS = 2_000;
const TURNS = 10;
const ROUNDS = 15;
const now = () => Number(process.hrtime.bigint()) / 1e6;

const client = {
  api: 'openai-chat',
  model: 'gpt-4.1-mini',
  async *stream() {
    for (let index = 0; index < DELTAS; index += 1) yield { type: 'text-delta', text: 'word ' };
    const text = 'word '.repeat(DELTAS);
    yield {
      type: 'item',
      item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] },
    };
    yield { type: 'finish', reason: 'stop' };
  },
};

const { publish, end } = LivePublisher.prototype;
function channel(on) {
  LivePublisher.prototype.publish = on ? publish : () => undefined;
  LivePublisher.prototype.end = on ? end : () => undefined;
}

/** Milliseconds per turn over TURNS turns of one conversation. */
async function turns(home, watching) {
  const make = () =>
    createCody({ home, env: {}, cwd: home, tools: false, clientFactory: async () => client });
  const cody = make();
  const watcher = watching ? make() : undefined;
  const conversation = await cody.create();
  let seen = 0;
  const watch = watcher?.watchLive(conversation.id, (run) => {
    void (async () => {
      for await (const event of run.events) if (event.type === 'text-delta') seen += 1;
    })();
  });
  await watch?.ready;
  const started = now();
  for (let turn = 0; turn < TURNS; turn += 1)
    for await (const _event of conversation.submit('go')) void _event;
  const perTurn = (now() - started) / TURNS;
  if (watching) while (seen < TURNS * DELTAS) await new Promise((resolve) => setTimeout(resolve, 5));
  watch?.stop();
  await cody.close();
  await watcher?.close();
  return perTurn;
}

const cases = [
  { name: 'channel off', on: false, watching: false },
  { name: 'channel on, nobody listening', on: true, watching: false },
  { name: 'channel on, another engine watching', on: true, watching: true },
];
const samples = new Map(cases.map((entry) => [entry.name, []]));
const home = await mkdtemp(join(tmpdir(), 'cody-bench-live-'));
try {
  for (let round = -1; round < ROUNDS; round += 1) {
    // The order turns each round, so no case always runs first (after the previous round's garbage).
    for (const [index] of cases.entries()) {
      const entry = cases[(index + Math.max(round, 0)) % cases.length];
      channel(entry.on);
      const ms = await turns(home, entry.watching);
      if (round >= 0) samples.get(entry.name).push(ms);
    }
  }
} finally {
  await rm(home, { recursive: true, force: true });
}
/** The publisher alone: a turn's worth of events offered with nobody listening (what the turn pays). */
async function publisherAlone() {
  const times = [];
  const dir = await mkdtemp(join(tmpdir(), 'cody-bench-live-'));
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      const started = now();
      const publisher = new LivePublisher({ home: dir, conversationId: `bench-${round}`, kind: 'turn' });
      publisher.publish({
        type: 'turn-started',
        turnId: 't',
        provider: 'openai',
        api: 'openai-chat',
        model: 'm',
      });
      for (let index = 0; index < DELTAS; index += 1)
        publisher.publish({ type: 'text-delta', text: 'word ' });
      publisher.end();
      times.push(now() - started);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return times;
}
channel(true);
const alone = await publisherAlone();
printTable(`The publisher alone, nobody listening: ${DELTAS + 1} events (ms)`, [
  [
    'synchronous time in publish and end',
    `median ${median(alone).toFixed(3)}, best ${Math.min(...alone).toFixed(3)}`,
  ],
]);
printTable(
  `One turn of ${DELTAS} deltas, median of ${ROUNDS} rounds × ${TURNS} turns (ms)`,
  [...samples].map(([name, values]) => [
    name,
    `median ${median(values).toFixed(1)}, best ${Math.min(...values).toFixed(1)}`,
  ]),
);
