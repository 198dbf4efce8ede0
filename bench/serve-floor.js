/**
 * The floor `npm run bench:serve` measures `cody serve` against: the thinnest HTTP front end one can put
 * on the same engine with node:http — the three routes the bench drives, no token check, no routing
 * table, no validation, no event log or replay, no secret scrubbing. Each event's JSON is streamed as SSE
 * with the same 4 ms gathering as `cody serve`, the turn's end at once. Not a product: what is left over
 * the library here is what any node:http server over this engine costs on this machine.
 * Prints `listening on <url>` on stderr, as `cody serve` does. Environment as for `cody serve`.
 */
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';

const { createCody } = await import(join(import.meta.dirname, '..', 'dist', 'bundle', 'index.js'));
const cody = createCody({ env: process.env, cwd: process.env.CODY_HOME });
const conversations = new Map();
const streams = new Map();

function json(response, status, body) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

function readBody(request) {
  return new Promise((resolve) => {
    let text = '';
    request.setEncoding('utf8').on('data', (chunk) => (text += chunk));
    request.on('end', () => resolve(text === '' ? {} : JSON.parse(text)));
  });
}

function openStream(id, response) {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  response.write('retry: 1000\n\n');
  let pending = '';
  let timer;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    response.write(pending);
    pending = '';
  };
  streams.set(id, (data, urgent) => {
    pending += `data: ${data}\n\n`;
    if (urgent) flush();
    else timer ??= setTimeout(flush, 4);
  });
  response.on('close', () => streams.delete(id));
}

async function runTurn(id, text, response) {
  const conversation = conversations.get(id);
  let answered = false;
  let last;
  // As `cody serve` does, the turn's end is sent once the turn no longer counts as running.
  for await (const event of conversation.submit(text)) {
    if (!answered) {
      answered = true;
      json(response, 202, { turnId: event.turnId });
    }
    if (event.type === 'turn-complete' || event.type === 'turn-failed') last = event;
    else streams.get(id)?.(JSON.stringify(event), false);
  }
  streams.get(id)?.(JSON.stringify(last), true);
}

const server = createServer(async (request, response) => {
  const [, , id, tail] = request.url.split('/');
  if (request.method === 'POST' && id === undefined) {
    const conversation = await cody.create(await readBody(request));
    conversations.set(conversation.id, conversation);
    json(response, 201, { id: conversation.id });
  } else if (request.method === 'GET' && tail === 'events') {
    openStream(id, response);
  } else if (request.method === 'POST' && tail === 'messages') {
    const { text } = await readBody(request);
    await runTurn(id, text, response);
  } else {
    json(response, 404, { code: 'not-found' });
  }
});
server.listen(0, '127.0.0.1', () =>
  process.stderr.write(`listening on http://127.0.0.1:${server.address().port}\n`),
);
process.on('SIGTERM', () => process.exit(0));
