/**
 * `npm run bench`: the speed and memory targets in one table, every case interleaved round by
 * round in one run (machine noise hits them alike), medians and ratios. Run after `npm run build`.
 *   - a `cody chat` turn, fresh and resumed (20 turns of history), on each of the four APIs against the
 *     fake provider; beside it Codex CLI's native binary on the same fake (Responses API) when one is
 *     found (CODEX_BIN, or `codex` on PATH: the npm package's native binary is used, not its Node
 *     launcher); peak RSS per turn; idle time between a turn's last output and its exit;
 *   - `cody resume` on 2, 20 and 50 MB rollouts without compaction (ms and MiB per MB), and 50 MB with a
 *     compaction near the end;
 *   - `cody list` over 1,000 × 200 KB conversations with and without its cache (each measured listing
 *     right after an unmeasured one, so the files are in the page cache); `cody --version`.
 * Options: --rounds N (default 9).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { median } from './lib.js';
import { makeListHome, makeResumeRollout } from './fixtures.js';

const roundsIndex = process.argv.indexOf('--rounds');
const rounds = roundsIndex > 0 ? Number(process.argv[roundsIndex + 1]) : 9;
const node = process.execPath;
const cody = join(import.meta.dirname, '..', 'bin', 'cody.js');
const root = await mkdtemp(join(tmpdir(), 'cody-bench-'));
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/**
 * Runs a command to completion: wall time, peak RSS (MiB, when /usr/bin/time exists) and the time
 * between its last output on stdout and its exit.
 */
function measure(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const [file, argv] = TIME ? [TIME, ['-f', '%M', command, ...args]] : [command, args];
    const started = performance.now();
    const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let lastOutput = started;
    let stderr = '';
    child.stdout.on('data', () => (lastOutput = performance.now()));
    // stdout only: /usr/bin/time writes its figure to stderr after the child has exited.
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ended = performance.now();
      if (code !== 0) return reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr}`));
      const rss = TIME ? Number(stderr.trim().split('\n').at(-1)) / 1024 : undefined;
      resolve({ ms: ended - started, rss, exitLag: ended - lastOutput });
    });
  });
}

function startFakeProvider() {
  return new Promise((resolve, reject) => {
    const fakeCli = join(import.meta.dirname, '..', 'dist', 'tests', 'fake-provider', 'cli.js');
    const child = spawn(node, [fakeCli, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.setEncoding('utf8').on('data', (text) => {
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) resolve({ url: match[1], stop: () => child.kill() });
    });
    child.on('error', reject);
  });
}

/** Codex's native binary: CODEX_BIN, or the one behind `codex` on PATH (its npm launcher is Node). */
function findCodex() {
  const candidates = process.env.CODEX_BIN
    ? [process.env.CODEX_BIN]
    : (process.env.PATH ?? '').split(delimiter).map((directory) => join(directory, 'codex'));
  const found = candidates.find((file) => existsSync(file));
  if (!found) return undefined;
  const head = readFileSync(found).subarray(0, 64).toString('latin1');
  if (!head.startsWith('#!') || !head.includes('node')) return found;
  // The npm package: node_modules/@openai/codex/bin/codex.js → a sibling platform package's binary.
  let directory = dirname(execFileSync('readlink', ['-f', found], { encoding: 'utf8' }).trim());
  while (directory !== dirname(directory) && !directory.endsWith('node_modules'))
    directory = dirname(directory);
  const scope = join(directory, '@openai');
  for (const name of existsSync(scope) ? readdirSync(scope) : []) {
    const vendor = join(scope, name, 'vendor');
    if (!name.startsWith('codex-') || !existsSync(vendor)) continue;
    for (const triple of readdirSync(vendor)) {
      const binary = join(vendor, triple, 'bin', 'codex');
      if (existsSync(binary) && statSync(binary).isFile()) return binary;
    }
  }
  return undefined;
}

/**
 * One `cody list`. Each measured listing follows an unmeasured one that reads the same files: this VM's
 * DAMON reclaim pages out file pages touched at most once per 5 s window for a minute, which the list
 * files are between rounds, so without it the figure measured the disk (DECISIONS.md, "Speed, measured",
 * has the cold figures).
 */
function listOnce(home) {
  return measure(node, [cody, 'list'], { env: { ...process.env, CODY_HOME: home } });
}

const apis = [
  ['openai-responses', 'openai', 'responses', 'gpt-5-mini'],
  ['openai-chat', 'openai', 'chat', 'gpt-4.1-mini'],
  ['anthropic-messages', 'anthropic', 'messages', 'claude-sonnet-4-6'],
  ['gemini', 'google', 'gemini', 'gemini-2.5-flash'],
];

const fake = await startFakeProvider();
try {
  process.stdout.write('Preparing (1,000 × 200 KB conversations, 2/20/50 MB rollouts, 20-turn histories)…\n');
  const listHome = join(root, 'list-home');
  await makeListHome(listHome, 1000, 200_000);
  const resumeHomes = {};
  for (const [name, megabytes, compacted] of [
    ['2 MB', 2, false],
    ['20 MB', 20, false],
    ['50 MB', 50, false],
    ['50 MB, compaction near the end', 50, true],
  ]) {
    resumeHomes[name] = { home: join(root, `resume-${megabytes}-${compacted}`), megabytes };
    await makeResumeRollout(resumeHomes[name].home, megabytes * 1048576, compacted);
  }
  const cases = [
    { name: 'node -e 0', run: () => measure(node, ['-e', '0']) },
    // The time from its only output to its exit is what Node itself needs to shut down.
    { name: "node -e 'console.log(0)'", run: () => measure(node, ['-e', 'console.log(0)']) },
    { name: 'cody --version', run: () => measure(node, [cody, '--version']) },
    {
      name: 'cody list (1,000 × 200 KB)',
      run: async () => {
        await listOnce(listHome);
        return listOnce(listHome);
      },
    },
    {
      name: 'cody list, no cache (1,000 × 200 KB)',
      run: async () => {
        await rm(join(listHome, 'conversations', '.list-cache.json'), { force: true });
        await listOnce(listHome);
        await rm(join(listHome, 'conversations', '.list-cache.json'), { force: true });
        return listOnce(listHome);
      },
    },
  ];
  for (const [name, { home }] of Object.entries(resumeHomes)) {
    const env = { ...process.env, CODY_HOME: home };
    cases.push({
      name: `cody resume, ${name}`,
      run: () => measure(node, [cody, 'resume', '01900000-0000-7000-8000-000000000001'], { env }),
    });
  }
  for (const [api, provider, apiName, model] of apis) {
    const home = join(root, `turn-${api}`);
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
    await measure(node, [cody, 'set-provider', provider, '--api', apiName, '--model', model], { env });
    // A 20-turn history, copied afresh before each resumed sample so every sample is the same size.
    await measure(node, [cody, 'new'], { env });
    for (let turn = 0; turn < 20; turn += 1) await measure(node, [cody, 'chat', `turn ${turn}`], { env });
    const history = join(root, `history-${api}`);
    await cp(join(home, 'conversations'), history, { recursive: true });
    cases.push({
      name: `cody chat, fresh (${api})`,
      run: async () => {
        await measure(node, [cody, 'new'], { env });
        return measure(node, [cody, 'chat', 'hello'], { env });
      },
    });
    cases.push({
      name: `cody chat, resumed 20 turns (${api})`,
      run: async () => {
        await rm(join(home, 'conversations'), { recursive: true, force: true });
        await cp(history, join(home, 'conversations'), { recursive: true });
        return measure(node, [cody, 'chat', 'hello'], { env });
      },
    });
  }
  const codex = findCodex();
  if (codex) {
    const codexHome = join(root, 'codex-home');
    const workspace = join(root, 'codex-workspace');
    await mkdir(codexHome, { recursive: true });
    await mkdir(workspace, { recursive: true });
    await writeFile(
      join(codexHome, 'config.toml'),
      [
        'model = "gpt-5-mini"',
        'model_provider = "fake"',
        '[model_providers.fake]',
        'name = "fake"',
        `base_url = "${fake.url}/v1"`,
        'wire_api = "responses"',
        'env_key = "OPENAI_API_KEY"',
        '',
      ].join('\n'),
    );
    const env = { ...process.env, CODEX_HOME: codexHome, OPENAI_API_KEY: 'bench-key' };
    const exec = (...args) =>
      measure(codex, ['exec', '--skip-git-repo-check', ...args], { env, cwd: workspace });
    await exec('turn 0');
    for (let turn = 1; turn < 20; turn += 1) await exec('resume', '--last', `turn ${turn}`);
    const sessions = join(codexHome, 'sessions');
    const history = join(root, 'codex-history');
    await cp(sessions, history, { recursive: true });
    cases.push({ name: 'codex exec, fresh (openai-responses)', run: () => exec('hello') });
    cases.push({
      name: 'codex exec resume, 20 turns (openai-responses)',
      run: async () => {
        await rm(sessions, { recursive: true, force: true });
        await cp(history, sessions, { recursive: true });
        return exec('resume', '--last', 'hello');
      },
    });
  }

  const samples = new Map(cases.map((entry) => [entry.name, []]));
  for (const entry of cases) await entry.run(); // warm-up: page cache, compile caches
  for (let round = 0; round < rounds; round += 1) {
    process.stdout.write(`\rround ${round + 1}/${rounds}`);
    for (const entry of cases) samples.get(entry.name).push(await entry.run());
  }
  process.stdout.write('\n');
  const stat = (name, key) => median(samples.get(name).map((sample) => sample[key]));
  const base = stat('node -e 0', 'ms');
  const rows = [['', 'median ms', '× node -e 0', 'peak RSS MiB', 'exit lag ms']];
  for (const { name } of cases) {
    const rss = stat(name, 'rss');
    rows.push([
      name,
      stat(name, 'ms').toFixed(1),
      (stat(name, 'ms') / base).toFixed(2),
      Number.isNaN(rss) ? '–' : rss.toFixed(1),
      stat(name, 'exitLag').toFixed(1),
    ]);
  }
  const ratio = (a, b) => (stat(a, 'ms') / stat(b, 'ms')).toFixed(2);
  const targets = [
    ['cody --version / node -e 0', ratio('cody --version', 'node -e 0'), '≤ 1.25'],
    ['cody list / node -e 0', ratio('cody list (1,000 × 200 KB)', 'node -e 0'), '≤ 1.5'],
    ['cody list, no cache / node -e 0', ratio('cody list, no cache (1,000 × 200 KB)', 'node -e 0'), '≤ 2'],
  ];
  const slope = (key) =>
    (stat('cody resume, 50 MB', key) - stat('cody resume, 2 MB', key)) /
    (resumeHomes['50 MB'].megabytes - resumeHomes['2 MB'].megabytes);
  targets.push(['resume without compaction, ms per MB (2 → 50 MB)', slope('ms').toFixed(1), '≤ 12']);
  if (TIME) targets.push(['resume without compaction, MiB RSS per MB', slope('rss').toFixed(2), '≤ 2']);
  for (const [api] of apis) {
    const fresh = `cody chat, fresh (${api})`;
    const resumed = `cody chat, resumed 20 turns (${api})`;
    if (codex) {
      targets.push([
        `${resumed} / codex resume`,
        ratio(resumed, 'codex exec resume, 20 turns (openai-responses)'),
        '≤ 1.10',
      ]);
      targets.push([`${fresh} / codex fresh`, ratio(fresh, 'codex exec, fresh (openai-responses)'), '']);
    } else {
      targets.push([`${resumed} / node -e 0`, ratio(resumed, 'node -e 0'), '≤ 2.5']);
    }
  }
  const turnNames = cases.map(({ name }) => name).filter((name) => name.startsWith('cody chat'));
  if (TIME) {
    const peak = Math.max(...turnNames.map((name) => stat(name, 'rss')));
    targets.push(['largest median peak RSS of a cody chat turn, MiB', peak.toFixed(1), '≤ 100']);
  }
  const lag = Math.max(...turnNames.map((name) => stat(name, 'exitLag')));
  const nodeLag = stat("node -e 'console.log(0)'", 'exitLag');
  targets.push(['largest median exit lag of a cody chat turn, ms', lag.toFixed(1), '']);
  targets.push(["  the same for node -e 'console.log(0)' (Node's own shut-down)", nodeLag.toFixed(1), '']);
  targets.push(['  idle time at exit: the difference, ms', (lag - nodeLag).toFixed(1), '≤ 5']);
  if (!codex) targets.push(['Codex CLI', 'not found (set CODEX_BIN or put codex on PATH)', '']);

  process.stdout.write(`\nMedians of ${rounds} interleaved rounds (node ${process.version})\n`);
  const widths = [56, 10, 12, 13, 12];
  for (const row of rows)
    process.stdout.write(
      `${row.map((cell, index) => (index === 0 ? cell.padEnd(widths[0]) : cell.padStart(widths[index]))).join(' ')}\n`,
    );
  process.stdout.write('\n');
  for (const [name, value, target] of targets)
    process.stdout.write(`${name.padEnd(66)} ${String(value).padStart(8)}  ${target}\n`);
} finally {
  fake.stop();
  await rm(root, { recursive: true, force: true });
}
