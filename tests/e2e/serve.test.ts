/**
 * `cody serve` end to end: the real `bin/cody serve` process with a temporary CODY_HOME against the fake
 * provider, driven by a real HTTP client and SSE parser.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventsOf, type ApiClient } from '../server/sse-client.js';
import { createHarness, FAKE_KEYS, linesOfType, type Harness } from './harness.js';
import { startServe, type ServeProcess } from './serve-harness.js';

let harness: Harness;
const servers: ServeProcess[] = [];

beforeEach(async () => {
  harness = await createHarness();
  await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-4o-mini' });
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop('SIGKILL');
  await harness.close();
});

async function serve(args: string[] = []): Promise<ServeProcess> {
  const server = await startServe(harness, args);
  servers.push(server);
  return server;
}

async function createConversation(api: ApiClient): Promise<string> {
  const created = await api.request('POST', '/conversations', {
    provider: 'openai',
    api: 'chat',
    model: 'gpt-4o-mini',
  });
  expect(created.status).toBe(201);
  return String(created.json.id);
}

/** The commands are not on the safe list (echo is: it would run without asking). */
function shellCall(command: string, id = 'call_1') {
  return { type: 'reply' as const, toolCalls: [{ id, name: 'shell', arguments: { command } }] };
}

describe('cody serve', () => {
  it('runs a whole conversation with a tool call approved over the API', async () => {
    const server = await serve();
    expect(server.stderr()).toContain(`shown only this once): ${server.token}`);
    expect((await stat(join(harness.env.CODY_HOME ?? '', 'serve-token'))).mode & 0o777).toBe(0o600);
    const { api } = server;
    const id = await createConversation(api);
    const stream = await api.events(`/conversations/${id}/events`);
    harness.server.enqueue(shellCall('printf "%s\\n" served-by-cody'), {
      type: 'reply',
      text: 'It printed served-by-cody.',
    });

    const accepted = await api.request('POST', `/conversations/${id}/messages`, { text: 'run echo' });
    expect(accepted.status).toBe(202);
    const turnId = String(accepted.json.turnId);
    const untilApproval = await stream.until((event) => event.type === 'approval-requested');
    const request = eventsOf(untilApproval).at(-1) ?? {};
    expect(request).toMatchObject({ conversationId: id, call: { name: 'shell' } });
    const state = await api.request('GET', `/conversations/${id}/state`);
    expect(state.json).toMatchObject({
      state: 'AwaitingToolApproval',
      pendingApprovals: [{ id: request.id, callId: 'call_1', tool: 'shell' }],
    });
    expect(
      (await api.request('POST', `/approvals/${String(request.id)}`, { decision: 'approve' })).status,
    ).toBe(200);
    const rest = await stream.until(
      (event) => event.type === 'turn-complete' || event.type === 'turn-failed',
    );
    const events = eventsOf([...untilApproval, ...rest]);

    expect(events[0]).toMatchObject({ type: 'turn-started', turnId });
    expect(events.at(-1)).toMatchObject({ type: 'turn-complete', turnId, status: 'completed' });
    expect(events.find((event) => event.type === 'tool-finished')).toMatchObject({ status: 'ok' });
    const text = events
      .filter((event) => event.type === 'text-delta')
      .map((event) => event.text)
      .join('');
    expect(text).toBe('It printed served-by-cody.');
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['state', 'approval-resolved', 'usage']),
    );
    // On the wire: the command's real output went back to the model.
    expect(JSON.stringify(harness.server.modelRequests('openai-chat')[1]?.body)).toContain('served-by-cody');
    // On disk, and through the transcript route.
    const outputs = linesOfType(await harness.rollout(id), 'response_item').filter(
      (line) => line.payload.type === 'function_call_output',
    );
    expect(JSON.stringify(outputs)).toContain('served-by-cody');
    const transcript = await api.request('GET', `/conversations/${id}/messages`);
    expect(transcript.text).toContain('run echo');
    expect(transcript.text).toContain('It printed served-by-cody.');
    // The CLI sees the same conversation while the server runs.
    const listed = await harness.cody(['list', '--json']);
    expect(JSON.parse(listed.stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ id })]));
    // Keys never leave the server.
    const everything = stream.raw() + transcript.text + state.text;
    for (const key of Object.values(FAKE_KEYS)) expect(everything).not.toContain(key);
    stream.close();
  });

  it('declines a call that needs approval when no client is attached to answer it, never a hang', async () => {
    const { api } = await serve();
    const id = await createConversation(api);
    harness.server.enqueue(shellCall('printf "%s\\n" nobody-here'), { type: 'reply', text: 'Understood.' });
    const started = Date.now();
    expect((await api.request('POST', `/conversations/${id}/messages`, { text: 'run it' })).status).toBe(202);
    // Nobody listens to the events: after the attach grace (5 s) the call is declined and the turn ends.
    let state = '';
    while (Date.now() - started < 20_000) {
      state = String((await api.request('GET', `/conversations/${id}/state`)).json.state);
      if (state === 'Idle' && harness.server.modelRequests('openai-chat').length === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(state).toBe('Idle');
    const messages = (
      harness.server.modelRequests('openai-chat')[1]?.body as {
        messages: Array<{ role: string; content: unknown }>;
      }
    ).messages;
    expect(String(messages.find((message) => message.role === 'tool')?.content)).toMatch(
      /^Declined: this call needs approval .* nobody can approve it here/,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
  }, 30_000);

  it('sends the reason of a denial to the model with the denial, in that call’s output', async () => {
    const server = await serve();
    const { api } = server;
    const id = await createConversation(api);
    const stream = await api.events(`/conversations/${id}/events`);
    harness.server.enqueue(shellCall('npm install'), { type: 'reply', text: 'I will use npm ci.' });
    expect((await api.request('POST', `/conversations/${id}/messages`, { text: 'install' })).status).toBe(
      202,
    );
    const request = eventsOf(await stream.until((event) => event.type === 'approval-requested')).at(-1) ?? {};
    const answered = await api.request('POST', `/approvals/${String(request.id)}`, {
      decision: 'deny',
      reason: 'use npm ci instead',
    });
    expect(answered.status).toBe(200);
    const rest = eventsOf(
      await stream.until((event) => event.type === 'turn-complete' || event.type === 'turn-failed'),
    );
    expect(rest.find((event) => event.type === 'tool-call')).toMatchObject({
      approved: false,
      declinedBy: 'user',
      reason: 'use npm ci instead',
    });
    const messages = (
      harness.server.modelRequests('openai-chat').at(-1)?.body as {
        messages: Array<{ role: string; content: unknown }>;
      }
    ).messages;
    const tool = messages.find((message) => message.role === 'tool');
    expect(String(tool?.content)).toBe(
      'The user declined to run this tool call and said: use npm ci instead',
    );
    // Not a separate message of the person's.
    expect(messages.filter((message) => message.role === 'user')).toHaveLength(1);
    stream.close();
  });

  it('pages the transcript, switches the model per conversation, compacts and deletes', async () => {
    const { api } = await serve();
    const id = await createConversation(api);
    const stream = await api.events(`/conversations/${id}/events`);
    for (const text of ['first question', 'second question']) {
      // Long answers, so a compaction has something to save.
      harness.server.enqueue({ type: 'reply', text: `answer to ${text}: ${'details '.repeat(400)}` });
      await api.request('POST', `/conversations/${id}/messages`, { text });
      await stream.until((event) => event.type === 'turn-complete');
    }
    const page = await api.request('GET', `/conversations/${id}/messages?limit=1`);
    expect(page.status).toBe(200);
    expect(page.json.next).toEqual(expect.any(String));
    const nextPage = await api.request(
      'GET',
      `/conversations/${id}/messages?after=${String(page.json.next)}`,
    );
    expect(nextPage.text).toContain('second question');
    expect(nextPage.text).not.toBe(page.text);

    const otherId = await createConversation(api);
    const selection = await api.request('PUT', `/conversations/${otherId}/selection`, {
      provider: 'anthropic',
      api: 'messages',
      model: 'claude-sonnet-4-6',
    });
    expect(selection.status).toBe(200);
    const otherStream = await api.events(`/conversations/${otherId}/events`);
    await api.request('POST', `/conversations/${otherId}/messages`, { text: 'on the other one' });
    await otherStream.until((event) => event.type === 'turn-complete');
    const anthropic = harness.server.modelRequests('anthropic-messages');
    expect(anthropic).toHaveLength(1);
    expect(anthropic[0]?.model).toBe('claude-sonnet-4-6');
    expect(JSON.stringify(anthropic[0]?.body)).not.toContain('first question');
    // The original conversation keeps its own model.
    await api.request('POST', `/conversations/${id}/messages`, { text: 'third' });
    await stream.until((event) => event.type === 'turn-complete');
    expect(harness.server.modelRequests('openai-chat').at(-1)?.model).toBe('gpt-4o-mini');

    harness.server.enqueue({ type: 'reply', text: 'Two questions.' }); // the summary
    expect(
      (await api.request('POST', `/conversations/${id}/compact`, { focus: 'the questions' })).status,
    ).toBe(202);
    const compaction = eventsOf(await stream.until((event) => event.type === 'compaction-finished'));
    expect(compaction.at(-1)).toMatchObject({ trigger: 'manual', status: 'compacted' });
    expect(linesOfType(await harness.rollout(id), 'compacted')).toHaveLength(1);

    expect((await api.request('DELETE', `/conversations/${otherId}`)).status).toBe(200);
    expect((await api.request('GET', `/conversations/${otherId}`)).status).toBe(404);
    const remaining = await readdir(join(harness.env.CODY_HOME ?? '', 'conversations'));
    expect(remaining.filter((name) => name.endsWith('.jsonl'))).toEqual([`${id}.jsonl`]);
    stream.close();
    otherStream.close();
  });

  it('forks a conversation into a branch with its parent and the message it branched from', async () => {
    const { api } = await serve();
    const id = await createConversation(api);
    const stream = await api.events(`/conversations/${id}/events`);
    for (const text of ['first question', 'second question']) {
      await api.request('POST', `/conversations/${id}/messages`, { text });
      await stream.until((event) => event.type === 'turn-complete');
    }
    // atUserTurn: 1 keeps user turn 1 and its answer (as `cody fork --at 1`).
    const fork = await api.request('POST', `/conversations/${id}/fork`, { atUserTurn: 1 });
    expect(fork.status).toBe(201);
    const forkId = String(fork.json.id);
    expect(forkId).not.toBe(id);
    expect(fork.text).toContain(id);
    const forkStream = await api.events(`/conversations/${forkId}/events`);
    await api.request('POST', `/conversations/${forkId}/messages`, { text: 'on the branch' });
    await forkStream.until((event) => event.type === 'turn-complete');
    const sent = JSON.stringify(harness.server.modelRequests().at(-1)?.body);
    expect(sent).toContain('first question');
    expect(sent).not.toContain('second question');
    expect((await api.request('GET', '/conversations')).text).toContain(forkId);
    stream.close();
    forkStream.close();
  });

  it('two clients on one conversation: the second gets 409 while a turn runs, both see the same events; a CLI turn waits for the lock', async () => {
    const { api } = await serve();
    const other = (await serve()).api; // a second server process on the same CODY_HOME
    const id = await createConversation(api);
    const first = await api.events(`/conversations/${id}/events`);
    const second = await api.events(`/conversations/${id}/events`);
    harness.server.enqueue(shellCall('printf "%s\\n" two-clients'), { type: 'reply', text: 'done' });
    expect((await api.request('POST', `/conversations/${id}/messages`, { text: 'go' })).status).toBe(202);
    const firstPart = await first.until((event) => event.type === 'approval-requested');
    const approval = eventsOf(firstPart).at(-1) ?? {};
    const refused = await api.request('POST', `/conversations/${id}/messages`, { text: 'me too' });
    expect([refused.status, refused.json]).toMatchObject([409, { error: { code: 'turn-running' } }]);
    // A CLI turn on the same conversation waits for the lock, as two CLIs do.
    // Approve only once the CLI says it waits (a fixed pause lost that race on a loaded machine).
    let cliWaits = (): void => undefined;
    const waiting = new Promise<void>((resolve) => (cliWaits = resolve));
    const cli = harness.cody(['chat', '--conversation', id, 'from the cli'], {
      onStderr: (stderr) => {
        if (stderr.includes('Waiting for another cody process')) cliWaits();
      },
    });
    await Promise.race([waiting, cli]);
    await api.request('POST', `/approvals/${String(approval.id)}`, { decision: 'approve' });
    const seenByFirst = [...firstPart, ...(await first.until((event) => event.type === 'turn-complete'))];
    const seenBySecond = await second.until((event) => event.type === 'turn-complete');
    expect(seenBySecond).toEqual(seenByFirst);
    const cliRun = await cli;
    expect(cliRun.code).toBe(0);
    expect(cliRun.stderr).toContain('Waiting for another cody process');
    expect(cliRun.stdout).toContain('echo: from the cli');
    // No interleaving: the CLI's turn comes whole after the server's.
    const users = linesOfType(await harness.rollout(id), 'response_item')
      .filter((line) => line.payload.type === 'message' && line.payload.role === 'user')
      .map((line) => JSON.stringify(line.payload.content));
    expect(users.slice(-2)).toEqual([expect.stringContaining('go'), expect.stringContaining('from the cli')]);
    // The other server reads the same conversation.
    expect((await other.request('GET', `/conversations/${id}/messages`)).text).toContain('from the cli');
    first.close();
    second.close();
  });

  it('a conversation `cody delete` removes while the server has it open: the next turn cannot start (404 at once, no event), nothing recreated', async () => {
    const { api } = await serve();
    const id = await createConversation(api);
    harness.server.enqueue({ type: 'reply', text: 'first' });
    const events = await api.events(`/conversations/${id}/events`);
    await api.request('POST', `/conversations/${id}/messages`, { text: 'one' });
    await events.until((event) => event.type === 'turn-complete');
    events.close();
    const deleted = await harness.cody(['delete', id, '--yes']);
    expect(deleted.code).toBe(0);
    const failing = await api.events(`/conversations/${id}/events`);
    // The turn could not start: the POST says so (no 202), and its stream gets no turn-failed.
    const refused = await api.request('POST', `/conversations/${id}/messages`, { text: 'two' });
    expect([refused.status, refused.json]).toMatchObject([
      404,
      { error: { code: 'conversation-not-found' } },
    ]);
    await expect(failing.next(300)).rejects.toThrow(/no event within/);
    failing.close();
    for (const [method, path, body] of [
      ['POST', `/conversations/${id}/messages`, { text: 'three' }],
      ['GET', `/conversations/${id}/events`, undefined],
      ['GET', `/conversations/${id}`, undefined],
    ] as const) {
      const answer = await api.request(method, path, body);
      expect([answer.status, answer.json]).toMatchObject([
        404,
        { error: { code: 'conversation-not-found' } },
      ]);
    }
    expect(await readdir(join(harness.env.CODY_HOME ?? '', 'conversations'))).not.toContain(`${id}.jsonl`);
  });

  it('an SSE client that reconnects with Last-Event-ID loses no event', async () => {
    const { api } = await serve();
    const id = await createConversation(api);
    const witness = await api.events(`/conversations/${id}/events`);
    const dropped = await api.events(`/conversations/${id}/events`);
    harness.server.enqueue(shellCall('printf "%s\\n" reconnect'), {
      type: 'reply',
      text: 'after the reconnect',
    });
    await api.request('POST', `/conversations/${id}/messages`, { text: 'go' });
    const beforeDrop = await dropped.until((event) => event.type === 'approval-requested');
    dropped.close();
    const approvalId = String(eventsOf(beforeDrop).at(-1)?.id);
    await api.request('POST', `/approvals/${approvalId}`, { decision: 'approve' });
    const all = await witness.until((event) => event.type === 'turn-complete');
    const resumed = await api.events(`/conversations/${id}/events`, {
      lastEventId: beforeDrop.at(-1)?.id ?? '',
    });
    const replayed = await resumed.until((event) => event.type === 'turn-complete');
    expect([...beforeDrop, ...replayed]).toEqual(all);
    expect(eventsOf(replayed).map((event) => event.type)).toContain('tool-finished');
    witness.close();
    resumed.close();
  });

  it('answers every bad input with the right status and code and writes nothing', async () => {
    const { api, url } = await serve();
    const id = await createConversation(api);
    const conversations = join(harness.env.CODY_HOME ?? '', 'conversations');
    const snapshot = async () =>
      Promise.all(
        (await readdir(conversations))
          .sort()
          .map(async (name) => [name, await readFile(join(conversations, name), 'utf8')]),
      );
    const before = await snapshot();
    const unknown = '0190c000-0000-7000-8000-000000000000';
    const cases: Array<[string, string, unknown, number, string]> = [
      ['POST', `/conversations/${id}/messages`, '{"text": "unterminated', 400, 'invalid-json'],
      ['POST', `/conversations/${id}/messages`, { txt: 'typo' }, 400, 'invalid-request'],
      ['POST', `/conversations/${id}/messages`, { text: '   ' }, 400, 'invalid-request'],
      // Over the 1 MB every route but a message's allows (a message may carry images: 72 MB).
      ['POST', '/conversations', { title: 'x'.repeat(2 * 1024 * 1024) }, 413, 'payload-too-large'],
      ['POST', `/conversations/${unknown}/messages`, { text: 'hi' }, 404, 'conversation-not-found'],
      ['GET', `/conversations/${unknown}`, undefined, 404, 'conversation-not-found'],
      ['GET', `/conversations/${unknown}/events`, undefined, 404, 'conversation-not-found'],
      ['DELETE', `/conversations/not-an-id`, undefined, 404, 'conversation-not-found'],
      ['POST', '/conversations', { provider: 'nope' }, 400, 'invalid-request'],
      [
        'PUT',
        `/conversations/${id}/selection`,
        { provider: 'openai', api: 'gemini' },
        400,
        'invalid-request',
      ],
      ['POST', `/conversations/${id}/fork`, { atUserTurn: -1 }, 400, 'invalid-request'],
      ['GET', `/conversations/${id}/messages?limit=abc`, undefined, 400, 'invalid-request'],
      ['POST', '/approvals/unknown-approval', { decision: 'approve' }, 404, 'approval-not-found'],
      ['POST', '/approvals/unknown-approval', { decision: 'yes' }, 400, 'invalid-request'],
      ['GET', '/no-such-route', undefined, 404, 'not-found'],
    ];
    for (const [method, path, body, status, code] of cases) {
      const answer = await api.request(method, path, body);
      expect([method, path, answer.status, answer.json]).toMatchObject([
        method,
        path,
        status,
        { error: { code } },
      ]);
    }
    for (const authorization of [undefined, 'Bearer wrong-token']) {
      const answer = await fetch(`${url}/conversations`, {
        method: 'POST',
        headers: authorization ? { authorization } : {},
        body: '{}',
      });
      expect(answer.status).toBe(401);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    }
    expect(await snapshot()).toEqual(before);
    expect(harness.server.modelRequests()).toHaveLength(0);
  });

  it('refuses a non-loopback host without --allow-remote, and bad options, in one line', async () => {
    for (const args of [
      ['--host', '0.0.0.0'],
      ['--port', 'http'],
    ]) {
      const run = await harness.cody(['serve', ...args]);
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect((await harness.cody(['serve', '--host', '0.0.0.0'])).stderr).toContain('--allow-remote');
  });

  it('SIGTERM mid-turn: exit 0, the turn recorded as interrupted, no partial line; a restart loses nothing', async () => {
    const first = await serve();
    const id = await createConversation(first.api);
    const stream = await first.api.events(`/conversations/${id}/events`);
    await first.api.request('POST', `/conversations/${id}/messages`, { text: 'remember the word zebra' });
    await stream.until((event) => event.type === 'turn-complete');
    harness.server.enqueue(shellCall('printf "%s\\n" never-approved'));
    await first.api.request('POST', `/conversations/${id}/messages`, { text: 'now a tool' });
    await stream.until((event) => event.type === 'approval-requested');
    expect(await first.stop('SIGTERM')).toBe(0);
    expect(first.stderr()).not.toMatch(/at .*\.js:\d+/);
    const text = await readFile(join(harness.env.CODY_HOME ?? '', 'conversations', `${id}.jsonl`), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.split('\n').filter((line) => line !== '');
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(text).not.toContain('never-approved\\n'); // the command never ran
    // Recorded as interrupted (a `cody_turn_aborted` item, the Codex-readable shape of Cody's own event).
    const aborted = linesOfType(lines, 'response_item').filter(
      (line) => line.payload.type === 'cody_turn_aborted',
    );
    expect(aborted).toHaveLength(1);

    const second = await serve();
    expect(second.token).toBe(first.token);
    expect(second.stderr()).not.toContain(second.token);
    const transcript = await second.api.request('GET', `/conversations/${id}/messages`);
    expect(transcript.text).toContain('remember the word zebra');
    expect(transcript.text).toContain('now a tool');
    const resumed = await second.api.events(`/conversations/${id}/events`);
    expect(
      (await second.api.request('POST', `/conversations/${id}/messages`, { text: 'what word?' })).status,
    ).toBe(202);
    const last = eventsOf(
      await resumed.until((event) => event.type === 'turn-complete' || event.type === 'turn-failed'),
    );
    expect(last.at(-1)).toMatchObject({ type: 'turn-complete' });
    expect(JSON.stringify(harness.server.modelRequests().at(-1)?.body)).toContain('remember the word zebra');
    resumed.close();
  });
});
