/**
 * `npm run bench:serve`: what `cody serve` adds to a turn, against the fake provider. Three sides, each a
 * long-lived process of its own: the library (createCody from the built package entry, driven in that
 * process), `cody serve` over HTTP + SSE, and bench/serve-floor.js — the thinnest node:http server on the
 * same engine, i.e. what any HTTP front end costs here. Each side first runs --warm-up conversations
 * unmeasured (the figures are a long-running process's, not its JIT warm-up; see DECISIONS.md).
 *
 * Then --rounds rounds, the sides in a rotating order within each round, each running --conversations
 * conversations × --turns turns, --parallel at a time (the load: 10 at a time, 50 conversations
 * in all). This shared machine's speed drifts by more than the server's cost between one run and the
 * next, so the server is compared with the library of the same round: "added" is the median over rounds
 * of (side's p50 − library's p50). Then the same one conversation at a time: the cost without queueing.
 * Target: p50 added ≤ 5 ms at 10 at a time. Run after `npm run build`.
 * Options: --rounds N (15) --conversations N (10 per round) --turns N (10) --parallel N (10) --warm-up N (60).
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
const ROUNDS = option('rounds', 15);
const TURNS = option('turns', 10);
/**
 * Conversations each side runs first, unmeasured, 10 at a time. V8 was still optimizing new functions
 * ~0.2 times per turn after 1,000 turns of `cody serve`, and its first 300 turns cost the main thread
 * ~6.9 ms each against ~3.9 ms from the 600th on.
 */
const WARM_UP_CONVERSATIONS = option('warm-up', 60);
const WARM_UP = { conversations: WARM_UP_CONVERSATIONS, parallel: 10 };
/** The load (10 at a time), then one at a time: the cost without queueing. */
const SCENARIOS = [
  { conversations: option('conversations', 10), parallel: option('parallel', 10) },
  { conversations: 2, parallel: 1 },
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

/** Runs `worker()` `count` times, `parallel` at a time. */
async function pool(count, parallel, worker) {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        next += 1;
        await worker();
      }
    }),
  );
}

/** The library side's process: warms up, then runs each batch the parent sends over IPC. */
async function librarySide() {
  const { createCody } = await import(join(repo, 'dist', 'bundle', 'index.js'));
  const cody = createCody({ env: process.env, cwd: process.env.CODY_HOME });
  const run = async ({ conversations, parallel }) => {
    const latencies = [];
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    await pool(conversations, parallel, async () => {
      const conversation = await cody.create(SELECTION);
      for (let turn = 0; turn < TURNS; turn += 1) {
        const begin = performance.now();
        let last;
        for await (const event of conversation.submit(`turn ${turn}`)) last = event;
        if (last?.type !== 'turn-complete') throw new Error(`turn failed: ${JSON.stringify(last)}`);
        latencies.push(performance.now() - begin);
      }
    });
    const cpu = process.cpuUsage(cpuBefore);
    return {
      latencies,
      seconds: (performance.now() - started) / 1000,
      cpuMs: (cpu.user + cpu.system) / 1000,
    };
  };
  process.on('message', async (batch) => {
    if (batch === 'stop') {
      await cody.close();
      process.disconnect();
      return;
    }
    process.send(await run(batch));
  });
  process.send('ready');
}

function startLibrary(env) {
  const child = spawn(process.execPath, [import.meta.filename, '--library-side', ...process.argv.slice(2)], {
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let waiting;
  child.on('message', (message) => waiting?.resolve(message));
  child.on('exit', (code) => waiting?.reject(new Error(`library side exited ${code}`)));
  const next = () => new Promise((resolve, reject) => (waiting = { resolve, reject }));
  const ready = next();
  return {
    name: 'library (createCody in its process)',
    ready,
    run: (batch) => {
      const answer = next();
      child.send(batch);
      return answer;
    },
    peakMiB: () => undefined,
    stop: async () => {
      child.send('stop');
      await new Promise((resolve) => child.on('exit', resolve));
    },
  };
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

/** An HTTP side (`cody serve` or the floor), driven by a node:http client with keep-alive from here. */
async function startHttpSide(name, command, env) {
  const { child, url } = await startProcess(command, env, /listening on (http:\/\/\S+)/);
  const token =
    command[1] === 'serve' ? readFileSync(join(env.CODY_HOME, 'serve-token'), 'utf8').trim() : '-';
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  // node:http, not fetch: the client's own cost (undici) must not pass for the server's.
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
  const run = async ({ conversations, parallel }) => {
    const latencies = [];
    let events = 0;
    const started = performance.now();
    const cpuBefore = cpuMsOf(child.pid);
    const clientCpuBefore = process.cpuUsage();
    await pool(conversations, parallel, async () => {
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
    });
    const clientCpu = process.cpuUsage(clientCpuBefore);
    return {
      latencies,
      seconds: (performance.now() - started) / 1000,
      cpuMs: cpuMsOf(child.pid) - cpuBefore,
      clientCpuMs: (clientCpu.user + clientCpu.system) / 1000,
      events,
    };
  };
  return {
    name,
    ready: Promise.resolve(),
    run,
    peakMiB: () =>
      Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024,
    stop: async () => {
      agent.destroy();
      child.kill('SIGTERM');
      await new Promise((resolve) => child.on('exit', resolve));
    },
  };
}

function median(values) {
  return percentile(values, 50);
}

/** Runs every round (sides in rotating order) and prints the table of one scenario. */
async function measure(sides, scenario) {
  const turns = scenario.conversations * TURNS;
  process.stdout.write(
    `\n${ROUNDS} rounds × ${scenario.conversations} conversations × ${TURNS} turns, ` +
      `${scenario.parallel} at a time, against the fake provider\n`,
  );
  const results = sides.map(() => []);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (let step = 0; step < sides.length; step += 1) {
      const index = (round + step) % sides.length;
      results[index].push(await sides[index].run(scenario));
    }
  }
  const all = (index, field) => results[index].flatMap((result) => result[field]);
  const total = (index, field) => results[index].reduce((sum, result) => sum + (result[field] ?? 0), 0);
  process.stdout.write(
    `\n${'per turn'.padEnd(36)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'turns/s'.padStart(8)} ` +
      `${'CPU ms'.padStart(7)} ${'added p50'.padStart(10)} ${'added p99'.padStart(10)}\n`,
  );
  for (const [index, side] of sides.entries()) {
    const latencies = all(index, 'latencies');
    const added = (p) =>
      index === 0
        ? ''
        : `${median(results[index].map((result, round) => percentile(result.latencies, p) - percentile(results[0][round].latencies, p))).toFixed(1)}`;
    process.stdout.write(
      `${side.name.padEnd(36)} ${percentile(latencies, 50).toFixed(1).padStart(7)} ` +
        `${percentile(latencies, 99).toFixed(1).padStart(7)} ` +
        `${((turns * ROUNDS) / total(index, 'seconds')).toFixed(0).padStart(8)} ` +
        `${(total(index, 'cpuMs') / (turns * ROUNDS)).toFixed(2).padStart(7)} ` +
        `${added(50).padStart(10)} ${added(99).padStart(10)}\n`,
    );
  }
  const serve = 1;
  process.stdout.write(
    `\nadded by cody serve, p50 (median of ${ROUNDS} rounds): ${median(results[serve].map((result, round) => percentile(result.latencies, 50) - percentile(results[0][round].latencies, 50))).toFixed(1)} ms (target ≤ 5 at 10 at a time)\n` +
      `cody serve's HTTP client: ${(total(serve, 'clientCpuMs') / (turns * ROUNDS)).toFixed(2)} ms of CPU per turn, ` +
      `${(total(serve, 'events') / (turns * ROUNDS)).toFixed(1)} events per turn\n`,
  );
}

if (process.argv.includes('--library-side')) {
  await librarySide();
} else {
  const root = await mkdtemp(join(tmpdir(), 'cody-serve-bench-'));
  const fake = await startProcess(
    [join(repo, 'dist', 'tests', 'fake-provider', 'cli.js'), '--port', '0'],
    process.env,
    /listening on (http:\/\/\S+)/,
  );
  const envFor = (name) => ({
    ...process.env,
    CODY_HOME: join(root, name),
    NO_COLOR: '1',
    OPENAI_API_KEY: 'bench-key',
    OPENAI_BASE_URL: `${fake.url}/v1`,
  });
  const sides = [];
  try {
    sides.push(startLibrary(envFor('library')));
    sides.push(
      await startHttpSide(
        'cody serve (HTTP + SSE)',
        [join(repo, 'bin', 'cody.js'), 'serve', '--port', '0'],
        envFor('serve'),
      ),
    );
    sides.push(
      await startHttpSide(
        'floor: bare node:http on the engine',
        [join(repo, 'bench', 'serve-floor.js')],
        envFor('floor'),
      ),
    );
    for (const side of sides) {
      await side.ready;
      await side.run(WARM_UP);
    }
    for (const scenario of SCENARIOS) await measure(sides, scenario);
    process.stdout.write(`cody serve peak RSS: ${sides[1].peakMiB().toFixed(1)} MiB\n`);
  } finally {
    for (const side of sides) await side.stop();
    fake.child.kill();
    await rm(root, { recursive: true, force: true });
  }
}
