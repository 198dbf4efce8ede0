// Measures what an HTTP library would cost `cody serve` against plain node:http: process start-up to the
// first answered request, and per-request time (keep-alive, sequential, JSON in and out).
// Not part of `npm run bench`: the candidates are not dependencies. Run it with
//   npm install --no-save fastify@5.12.8 hono@4.13.19 @hono/node-server@2.1.8 && node bench/http-library.bench.js
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

const ROUNDS = Number(process.env.ROUNDS ?? 15);
const REQUESTS = Number(process.env.REQUESTS ?? 2000);

const servers = {
  'node:http': `
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const parsed = body ? JSON.parse(body) : {};
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: req.url.split('/')[2], echo: parsed.text ?? null }));
      });
    });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));`,
  fastify: `
    const { default: Fastify } = await import('fastify');
    const app = Fastify();
    app.get('/conversations/:id', async (req) => ({ id: req.params.id, echo: null }));
    app.post('/conversations/:id', async (req) => ({ id: req.params.id, echo: req.body.text }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    console.log(app.server.address().port);`,
  hono: `
    const { Hono } = await import('hono');
    const { serve } = await import('@hono/node-server');
    const app = new Hono();
    app.get('/conversations/:id', (c) => c.json({ id: c.req.param('id'), echo: null }));
    app.post('/conversations/:id', async (c) => c.json({ id: c.req.param('id'), echo: (await c.req.json()).text }));
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => console.log(info.port));`,
};

function startServer(source) {
  const started = performance.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', source], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk) => resolve({ child, port: Number(String(chunk).trim()), started }));
    child.once('error', reject);
  });
}

function call(agent, port, method, body) {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: '/conversations/abc',
        agent,
        headers: body ? { 'content-type': 'application/json' } : {},
      },
      (res) => {
        res.resume();
        res.on('end', resolve);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const missing = [];
for (const name of ['fastify', 'hono', '@hono/node-server']) {
  await import(name).catch(() => missing.push(name));
}
if (missing.length > 0) {
  // `npm run bench` runs every bench file: say how to run this one instead of failing.
  console.log(`skipped: ${missing.join(', ')} not installed (see the command at the top of this file)`);
  process.exit(0);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = Object.fromEntries(
  Object.keys(servers).map((name) => [name, { startup: [], get: [], post: [] }]),
);
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, source] of Object.entries(servers)) {
    const { child, port, started } = await startServer(source);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    await call(agent, port, 'GET');
    results[name].startup.push(performance.now() - started);
    const body = JSON.stringify({ text: 'hello there' });
    for (let i = 0; i < 200; i++) await call(agent, port, 'GET'); // warm-up
    let t = performance.now();
    for (let i = 0; i < REQUESTS; i++) await call(agent, port, 'GET');
    results[name].get.push(((performance.now() - t) / REQUESTS) * 1000);
    t = performance.now();
    for (let i = 0; i < REQUESTS; i++) await call(agent, port, 'POST', body);
    results[name].post.push(((performance.now() - t) / REQUESTS) * 1000);
    agent.destroy();
    child.kill();
    await new Promise((resolve) => child.once('exit', resolve));
  }
}
const base = results['node:http'];
for (const [name, r] of Object.entries(results)) {
  console.log(
    `${name.padEnd(10)} start-up to first answer ${median(r.startup).toFixed(1)} ms (x${(median(r.startup) / median(base.startup)).toFixed(2)})` +
      `  GET ${median(r.get).toFixed(0)} µs (x${(median(r.get) / median(base.get)).toFixed(2)})` +
      `  POST ${median(r.post).toFixed(0)} µs (x${(median(r.post) / median(base.post)).toFixed(2)})`,
  );
}
