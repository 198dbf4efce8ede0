/**
 * Start-up benchmarks (issue targets, as ratios measured in one interleaved run):
 *   cody --version            ≤ 1.25 × node -e 0
 *   cody list (1,000 × ~200 KB conversations) ≤ 2 × node -e 0
 *   one cody chat turn        ≤ 1.5 × a bare script importing the same SDK making the same call
 * Run after `npm run build`: node bench/startup.bench.js [--rounds N]
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compare, printTable, timeProcess } from './lib.js';

const roundsIndex = process.argv.indexOf('--rounds');
const rounds = roundsIndex > 0 ? Number(process.argv[roundsIndex + 1]) : 15;
const node = process.execPath;
const cody = join(import.meta.dirname, '..', 'bin', 'cody.js');
const root = await mkdtemp(join(tmpdir(), 'cody-bench-'));

async function makeConversations(home, count, bytesEach) {
  const directory = join(home, 'conversations');
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const filler = 'x'.repeat(900);
  for (let index = 0; index < count; index += 1) {
    const id = `0190${index.toString(16).padStart(4, '0')}-0000-7000-8000-${index.toString(16).padStart(12, '0')}`;
    const stamp = new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString();
    const lines = [
      {
        timestamp: stamp,
        type: 'session_meta',
        payload: {
          id,
          timestamp: stamp,
          cwd: '/tmp',
          originator: 'cody',
          cli_version: '0.1.0',
          provider: 'openai',
          api: 'openai-chat',
          model: 'gpt-4.1-mini',
          model_provider: 'openai',
        },
      },
      {
        timestamp: stamp,
        type: 'response_item',
        payload: {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: `conversation ${index}` }],
        },
      },
    ];
    let size = 0;
    while (size < bytesEach) {
      const line = {
        timestamp: stamp,
        type: 'response_item',
        payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: filler }] },
      };
      lines.push(line);
      size += 1000;
    }
    lines.push({
      timestamp: stamp,
      type: 'event_msg',
      payload: {
        type: 'turn_complete',
        turn_id: 't',
        message_count: lines.length - 1,
        compaction_count: 0,
        first_user_message: `conversation ${index}`,
      },
    });
    await writeFile(
      join(directory, `${id}.jsonl`),
      `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`,
      { mode: 0o600 },
    );
  }
}

function startFakeProvider() {
  return new Promise((resolve, reject) => {
    const child = spawn(
      node,
      [join(import.meta.dirname, '..', 'dist', 'tests', 'fake-provider', 'cli.js'), '--port', '0'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    child.stdout.setEncoding('utf8').on('data', (text) => {
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) resolve({ url: match[1], stop: () => child.kill() });
    });
    child.on('error', reject);
  });
}

try {
  const listHome = join(root, 'list-home');
  await makeConversations(listHome, 1000, 200_000);
  const emptyHome = join(root, 'empty-home');
  const fake = await startFakeProvider();
  try {
    const cases = [
      { name: 'node -e 0', run: () => timeProcess(node, ['-e', '0']) },
      { name: 'cody --version', run: () => timeProcess(node, [cody, '--version']) },
      {
        name: 'cody list, no list cache (1,000 × 200 KB)',
        run: async () => {
          await rm(join(listHome, 'conversations', '.list-cache.json'), { force: true });
          return timeProcess(node, [cody, 'list'], { env: { ...process.env, CODY_HOME: listHome } });
        },
      },
      {
        name: 'cody list (1,000 × 200 KB)',
        run: () => timeProcess(node, [cody, 'list'], { env: { ...process.env, CODY_HOME: listHome } }),
      },
    ];
    const apis = [
      ['openai-chat', 'openai', 'chat', 'gpt-4.1-mini'],
      ['openai-responses', 'openai', 'responses', 'gpt-4.1-mini'],
      ['anthropic-messages', 'anthropic', 'messages', 'claude-sonnet-4-6'],
      ['gemini', 'google', 'gemini', 'gemini-2.5-flash'],
    ];
    for (const [api, provider, apiName, model] of apis) {
      const home = join(emptyHome, api);
      const env = {
        ...process.env,
        CODY_HOME: home,
        NO_COLOR: '1',
        OPENAI_API_KEY: 'bench-key',
        ANTHROPIC_API_KEY: 'bench-key',
        GEMINI_API_KEY: 'bench-key',
        OPENAI_BASE_URL: `${fake.url}/v1`,
        ANTHROPIC_BASE_URL: fake.url,
        GOOGLE_GEMINI_BASE_URL: fake.url,
      };
      await timeProcess(node, [cody, 'set-provider', provider, '--api', apiName, '--model', model], { env });
      cases.push({
        name: `bare ${api} SDK turn`,
        run: () => timeProcess(node, [join(import.meta.dirname, 'bare-turn.js'), api, fake.url]),
      });
      // A new conversation per sample keeps every sample the same size.
      cases.push({
        name: `cody chat turn (${api})`,
        run: async () => {
          await timeProcess(node, [cody, 'new'], { env });
          return timeProcess(node, [cody, 'chat', 'hello'], { env });
        },
      });
    }
    const medians = await compare(cases, rounds);
    const base = medians.get('node -e 0');
    const rows = [...medians].map(([name, value]) => [name, `${value.toFixed(1)} ms`]);
    printTable(`Medians over ${rounds} interleaved rounds`, rows);
    const ratio = (name, against) => (medians.get(name) / medians.get(against)).toFixed(2);
    const ratios = [
      ['cody --version / node -e 0 (target ≤ 1.25)', ratio('cody --version', 'node -e 0')],
      ['cody list / node -e 0 (target ≤ 2)', ratio('cody list (1,000 × 200 KB)', 'node -e 0')],
      [
        'cody list, no list cache / node -e 0',
        ratio('cody list, no list cache (1,000 × 200 KB)', 'node -e 0'),
      ],
    ];
    for (const [api] of apis)
      ratios.push([
        `chat turn / bare SDK, ${api} (target ≤ 1.5)`,
        ratio(`cody chat turn (${api})`, `bare ${api} SDK turn`),
      ]);
    printTable(`Ratios (node -e 0 = ${base.toFixed(1)} ms)`, ratios);
  } finally {
    fake.stop();
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
