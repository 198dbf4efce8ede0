/**
 * `npm run bench:serve`: what `cody serve` adds to a turn. 50 conversations × 10 turns against the fake
 * provider, 10 conversations at a time, run twice — through the library (createCody from the built package
 * entry, in a process of its own) and through `cody serve` over HTTP + SSE — and the difference of the two
 * per-turn latencies is the server's cost. Reports p50/p99 per turn, throughput and the server's peak
 * RSS. Target: p50 added ≤ 5 ms. Run after `npm run build`.
 * Then the same one conversation at a time (10 × 10), the server's cost without queueing. A third side,
 * bench/serve-floor.js, is the thinnest node:http server on the same engine: what any HTTP front end costs.
 * Each side is a fresh process that first runs --warm-up conversations unmeasured, 10 at a time: the
 * figures are a long-running process's, not its JIT warm-up (see DECISIONS.md).
 * Options: --conversations N (50) --turns N (10) --parallel N (10) --warm-up N (60).
 */
import { spawn } from 'node:child_process';
import { Buffer } from 'node:buffer';
import { Agent, request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const option = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const TURNS = option('turns', 10);
/**
 * Conversations run first on each side and not measured. Both sides are fresh processes; V8 was still
 * optimizing new functions ~0.2 times per turn after 1,000 turns of `cody serve`, and the first 300 turns
 * cost its main thread ~6.9 ms each against ~3.9 ms from the 600th on.
 */
const WARM_UP_CONVERSATIONS = option('warm-up', 60);
/** Warm-up runs this many at a time whatever the scenario (it only has to run the code, not measure it). */
const WARM_UP_PARALLEL = 10;
/** The load (50 conversations, 10 at a time), then one at a time: latency without queueing. */
const SCENARIOS = [
  { conversations: option('conversations', 50), parallel: option('parallel', 10) },
  { conversations: 10, parallel: 1 },
];
const repo = join(import.meta.dirname, '..');
const SELECTION = { provider: 'openai', api: 'chat', model: 'gpt-4o-mini' };

/** A process's CPU time so far (user + system), in ms, from /proc (clock ticks of 10 ms). */
function cpuMsOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs `worker(index)` for 0..count-1, `parallel` at a time. */
async function pool(count, parallel, worker) {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) await worker(next++);
    }),
  );
}

function startProcess(args, env, pattern) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...(process.env.CODY_BENCH_PROFILE && args[1] === 'serve'
          ? ['--cpu-prof', '--cpu-prof-dir', process.env.CODY_BENCH_PROFILE]
          : []),
        ...args,
      ],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let text = '';
    const onData = (chunk) => {
      text += chunk;
      const match = pattern.exec(text);
      if (match) resolve({ child, url: match[1] });
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${text}`)));
  });
}

const CODY_SERVE = [join(repo, 'bin', 'cody.js'), 'serve', '--port', '0'];
/** The thinnest node:http front end on the same engine (bench/serve-floor.js): no token, no event log. */
const FLOOR = [join(repo, 'bench', 'serve-floor.js')];

async function overServer(env, { conversations: CONVERSATIONS, parallel: PARALLEL }, command = CODY_SERVE) {
  const { child, url } = await startProcess(command, env, /listening on (http:\/\/\S+)/);
  const token =
    command === CODY_SERVE ? readFileSync(join(env.CODY_HOME, 'serve-token'), 'utf8').trim() : '-';
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  // node:http with keep-alive, not fetch: the client's own cost (undici) must not pass for the server's.
  const agent = new Agent({ keepAlive: true });
  const { hostname, port } = new URL(url);
  const call = (method, path, body) =>
    new Promise((resolve, reject) => {
      const payload = body ? JSON.stringify(body) : undefined;
      const request = httpRequest(
        {
          hostname,
          port,
          path,
          method,
          agent,
          headers: { ...headers, ...(payload ? { 'content-length': Buffer.byteLength(payload) } : {}) },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk) => (text += chunk));
          response.on('end', () =>
            response.statusCode >= 300
              ? reject(new Error(`${method} ${path}: ${response.statusCode} ${text}`))
              : resolve(JSON.parse(text)),
          );
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  const openStream = (path, onEvent) =>
    new Promise((resolve, reject) => {
      const request = httpRequest({ hostname, port, path, headers }, (response) => {
        let buffer = '';
        response.setEncoding('utf8').on('data', (chunk) => {
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block
              .split('\n')
              .filter((line) => line.startsWith('data:'))
              .map((line) => line.slice(5).trimStart())
              .join('\n');
            if (data) onEvent(JSON.parse(data));
          }
        });
        resolve(() => request.destroy());
      });
      request.on('error', (error) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
      request.end();
    });
  let latencies = [];
  let events = 0;
  const conversation = async () => {
    const { id } = await call('POST', '/conversations', SELECTION);
    let onEnd = () => undefined;
    const close = await openStream(`/conversations/${id}/events`, (event) => {
      events += 1;
      if (event.type === 'turn-complete' || event.type === 'turn-failed') onEnd(event);
    });
    for (let turn = 0; turn < TURNS; turn += 1) {
      const begin = performance.now();
      const finished = new Promise((resolve) => (onEnd = resolve));
      await call('POST', `/conversations/${id}/messages`, { text: `turn ${turn}` });
      const event = await finished;
      if (event.type !== 'turn-complete') throw new Error(`turn failed: ${JSON.stringify(event)}`);
      latencies.push(performance.now() - begin);
    }
    close();
  };
  await pool(WARM_UP_CONVERSATIONS, WARM_UP_PARALLEL, conversation);
  latencies = [];
  events = 0;
  const started = performance.now();
  const cpuBefore = cpuMsOf(child.pid);
  const clientCpuBefore = process.cpuUsage();
  await pool(CONVERSATIONS, PARALLEL, conversation);
  const seconds = (performance.now() - started) / 1000;
  const cpuMs = cpuMsOf(child.pid) - cpuBefore;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const peakKiB = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  agent.destroy();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.on('exit', resolve));
  return {
    latencies,
    seconds,
    cpuMs,
    clientCpuMs: (clientCpu.user + clientCpu.system) / 1000,
    events,
    peakMiB: peakKiB / 1024,
  };
}

/** The library side: this file again in a fresh process (`--library-side`), its figures as one JSON line. */
async function overLibrary(env, scenario) {
  const child = spawn(
    process.execPath,
    [
      import.meta.filename,
      '--library-side',
      '--conversations',
      String(scenario.conversations),
      '--parallel',
      String(scenario.parallel),
      '--turns',
      String(TURNS),
      '--warm-up',
      String(WARM_UP_CONVERSATIONS),
    ],
    { env, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let text = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (text += chunk));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`library side exited ${code}: ${text}`);
  return JSON.parse(text);
}

async function libraryInThisProcess(env, { conversations: CONVERSATIONS, parallel: PARALLEL }) {
  const { createCody } = await import(join(repo, 'dist', 'bundle', 'index.js'));
  const cody = createCody({ env, cwd: env.CODY_HOME });
  let latencies = [];
  const run = async () => {
    const conversation = await cody.create(SELECTION);
    for (let turn = 0; turn < TURNS; turn += 1) {
      const begin = performance.now();
      let last;
      for await (const event of conversation.submit(`turn ${turn}`)) last = event;
      if (last?.type !== 'turn-complete') throw new Error(`turn failed: ${JSON.stringify(last)}`);
      latencies.push(performance.now() - begin);
    }
  };
  await pool(WARM_UP_CONVERSATIONS, WARM_UP_PARALLEL, run);
  latencies = [];
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await pool(CONVERSATIONS, PARALLEL, run);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  await cody.close();
  return { latencies, seconds, cpuMs: (cpu.user + cpu.system) / 1000 };
}

if (process.argv.includes('--library-side')) {
  process.stdout.write(`${JSON.stringify(await libraryInThisProcess(process.env, SCENARIOS[0]))}\n`);
  process.exit(0);
}

const root = await mkdtemp(join(tmpdir(), 'cody-serve-bench-'));
const fake = await startProcess(
  [join(repo, 'dist', 'tests', 'fake-provider', 'cli.js'), '--port', '0'],
  process.env,
  /listening on (http:\/\/\S+)/,
);
try {
  const envFor = (name) => ({
    ...process.env,
    CODY_HOME: join(root, name),
    NO_COLOR: '1',
    OPENAI_API_KEY: 'bench-key',
    OPENAI_BASE_URL: `${fake.url}/v1`,
  });
  for (const [n, scenario] of SCENARIOS.entries()) {
    process.stdout.write(
      `\n${scenario.conversations} conversations × ${TURNS} turns, ${scenario.parallel} at a time, against the fake provider\n`,
    );
    // Library first and last: the server's figure is compared with the mean of the two, so a machine
    // that slows down or speeds up during the run does not pass for the server's cost.
    const libraryBefore = await overLibrary(envFor(`library-1-${n}`), scenario);
    const server = await overServer(envFor(`server-${n}`), scenario);
    const floor = await overServer(envFor(`floor-${n}`), scenario, FLOOR);
    const libraryAfter = await overLibrary(envFor(`library-2-${n}`), scenario);
    const library = [...libraryBefore.latencies, ...libraryAfter.latencies];
    const perTurn = (ms) => (ms / (scenario.conversations * TURNS)).toFixed(2);
    process.stdout.write(
      `CPU per turn: library ${perTurn((libraryBefore.cpuMs + libraryAfter.cpuMs) / 2)} ms, ` +
        `cody serve ${perTurn(server.cpuMs)} ms (the server process), ` +
        `its HTTP client ${perTurn(server.clientCpuMs)} ms ` +
        `(${(server.events / (scenario.conversations * TURNS)).toFixed(1)} events per turn); ` +
        `floor server ${perTurn(floor.cpuMs)} ms\n`,
    );
    const rows = [
      ['library (createCody in process)', library, libraryBefore.seconds + libraryAfter.seconds, 2],
      ['cody serve (HTTP + SSE)', server.latencies, server.seconds, 1],
      ['floor: bare node:http on the engine', floor.latencies, floor.seconds, 1],
    ];
    process.stdout.write(
      `\n${'per turn'.padEnd(36)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'turns/s'.padStart(8)}\n`,
    );
    for (const [name, latencies, seconds, runs] of rows) {
      const throughput = (scenario.conversations * TURNS * runs) / seconds;
      process.stdout.write(
        `${name.padEnd(36)} ${percentile(latencies, 50).toFixed(1).padStart(8)} ${percentile(latencies, 99).toFixed(1).padStart(8)} ${throughput.toFixed(0).padStart(8)}\n`,
      );
    }
    const added = (latencies, p) => (percentile(latencies, p) - percentile(library, p)).toFixed(1);
    process.stdout.write(`\nadded by the server, p50: ${added(server.latencies, 50)} ms (target ≤ 5)\n`);
    process.stdout.write(`added by the server, p99: ${added(server.latencies, 99)} ms\n`);
    process.stdout.write(
      `added by the floor server, p50: ${added(floor.latencies, 50)} ms, p99: ${added(floor.latencies, 99)} ms\n`,
    );
    process.stdout.write(`cody serve peak RSS: ${server.peakMiB.toFixed(1)} MiB\n`);
  }
} finally {
  fake.child.kill();
  await rm(root, { recursive: true, force: true });
}
