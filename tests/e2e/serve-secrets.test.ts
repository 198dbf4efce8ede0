/**
 * No stored key or sign-in token in anything `cody serve` sends (issue 23): a key saved with
 * `cody auth login` and a Codex sign-in token (HOME/.codex/auth.json) are echoed by the fake model in a
 * reply, in a command's arguments and in its output; neither appears in any JSON answer (list, summary,
 * transcript, state with the approval waiting, export in every format), in any SSE frame (the
 * conversation's stream, a replay of it, `GET /events`) or in a rollout. The sign-in token is also typed
 * into an earlier turn, before the person signed in, so the rollout holds it: what the server sends from
 * then on must not.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateAnswer, validateEvent } from '../server/openapi-validator.js';
import { apiClient, eventsOf, type ApiClient } from '../server/sse-client.js';
import { createHarness, type Harness } from './harness.js';
import { startServe, type ServeProcess } from './serve-harness.js';

/** Neither has a key's shape: only the exact list of known secrets can catch them. */
const STORED = 'stored-openai-key-7q8w9e0r1t';
const ACCESS = 'codex-access-5z6x7c8v9b';

let harness: Harness;
let server: ServeProcess | undefined;

beforeEach(async () => {
  harness = await createHarness({ chunkDelayMs: 2 });
  await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-4.1-mini', approval: 'ask' });
  // The person stores their key with `cody auth login`; the environment has none.
  delete harness.env.OPENAI_API_KEY;
  const login = await harness.cody(['auth', 'login', 'openai'], { input: `${STORED}\n` });
  expect(login.code, login.stderr).toBe(0);
});
afterEach(async () => {
  await server?.stop('SIGKILL');
  server = undefined;
  await harness.close();
});

/** Everything the server sent while `watching`: each answer's body and each stream's bytes. */
function recordingClient(serve: ServeProcess, sent: Array<{ where: string; text: string }>): ApiClient {
  return apiClient(serve.url, serve.token, {
    answer: (method, path, status, headers, text) => {
      validateAnswer(method, path, status, headers, text);
      sent.push({ where: `${method} ${path} ${status}`, text });
    },
    event: (path, event, data) => {
      validateEvent(path, event, data);
      sent.push({ where: `${path} ${event ?? 'message'}`, text: data });
    },
  });
}

function leaks(sent: ReadonlyArray<{ where: string; text: string }>): string[] {
  return sent.flatMap(({ where, text }) =>
    [STORED, ACCESS]
      .filter((secret) => text.includes(secret))
      .map((secret) => `${where}: …${secret.slice(-4)}`),
  );
}

describe('cody serve never sends a stored key or a sign-in token', () => {
  it('in JSON answers, SSE frames and rollouts, also for a token recorded before the sign-in', async () => {
    server = await startServe(harness);
    const { api } = server;
    const id = String((await api.request('POST', '/conversations', {})).json.id);

    // Before the sign-in: the person pastes the token; Cody does not know it yet, so it is recorded.
    harness.server.enqueue({ type: 'reply', text: `Noted: ${ACCESS}.` });
    const before = await api.events(`/conversations/${id}/events`);
    expect(
      (await api.request('POST', `/conversations/${id}/messages`, { text: `token ${ACCESS}` })).status,
    ).toBe(202);
    const first = await before.until((event) => event.type === 'turn-complete', 30_000);
    before.close();
    const boot = String(first[0]?.id).replace(/-\d+$/, '');

    // The person signs in with Codex: the token is in their credential file from now on.
    await mkdir(join(harness.home, '.codex'), { recursive: true });
    await writeFile(
      join(harness.home, '.codex', 'auth.json'),
      JSON.stringify({ tokens: { access_token: ACCESS, refresh_token: 'codex-refresh-1a2s3d4f5g' } }),
    );

    const sent: Array<{ where: string; text: string }> = [];
    const watched = recordingClient(server, sent);
    const signals = await watched.events('/events');
    const stream = await watched.events(`/conversations/${id}/events`);
    // Writes a file, so it asks first (a plain echo would run unasked).
    const command = `echo ${STORED} ${ACCESS} > echoed.txt; cat echoed.txt`;
    harness.server.enqueue(
      { type: 'reply', text: `Your key is ${STORED} and your token ${ACCESS}.` },
      { type: 'reply', toolCalls: [{ id: 'call_echo', name: 'shell', arguments: { command } }] },
      { type: 'reply', text: `It printed ${STORED}.` },
    );
    expect((await watched.request('POST', `/conversations/${id}/messages`, { text: 'say it' })).status).toBe(
      202,
    );
    await stream.until((event) => event.type === 'turn-complete', 30_000);
    expect((await watched.request('POST', `/conversations/${id}/messages`, { text: 'run it' })).status).toBe(
      202,
    );
    const asked = eventsOf(await stream.until((event) => event.type === 'approval-requested', 30_000)).at(-1);
    // The question waits: the state route shows it, with the command as the client sees it.
    const state = await watched.request('GET', `/conversations/${id}/state`);
    expect(state.json.pendingApprovals).toHaveLength(1);
    expect(state.text).toContain('[REDACTED]');
    await watched.request('POST', `/approvals/${String(asked?.id)}`, { decision: 'approve' });
    const run = eventsOf(await stream.until((event) => event.type === 'turn-complete', 30_000));
    expect(run.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
    // The command ran with the real values (the model's request carries its output, which is redacted).
    expect(run.some((event) => event.type === 'tool-output')).toBe(true);
    stream.close();

    // Everything a client reads afterwards.
    await watched.request('GET', '/conversations');
    await watched.request('GET', `/conversations/${id}`);
    const transcript = await watched.request('GET', `/conversations/${id}/messages`);
    expect(transcript.text).toContain('[REDACTED]');
    await watched.request('GET', `/conversations/${id}/state`);
    for (const format of ['md', 'json', 'html']) {
      await watched.request('GET', `/conversations/${id}/export?format=${format}`);
    }
    // A client that comes back replays the whole log, the first turn's events included.
    const replay = await watched.events(`/conversations/${id}/events`, { lastEventId: `${boot}-0` });
    await replay.until((event) => event.type === 'turn-complete', 10_000);
    replay.close();
    signals.close();
    sent.push({ where: 'GET /events (raw)', text: signals.raw() });

    expect(sent.length).toBeGreaterThan(20);
    expect(leaks(sent)).toEqual([]);
    expect(leaks([{ where: 'serve stderr', text: server.stderr() }])).toEqual([]);
    const conversations = join(harness.env.CODY_HOME ?? '', 'conversations');
    // The first turn was recorded before the sign-in (nobody knew the token); every line after it is clean.
    const files = (await readdir(conversations)).filter((file) => file.endsWith('.jsonl'));
    expect(files.length).toBeGreaterThan(0);
    const lines = (await readFile(join(conversations, `${id}.jsonl`), 'utf8')).split('\n');
    const afterSignIn = lines.slice(lines.findIndex((line) => line.includes('say it')));
    expect(leaks([{ where: 'rollout after the sign-in', text: afterSignIn.join('\n') }])).toEqual([]);
    expect(
      leaks([{ where: 'rollout', text: lines.join('\n') }]).every((leak) => leak.endsWith(ACCESS.slice(-4))),
    ).toBe(true);
  }, 90_000);
});
