/**
 * `cody acp` end to end: the built agent over stdio, driven by the ACP SDK's client side against the fake
 * provider, every message in both directions checked against the SDK's shipped JSON schema. One agent
 * process serves the cases in order (each builds on the conversation the one before left).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionNotification, SessionUpdate } from '@agentclientprotocol/sdk';
import { AcpSchema, startAcpAgent, type AcpAgent } from './acp-client.js';
import { createHarness, linesOfType, type Harness } from './harness.js';
import { PNG_1X1_BASE64 } from './image-fixtures.js';
import { codyInProcess } from './in-process.js';
import { makeRepo } from './tool-fixtures.js';

type Update = SessionNotification['update'];

function ofType<T extends Update['sessionUpdate']>(updates: Update[], type: T): Array<Extract<Update, { sessionUpdate: T }>> {
  return updates.filter((update): update is Extract<Update, { sessionUpdate: T }> => update.sessionUpdate === type);
}

function text(updates: Update[], type: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk'): string {
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
  const since = (count: number): Update[] => agent.log.updates(sessionId).slice(count);

  beforeAll(async () => {
    harness = await createHarness();
    await makeRepo(harness.home);
    expect((await codyInProcess(harness, ['set-provider', 'anthropic'])).code).toBe(0);
    agent = startAcpAgent({ env: harness.env, cwd: harness.home, schema });
  });
  afterAll(async () => {
    await agent?.close();
    await harness?.close();
  });

  it('initializes, then opens a session with modes, config options and commands', async () => {
    const spawnedAt = performance.now();
    const init = await agent.connection.agent.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false } },
      clientInfo: { name: 'test', version: '1' },
    });
    process.stderr.write(`acp: spawn to initialize answered: ${Math.round(performance.now() - spawnedAt)} ms\n`);
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
    const created = await agent.connection.agent.request('session/new', { cwd: harness.home, mcpServers: [] });
    sessionId = created.sessionId;
    // The session is the conversation: its rollout is under that id.
    expect(linesOfType(await harness.rollout(sessionId), 'session_meta')[0]?.payload.id).toBe(sessionId);
    expect(created.modes?.availableModes.map((mode) => mode.id)).toEqual(['read-only', 'ask', 'auto-edit', 'full-auto']);
    expect(created.modes?.currentModeId).toBe('ask');
    expect(created.configOptions?.map((option) => [option.id, option.category])).toEqual([
      ['mode', 'mode'],
      ['model', 'model'],
      ['reasoning', 'thought_level'],
    ]);
    const announced = await commands;
    expect(announced.sessionUpdate === 'available_commands_update' && announced.availableCommands.map((c) => c.name)).toContain('compact');

    // A relative cwd is refused.
    await expect(agent.connection.agent.request('session/new', { cwd: 'relative/dir', mcpServers: [] })).rejects.toMatchObject({
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
            arguments: { plan: [{ step: 'read a.txt', status: 'completed' }, { step: 'answer', status: 'in_progress' }] },
          },
        ],
      },
      { type: 'reply', text: 'The file says alpha and beta.' },
    );
    const sent = performance.now();
    const firstChunk = nextUpdate(agent, (update) => update.sessionUpdate === 'agent_message_chunk').then(() => performance.now());
    const answer = await agent.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'What does a.txt say?' }],
    });
    process.stderr.write(`acp: prompt to first agent_message_chunk: ${Math.round((await firstChunk) - sent)} ms\n`);
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
    const readUpdates = ofType(updates, 'tool_call_update').filter((update) => update.toolCallId === 'call_read');
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
});
