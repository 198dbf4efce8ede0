/**
 * `cody acp` end to end: the built agent over stdio, driven by the ACP SDK's client side against the fake
 * provider, every message in both directions checked against the SDK's shipped JSON schema. One agent
 * process serves the cases in order (each builds on the conversation the one before left).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestPermissionRequest, SessionNotification } from '@agentclientprotocol/sdk';
import { AcpSchema, startAcpAgent, type AcpAgent } from './acp-client.js';
import { createHarness, linesOfType, type Harness } from './harness.js';
import { PNG_1X1_BASE64 } from './image-fixtures.js';
import { codyInProcess } from './in-process.js';
import { EVERYTHING, makeRepo } from './tool-fixtures.js';

type Update = SessionNotification['update'];

function ofType<T extends Update['sessionUpdate']>(
  updates: Update[],
  type: T,
): Array<Extract<Update, { sessionUpdate: T }>> {
  return updates.filter(
    (update): update is Extract<Update, { sessionUpdate: T }> => update.sessionUpdate === type,
  );
}

function text(
  updates: Update[],
  type: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk',
): string {
  return ofType(updates, type)
    .map((update) => (update.content.type === 'text' ? update.content.text : ''))
    .join('');
}

/** Resolves with the first update that `match` accepts (from now on). */
function nextUpdate(agent: AcpAgent, match: (update: Update) => boolean): Promise<Update> {
  return new Promise((resolve) => {
    const listener = (notification: SessionNotification): void => {
      if (!match(notification.update)) return;
      agent.onUpdate.splice(agent.onUpdate.indexOf(listener), 1);
      resolve(notification.update);
    };
    agent.onUpdate.push(listener);
  });
}

describe('cody acp', () => {
  let harness: Harness;
  let agent: AcpAgent;
  let sessionId = '';
  const schema = new AcpSchema();
  const buffers = new Map<string, string>();
  const editorReads: string[] = [];
  const since = (count: number): Update[] => agent.log.updates(sessionId).slice(count);

  beforeAll(async () => {
    harness = await createHarness();
    await makeRepo(harness.home);
    expect((await codyInProcess(harness, ['set-provider', 'anthropic'])).code).toBe(0);
    // The editor's file system, as Zed's: an open buffer's text (unsaved edits included), else the disk.
    agent = startAcpAgent({
      env: harness.env,
      cwd: harness.home,
      schema,
      app: (app) =>
        app.onRequest('fs/read_text_file', async ({ params }) => {
          editorReads.push(params.path);
          return { content: buffers.get(params.path) ?? (await readFile(params.path, 'utf8')) };
        }),
    });
  });
  afterAll(async () => {
    await agent?.close();
    await harness?.close();
  });

  it('initializes, then opens a session with modes, config options and commands', async () => {
    const spawnedAt = performance.now();
    const init = await agent.connection.agent.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: false } },
      clientInfo: { name: 'test', version: '1' },
    });
    process.stderr.write(
      `acp: spawn to initialize answered: ${Math.round(performance.now() - spawnedAt)} ms\n`,
    );
    expect(init.protocolVersion).toBe(1);
    expect(init.agentInfo).toMatchObject({ name: 'cody', title: 'Cody' });
    expect(init.agentCapabilities).toMatchObject({
      loadSession: true,
      promptCapabilities: { image: true, embeddedContext: true },
      sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {} },
    });
    expect(init.authMethods?.map((method) => method.id)).toEqual(['api-key', 'cody-auth-login']);

    const commands = new Promise<Update>((resolve) =>
      agent.onUpdate.push((notification) => {
        if (notification.update.sessionUpdate === 'available_commands_update') resolve(notification.update);
      }),
    );
    const created = await agent.connection.agent.request('session/new', {
      cwd: harness.home,
      mcpServers: [],
    });
    sessionId = created.sessionId;
    // The session is the conversation: its rollout is under that id.
    expect(linesOfType(await harness.rollout(sessionId), 'session_meta')[0]?.payload.id).toBe(sessionId);
    expect(created.modes?.availableModes.map((mode) => mode.id)).toEqual([
      'read-only',
      'ask',
      'auto-edit',
      'full-auto',
    ]);
    expect(created.modes?.currentModeId).toBe('ask');
    expect(created.configOptions?.map((option) => [option.id, option.category])).toEqual([
      ['mode', 'mode'],
      ['model', 'model'],
      ['reasoning', 'thought_level'],
    ]);
    const announced = await commands;
    // Announced after the answer that named the session (the editor knows the session by then).
    const position = (match: (message: Record<string, unknown>) => boolean): number =>
      agent.log.messages.findIndex(({ message }) => match(message as Record<string, unknown>));
    expect(position((message) => JSON.stringify(message.result ?? null).includes(sessionId))).toBeLessThan(
      position((message) => message.method === 'session/update'),
    );
    expect(
      announced.sessionUpdate === 'available_commands_update' &&
        announced.availableCommands.map((c) => c.name),
    ).toEqual(expect.arrayContaining(['compact', 'undo', 'init']));

    // A relative cwd is refused.
    await expect(
      agent.connection.agent.request('session/new', { cwd: 'relative/dir', mcpServers: [] }),
    ).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('streams a turn: chunks, a read tool call with its location and output, the plan, usage', async () => {
    const before = agent.log.updates(sessionId).length;
    const option = await agent.connection.agent.request('session/set_config_option', {
      sessionId,
      configId: 'reasoning',
      value: 'low',
    });
    expect(option.configOptions.find((entry) => entry.id === 'reasoning')?.currentValue).toBe('low');
    harness.server.enqueue(
      {
        type: 'reply',
        reasoning: 'I should read the file.',
        toolCalls: [
          { id: 'call_read', name: 'read_file', arguments: { path: 'a.txt' } },
          {
            id: 'call_plan',
            name: 'update_plan',
            arguments: {
              plan: [
                { step: 'read a.txt', status: 'completed' },
                { step: 'answer', status: 'in_progress' },
              ],
            },
          },
        ],
      },
      { type: 'reply', text: 'The file says alpha and beta.' },
    );
    const sent = performance.now();
    const firstChunk = nextUpdate(agent, (update) => update.sessionUpdate === 'agent_message_chunk').then(
      () => performance.now(),
    );
    const answer = await agent.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'What does a.txt say?' }],
    });
    process.stderr.write(
      `acp: prompt to first agent_message_chunk: ${Math.round((await firstChunk) - sent)} ms\n`,
    );
    expect(answer.stopReason).toBe('end_turn');
    const updates = since(before);
    expect(ofType(updates, 'config_option_update')).toHaveLength(1);
    expect(ofType(updates, 'agent_message_chunk').length).toBeGreaterThan(1);
    expect(text(updates, 'agent_message_chunk')).toBe('The file says alpha and beta.');
    expect(text(updates, 'agent_thought_chunk')).toContain('I should read the file.');
    const read = ofType(updates, 'tool_call').find((call) => call.toolCallId === 'call_read');
    expect(read).toMatchObject({
      kind: 'read',
      title: 'Read a.txt',
      status: 'pending',
      locations: [{ path: join(harness.home, 'a.txt') }],
      rawInput: { path: 'a.txt' },
    });
    const readUpdates = ofType(updates, 'tool_call_update').filter(
      (update) => update.toolCallId === 'call_read',
    );
    expect(readUpdates.map((update) => update.status).filter(Boolean)).toEqual(['in_progress', 'completed']);
    expect(readUpdates.at(-1)?.rawOutput).toEqual({ output: '     1\talpha\n     2\tbeta' });
    expect(ofType(updates, 'plan')[0]?.entries).toEqual([
      { content: 'read a.txt', priority: 'medium', status: 'completed' },
      { content: 'answer', priority: 'medium', status: 'in_progress' },
    ]);
    expect(ofType(updates, 'tool_call').find((call) => call.toolCallId === 'call_plan')?.kind).toBe('think');
    const usage = ofType(updates, 'usage_update');
    expect(usage.length).toBe(2);
    expect(usage[0]?.size).toBeGreaterThan(0);
    expect(agent.log.problems).toEqual([]);
  });

  it("reads the editor's buffer of a file, and asks the editor only for a file that passed the checks", async () => {
    const before = agent.log.updates(sessionId).length;
    buffers.set(join(harness.home, 'a.txt'), 'alpha (unsaved)\nbeta\n');
    editorReads.length = 0;
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [
          { id: 'call_buffer', name: 'read_file', arguments: { path: 'a.txt' } },
          { id: 'call_missing', name: 'read_file', arguments: { path: 'missing.txt' } },
        ],
      },
      { type: 'reply', text: 'Read.' },
    );
    const answer = await agent.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'read' }],
    });
    expect(answer.stopReason).toBe('end_turn');
    buffers.clear();
    const done = ofType(since(before), 'tool_call_update').filter(
      (update) => update.status === 'completed' || update.status === 'failed',
    );
    expect(done.find((update) => update.toolCallId === 'call_buffer')?.rawOutput).toEqual({
      output: '     1\talpha (unsaved)\n     2\tbeta',
    });
    expect(editorReads).toEqual([join(harness.home, 'a.txt')]);
    // The disk is untouched: the buffer is the editor's.
    expect(await readFile(join(harness.home, 'a.txt'), 'utf8')).toBe('alpha\nbeta\n');
    expect(agent.log.problems).toEqual([]);
  });

  it('asks permission: allow once writes the file (with its diff), reject once leaves it and tells the model', async () => {
    const before = agent.log.updates(sessionId).length;
    const asked: RequestPermissionRequest[] = [];
    let answer = 'allow-once';
    agent.onPermission = (request) => {
      asked.push(request);
      return Promise.resolve({ outcome: { outcome: 'selected', optionId: answer } });
    };
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [
          { id: 'call_write', name: 'write_file', arguments: { path: 'new.txt', content: 'hello\n' } },
        ],
      },
      { type: 'reply', text: 'Wrote it.' },
    );
    const first = await agent.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'write new.txt' }],
    });
    expect(first.stopReason).toBe('end_turn');
    expect(await readFile(join(harness.home, 'new.txt'), 'utf8')).toBe('hello\n');
    expect(asked[0]?.toolCall).toMatchObject({
      toolCallId: 'call_write',
      kind: 'edit',
      title: 'Write new.txt',
    });
    expect(asked[0]?.options.map((option) => option.kind)).toContain('allow_once');
    expect(asked[0]?.options.map((option) => option.kind)).toContain('reject_once');
    for (const option of asked[0]?.options ?? []) {
      if (option.kind === 'allow_always')
        expect(option.name).toMatch(/^Always allow .+ in this conversation$/);
    }
    const written = ofType(since(before), 'tool_call_update').filter(
      (update) => update.toolCallId === 'call_write',
    );
    expect(written.at(-1)).toMatchObject({
      status: 'completed',
      content: expect.arrayContaining([
        { type: 'diff', path: join(harness.home, 'new.txt'), oldText: null, newText: 'hello\n' },
      ]),
    });

    answer = 'reject-once';
    const middle = agent.log.updates(sessionId).length;
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [
          {
            id: 'call_edit',
            name: 'edit_file',
            arguments: { path: 'a.txt', old_text: 'alpha', new_text: 'ALPHA' },
          },
        ],
      },
      { type: 'reply', text: 'OK, not editing.' },
    );
    const second = await agent.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'edit a.txt' }],
    });
    expect(second.stopReason).toBe('end_turn');
    expect(asked).toHaveLength(2);
    expect(await readFile(join(harness.home, 'a.txt'), 'utf8')).toBe('alpha\nbeta\n');
    const edited = ofType(since(middle), 'tool_call_update').filter(
      (update) => update.toolCallId === 'call_edit',
    );
    expect(edited.at(-1)?.status).toBe('failed');
    expect(JSON.stringify(harness.server.modelRequests().at(-1)?.body)).toContain(
      'The user declined to run this tool call',
    );
    expect(agent.log.problems).toEqual([]);
  });

  it('cancels while a permission request waits: the request is cancelled, nothing runs', async () => {
    let asked = (): void => undefined;
    const waiting = new Promise<void>((resolve) => (asked = resolve));
    agent.onPermission = (_request, signal) => {
      asked();
      return new Promise((resolve) =>
        signal.addEventListener('abort', () => resolve({ outcome: { outcome: 'cancelled' } }), {
          once: true,
        }),
      );
    };
    harness.server.enqueue({
      type: 'reply',
      toolCalls: [{ id: 'call_wait', name: 'write_file', arguments: { path: 'never.txt', content: 'x' } }],
    });
    const prompt = agent.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'write' }],
    });
    await waiting;
    await agent.connection.agent.notify('session/cancel', { sessionId });
    expect((await prompt).stopReason).toBe('cancelled');
    expect(
      agent.log.messages.some(({ message }) => 'method' in message && message.method === '$/cancel_request'),
    ).toBe(true);
    await expect(readFile(join(harness.home, 'never.txt'), 'utf8')).rejects.toThrow();
    expect(agent.log.problems).toEqual([]);
  });

  it('cancels mid-command: the command stops, the prompt answers cancelled, the rollout records it', async () => {
    const before = agent.log.updates(sessionId).length;
    await agent.connection.agent.request('session/set_mode', { sessionId, modeId: 'full-auto' });
    const modeUpdates = since(before);
    expect(ofType(modeUpdates, 'current_mode_update')[0]?.currentModeId).toBe('full-auto');
    expect(
      ofType(modeUpdates, 'config_option_update')[0]?.configOptions.find((o) => o.id === 'mode')
        ?.currentValue,
    ).toBe('full-auto');
    harness.server.enqueue({
      type: 'reply',
      toolCalls: [{ id: 'call_sleep', name: 'shell', arguments: { command: 'echo started; sleep 31.7' } }],
    });
    const started = nextUpdate(
      agent,
      (update) =>
        update.sessionUpdate === 'tool_call_update' &&
        update.toolCallId === 'call_sleep' &&
        // Streamed while it runs (the engine may hold back a chunk's tail until more comes).
        JSON.stringify(update.content ?? []).includes('start'),
    );
    const prompt = agent.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'run it' }],
    });
    await started;
    const cancelledAt = performance.now();
    await agent.connection.agent.notify('session/cancel', { sessionId });
    expect((await prompt).stopReason).toBe('cancelled');
    expect(performance.now() - cancelledAt).toBeLessThan(5000);
    const running = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
    expect(running).not.toContain('sleep 31.7');
    const lines = await harness.rollout(sessionId);
    const outputs = linesOfType(lines, 'response_item').filter(
      (line) => line.payload.type === 'function_call_output',
    );
    expect(outputs.map((line) => line.payload.call_id)).toContain('call_sleep');
    expect(
      ofType(since(before), 'tool_call_update')
        .filter((u) => u.toolCallId === 'call_sleep')
        .at(-1)?.status,
    ).toBe('failed');
    expect(agent.log.problems).toEqual([]);
  });

  it('takes text, a file link, the editor buffer as an embedded resource, and an image', async () => {
    harness.server.enqueue({ type: 'reply', text: 'A tiny image.' });
    const answer = await agent.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [
        { type: 'text', text: 'Compare' },
        { type: 'resource_link', uri: `file://${join(harness.home, 'a.txt')}`, name: 'a.txt' },
        {
          type: 'resource',
          resource: { uri: `file://${join(harness.home, 'b.txt')}`, text: 'unsaved buffer text' },
        },
        { type: 'image', mimeType: 'image/png', data: PNG_1X1_BASE64 },
      ],
    });
    expect(answer.stopReason).toBe('end_turn');
    const body = JSON.stringify(harness.server.modelRequests().at(-1)?.body);
    expect(body).toContain(`Compare @${join(harness.home, 'a.txt')}`);
    expect(body).toContain('unsaved buffer text');
    expect(body).toContain(PNG_1X1_BASE64);
    expect(agent.log.problems).toEqual([]);
  });

  it('loads the session: replays what the live turns sent, then says nothing more', async () => {
    const live = agent.log.updates(sessionId);
    await agent.connection.agent.request('session/close', { sessionId });
    const before = live.length;
    const loaded = await agent.connection.agent.request('session/load', {
      sessionId,
      cwd: harness.home,
      mcpServers: [],
    });
    expect(loaded.modes?.currentModeId).toBe('full-auto');
    const replay = since(before);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(agent.log.updates(sessionId).length).toBe(before + replay.length);
    expect(text(replay, 'user_message_chunk')).toContain('What does a.txt say?');
    expect(text(replay, 'agent_message_chunk')).toBe(text(live, 'agent_message_chunk'));
    expect(text(replay, 'agent_thought_chunk')).toBe(text(live, 'agent_thought_chunk'));
    expect(ofType(replay, 'tool_call')).toEqual(ofType(live, 'tool_call'));
    expect(ofType(replay, 'plan')).toEqual(ofType(live, 'plan'));
    const final = (updates: Update[]): unknown[] => {
      const last = new Map<string, unknown>();
      for (const update of ofType(updates, 'tool_call_update'))
        if (update.status === 'completed' || update.status === 'failed')
          last.set(update.toolCallId, { status: update.status, rawOutput: update.rawOutput });
      return [...last.entries()];
    };
    expect(final(replay)).toEqual(final(live));
    expect(ofType(replay, 'available_commands_update')).toHaveLength(1);
    expect(agent.log.problems).toEqual([]);
  });

  it('undoes the last turn that changed files with /undo', async () => {
    expect(await readFile(join(harness.home, 'new.txt'), 'utf8')).toBe('hello\n');
    const before = agent.log.updates(sessionId).length;
    const answer = await agent.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: '/undo' }],
    });
    expect(answer.stopReason).toBe('end_turn');
    expect(text(since(before), 'agent_message_chunk')).toMatch(/^Undid turn \d+\.\nRemoved: new\.txt/);
    await expect(readFile(join(harness.home, 'new.txt'), 'utf8')).rejects.toThrow();
    expect(agent.log.problems).toEqual([]);
  });

  it('uses the MCP servers the editor passes with session/new', async () => {
    agent.onPermission = () => Promise.resolve({ outcome: { outcome: 'selected', optionId: 'allow-once' } });
    const created = await agent.connection.agent.request('session/new', {
      cwd: harness.home,
      mcpServers: [{ name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'], env: [] }],
    });
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [{ id: 'call_echo', name: 'everything__echo', arguments: { message: 'hi there' } }],
      },
      { type: 'reply', text: 'Echoed.' },
    );
    const answer = await agent.connection.agent.request('session/prompt', {
      sessionId: created.sessionId,
      prompt: [{ type: 'text', text: 'echo' }],
    });
    expect(answer.stopReason).toBe('end_turn');
    const updates = agent.log.updates(created.sessionId);
    expect(ofType(updates, 'tool_call')[0]).toMatchObject({
      toolCallId: 'call_echo',
      kind: 'other',
      title: 'everything__echo',
    });
    const done = ofType(updates, 'tool_call_update').filter((update) => update.status === 'completed');
    expect(JSON.stringify(done.at(-1)?.rawOutput)).toContain('Echo: hi there');
    await agent.connection.agent.request('session/close', { sessionId: created.sessionId });
    expect(agent.log.problems).toEqual([]);
  });

  it('writes file changes through an editor that offers fs/write_text_file, never through a link', async () => {
    const home = await realpath(harness.home);
    await mkdir(join(home, 'real'));
    await writeFile(join(home, 'real', 'f.txt'), 'real\n');
    await writeFile(join(home, 'b.txt'), 'bee\n');
    await symlink('real', join(home, 'linkdir'));
    await symlink('b.txt', join(home, 'alias.txt'));
    const writes: Array<{ path: string; content: string }> = [];
    const writer = startAcpAgent({
      env: harness.env,
      cwd: home,
      schema,
      // The editor saves what it was given, marked (so the disk shows who wrote it).
      app: (app) =>
        app.onRequest('fs/write_text_file', async ({ params }) => {
          writes.push({ path: params.path, content: params.content });
          await writeFile(params.path, `${params.content}[editor]\n`);
          return {};
        }),
    });
    writer.onPermission = () => Promise.resolve({ outcome: { outcome: 'selected', optionId: 'allow-once' } });
    try {
      await writer.connection.agent.request('initialize', {
        protocolVersion: 1,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: true } },
      });
      const { sessionId: id } = await writer.connection.agent.request('session/new', {
        cwd: home,
        mcpServers: [],
      });
      const write = (callId: string, path: string, content: string) => ({
        id: callId,
        name: 'write_file',
        arguments: { path, content },
      });
      harness.server.enqueue(
        {
          type: 'reply',
          toolCalls: [
            write('call_plain', 'a.txt', 'plain\n'),
            {
              id: 'call_edit',
              name: 'edit_file',
              arguments: { path: 'untracked-before.txt', old_text: 'mine', new_text: 'MINE' },
            },
            write('call_new', 'fresh.txt', 'fresh\n'),
            write('call_dir_link', 'linkdir/f.txt', 'via dir link\n'),
            write('call_file_link', 'alias.txt', 'via file link\n'),
          ],
        },
        { type: 'reply', text: 'Wrote them.' },
      );
      const answer = await writer.connection.agent.request('session/prompt', {
        sessionId: id,
        prompt: [{ type: 'text', text: 'write them' }],
      });
      expect(answer.stopReason).toBe('end_turn');
      expect(writes).toEqual([
        { path: join(home, 'a.txt'), content: 'plain\n' },
        { path: join(home, 'untracked-before.txt'), content: 'MINE\n' },
      ]);
      const onDisk = (path: string): Promise<string> => readFile(join(home, path), 'utf8');
      expect(await onDisk('a.txt')).toBe('plain\n[editor]\n');
      expect(await onDisk('untracked-before.txt')).toBe('MINE\n[editor]\n');
      // A new file, and paths reached through a link: Cody's own checked writes.
      expect(await onDisk('fresh.txt')).toBe('fresh\n');
      expect(await onDisk('real/f.txt')).toBe('via dir link\n');
      expect(await onDisk('b.txt')).toBe('via file link\n');
      // The undo snapshot was taken before the editor wrote.
      await writer.connection.agent.request('session/prompt', {
        sessionId: id,
        prompt: [{ type: 'text', text: '/undo' }],
      });
      expect(await onDisk('a.txt')).toBe('alpha\nbeta\n');
      expect(await onDisk('untracked-before.txt')).toBe('mine\n');
      expect(writer.log.problems).toEqual([]);
    } finally {
      await writer.close();
    }
    // The first client offered no writes: it never got one, though its session changed files.
    const methods = agent.log.messages.map(({ message }) => (message as { method?: string }).method);
    expect(methods).toContain('fs/read_text_file');
    expect(methods).not.toContain('fs/write_text_file');
  });

  it('lists, deletes (an unknown id too), and answers auth_required when no key is set', async () => {
    const listed = await agent.connection.agent.request('session/list', { cwd: harness.home });
    expect(listed.sessions.map((session) => [session.sessionId, session.cwd])).toContainEqual([
      sessionId,
      harness.home,
    ]);
    await agent.connection.agent.request('session/delete', {
      sessionId: '00000000-0000-4000-8000-000000000000',
    });
    await agent.connection.agent.request('session/delete', { sessionId });
    await expect(harness.rollout(sessionId)).rejects.toThrow();
    expect(agent.log.problems).toEqual([]);

    const env: Record<string, string> = { ...harness.env };
    for (const key of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY']) delete env[key];
    const keyless = startAcpAgent({ env, cwd: harness.home, schema });
    try {
      await keyless.connection.agent.request('initialize', { protocolVersion: 1 });
      // No file system offered: the agent never calls one (the SDK client would answer method not found).
      const created = await keyless.connection.agent.request('session/new', {
        cwd: harness.home,
        mcpServers: [],
      });
      await expect(
        keyless.connection.agent.request('session/prompt', {
          sessionId: created.sessionId,
          prompt: [{ type: 'text', text: 'hi' }],
        }),
      ).rejects.toMatchObject({ code: -32000 });
      expect(keyless.log.problems).toEqual([]);
    } finally {
      await keyless.close();
    }
  });

  it('the schema check catches a message that breaks the protocol', () => {
    expect(
      schema.check('SessionNotification', { sessionId: 's', update: { sessionUpdate: 'tool_call' } }),
    ).not.toEqual([]);
    expect(schema.check('PromptResponse', { stopReason: 'done' })).not.toEqual([]);
  });
});
