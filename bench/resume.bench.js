/**
 * Resume cost follows the live history, not the file (issue target: resuming a 50 MB rollout whose last
 * `compacted` line is near the end ≤ 2 × `node -e 0` plus the SDK import).
 * Measures `cody resume` (which rebuilds the live history) and `cody status` on a 50 MB rollout and on a
 * small one with the same live history, against `node -e 0`.
 * Run after `npm run build`: node bench/resume.bench.js [--rounds N]
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compare, printTable, timeProcess } from './lib.js';

const roundsIndex = process.argv.indexOf('--rounds');
const rounds = roundsIndex > 0 ? Number(process.argv[roundsIndex + 1]) : 11;
const node = process.execPath;
const cody = join(import.meta.dirname, '..', 'bin', 'cody.js');
const root = await mkdtemp(join(tmpdir(), 'cody-resume-bench-'));

function line(type, payload) {
  return JSON.stringify({ timestamp: new Date(Date.UTC(2026, 0, 1)).toISOString(), type, payload });
}

/** A rollout of about `bytes` whose live history is the last compaction plus a few turns. */
async function writeRollout(home, id, bytes) {
  const directory = join(home, 'conversations');
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const meta = {
    id,
    timestamp: '2026-01-01T00:00:00.000Z',
    cwd: '/tmp',
    originator: 'cody',
    cli_version: '0.1.0',
    provider: 'openai',
    api: 'openai-chat',
    model: 'gpt-4.1-mini',
    model_provider: 'openai',
  };
  const system = {
    type: 'message',
    role: 'system',
    content: [{ type: 'input_text', text: 'You are Cody.' }],
  };
  const lines = [line('session_meta', meta), line('response_item', system)];
  const filler = 'lorem ipsum dolor sit amet '.repeat(40);
  let size = 0;
  for (let turn = 0; size < bytes; turn += 1) {
    const user = line('response_item', {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: `turn ${turn} ${filler}` }],
    });
    const assistant = line('response_item', {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: filler }],
    });
    lines.push(user, assistant);
    size += user.length + assistant.length + 2;
  }
  const live = [system];
  for (let turn = 0; turn < 20; turn += 1)
    live.push({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: `kept ${turn} ${filler}` }],
    });
  live.push({
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: '[Cody context summary] summary' }],
  });
  lines.push(line('compacted', { message: 'summary', replacement_history: live, compaction_count: 1 }));
  for (let turn = 0; turn < 5; turn += 1) {
    lines.push(
      line('response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: `after ${turn}` }],
      }),
    );
    lines.push(
      line('response_item', {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: `reply ${turn}` }],
      }),
    );
  }
  await writeFile(join(directory, `${id}.jsonl`), `${lines.join('\n')}\n`, { mode: 0o600 });
  return size;
}

try {
  const bigHome = join(root, 'big');
  const smallHome = join(root, 'small');
  const id = '01900000-0000-7000-8000-000000000001';
  const bigBytes = await writeRollout(bigHome, id, 50 * 1024 * 1024);
  await writeRollout(smallHome, id, 100 * 1024);
  const env = (home) => ({ env: { ...process.env, CODY_HOME: home } });
  const medians = await compare(
    [
      { name: 'node -e 0', run: () => timeProcess(node, ['-e', '0']) },
      {
        name: `cody resume, ${(bigBytes / 1048576).toFixed(0)} MB rollout`,
        run: () => timeProcess(node, [cody, 'resume', id], env(bigHome)),
      },
      {
        name: 'cody resume, 100 KB rollout (same live history)',
        run: () => timeProcess(node, [cody, 'resume', id], env(smallHome)),
      },
      { name: 'cody status, 50 MB rollout', run: () => timeProcess(node, [cody, 'status'], env(bigHome)) },
    ],
    rounds,
  );
  printTable(
    `Medians over ${rounds} interleaved rounds`,
    [...medians].map(([name, value]) => [name, `${value.toFixed(1)} ms`]),
  );
  const base = medians.get('node -e 0');
  printTable('Ratios to node -e 0 (target: resume ≤ 2 × node -e 0, before the SDK import a turn adds)', [
    ...[...medians]
      .filter(([name]) => name !== 'node -e 0')
      .map(([name, value]) => [name, (value / base).toFixed(2)]),
  ]);
} finally {
  await rm(root, { recursive: true, force: true });
}
