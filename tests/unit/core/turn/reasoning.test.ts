/**
 * Reasoning through the whole engine (createCody → Session → the real provider clients → the fake
 * provider on loopback): the level on the wire of each API, recorded in turn_context, kept through tool
 * loops (Claude's signed thinking first, Gemini's signature on its part; DeepSeek's rules are
 * deepseek-thinking.test.ts's), and ignored with one warning by a model that cannot reason.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCody, type Cody } from '../../../../src/core/engine/cody.js';
import type { SelectionChoice } from '../../../../src/core/conversation/session-surface.js';
import type { SessionEvent } from '../../../../src/core/conversation/session-events.js';
import type { ToolRuntime } from '../../../../src/core/tools/tool-runtime.js';
import { REASONING_LEVELS, type ResponseItem } from '../../../../src/protocol/index.js';
import { FakeProviderServer } from '../../../fake-provider/server.js';
import { type LineOnDisk, readLines } from '../mocked-service.js';

type Json = Record<string, unknown>;

const lookTool: ToolRuntime = {
  specs: () => [{ name: 'look', description: 'look around', parameters: { type: 'object' } }],
  has: (name) => name === 'look',
  decide: () => Promise.resolve({ kind: 'allow' }),
  rememberApproval: () => undefined,
  isReadOnly: () => true,
  run: () => Promise.resolve({ output: 'a tidy room', status: 'ok' }),
};

const server = new FakeProviderServer();
let home: string;
let cody: Cody;
/** Whether this test built `cody` (the ones that check a converter or the fake alone do not). */
let started = false;

async function drain(events: AsyncIterable<SessionEvent>): Promise<SessionEvent[]> {
  const seen: SessionEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

function bodies(): Json[] {
  return server.requests.map((request) => request.body as Json);
}

async function start(config: Json = {}): Promise<void> {
  await writeFile(join(home, 'config.json'), JSON.stringify(config));
  started = true;
  cody = createCody({
    home,
    cwd: home,
    tools: lookTool,
    env: {
      OPENAI_API_KEY: 'sk-test-reasoning',
      OPENAI_BASE_URL: `${server.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: server.url,
      GEMINI_API_KEY: 'gemini-test',
      GOOGLE_GEMINI_BASE_URL: server.url,
    },
  });
}

function rolloutOf(id: string): Promise<LineOnDisk[]> {
  return readLines(join(home, 'conversations', `${id}.jsonl`));
}

async function turnContexts(id: string): Promise<Json[]> {
  return (await rolloutOf(id)).filter((line) => line.type === 'turn_context').map((line) => line.payload);
}

/** One turn at `level` on a fresh conversation; the request body the fake received. */
async function bodyAt(selection: SelectionChoice, level: (typeof REASONING_LEVELS)[number]): Promise<Json> {
  server.reset();
  const conversation = await cody.create(selection);
  const events = await drain(conversation.submit('hello', { reasoning: level }));
  expect(events.at(-1), JSON.stringify(events.at(-1))).toMatchObject({
    type: 'turn-complete',
    status: 'completed',
  });
  return server.requests[0]?.body as Json;
}

beforeAll(async () => {
  await server.start();
});
afterAll(async () => {
  await server.stop();
});
beforeEach(async () => {
  server.reset();
  home = await mkdtemp(join(tmpdir(), 'cody-reasoning-'));
});
afterEach(async () => {
  if (started) await cody.close();
  started = false;
  await rm(home, { recursive: true, force: true });
});

describe('the reasoning level on the wire, per API and level', () => {
  it('Responses: reasoning {effort, summary: auto} with encrypted reasoning, for reasoning models only', async () => {
    await start();
    const gpt5 = { provider: 'openai', api: 'responses', model: 'gpt-5' } as const;
    const gpt51 = { provider: 'openai', api: 'responses', model: 'gpt-5.1' } as const;
    const seen: Record<string, unknown> = {};
    for (const level of REASONING_LEVELS) seen[level] = (await bodyAt(gpt5, level)).reasoning;
    expect(seen).toEqual({
      off: { effort: 'minimal', summary: 'auto' },
      minimal: { effort: 'minimal', summary: 'auto' },
      low: { effort: 'low', summary: 'auto' },
      medium: { effort: 'medium', summary: 'auto' },
      high: { effort: 'high', summary: 'auto' },
    });
    const off51 = await bodyAt(gpt51, 'off');
    expect(off51.reasoning).toEqual({ effort: 'none' });
    expect(off51).toMatchObject({ store: false, include: ['reasoning.encrypted_content'] });
    const o3 = await bodyAt({ provider: 'openai', api: 'responses', model: 'o3' }, 'minimal');
    expect(o3.reasoning).toEqual({ effort: 'low', summary: 'auto' });
    // gpt-4.1 does not reason: nothing is sent (OpenAI would answer 400), whatever the level.
    const plain = await bodyAt({ provider: 'openai', api: 'responses', model: 'gpt-4.1' }, 'high');
    expect(plain).not.toHaveProperty('reasoning');
    expect(plain).not.toHaveProperty('include');
  });

  it('Chat Completions: reasoning_effort for OpenAI reasoning models, nothing for others', async () => {
    await start();
    const chat = { provider: 'openai', api: 'chat', model: 'gpt-5.1' } as const;
    const seen: Record<string, unknown> = {};
    for (const level of REASONING_LEVELS) seen[level] = (await bodyAt(chat, level)).reasoning_effort;
    expect(seen).toEqual({ off: 'none', minimal: 'low', low: 'low', medium: 'medium', high: 'high' });
    for (const model of ['gpt-4o', 'deepseek-chat', 'llama3.1:8b']) {
      const body = await bodyAt({ provider: 'openai', api: 'chat', model }, 'high');
      expect(body).not.toHaveProperty('reasoning_effort');
    }
  });

  it('Anthropic: thinking {enabled, budget_tokens} below max_tokens, nothing for off', async () => {
    await start();
    const claude = { provider: 'anthropic', model: 'claude-sonnet-4-6' } as const;
    const seen: Record<string, unknown> = {};
    for (const level of REASONING_LEVELS) {
      const body = await bodyAt(claude, level);
      seen[level] = body.thinking;
      if (body.thinking) {
        expect((body.thinking as Json).budget_tokens).toBeLessThan(Number(body.max_tokens));
        expect(server.requests[0]?.headers['anthropic-beta']).toContain('interleaved-thinking-2025-05-14');
      }
      expect(body).not.toHaveProperty('temperature');
    }
    expect(seen).toEqual({
      off: undefined,
      minimal: { type: 'enabled', budget_tokens: 1024 },
      low: { type: 'enabled', budget_tokens: 4000 },
      medium: { type: 'enabled', budget_tokens: 10000 },
      high: { type: 'enabled', budget_tokens: 31999 },
    });
    // Claude Opus 4.1's 32,000-token cap leaves the high budget at 30,976, still below max_tokens.
    const small = await bodyAt({ provider: 'anthropic', model: 'claude-opus-4-1-20250805' }, 'high');
    expect(small).toMatchObject({ max_tokens: 32000, thinking: { type: 'enabled', budget_tokens: 30976 } });
    // Claude 3.7 Sonnet thinks between tool calls without the Claude 4 beta.
    await bodyAt({ provider: 'anthropic', model: 'claude-3-7-sonnet-20250219' }, 'high');
    expect(server.requests[0]?.headers['anthropic-beta']).toBeUndefined();
  });

  it('Anthropic: adaptive thinking with its effort for the models that refuse a budget, off as each documents', async () => {
    await start();
    // The default model, claude-sonnet-5-5: the level reaches it as an effort, and no warning is given.
    const sonnet: Record<string, unknown> = {};
    for (const level of REASONING_LEVELS) {
      const body = await bodyAt({ provider: 'anthropic', model: 'claude-sonnet-5-5' }, level);
      sonnet[level] = [body.thinking, body.output_config];
      expect(server.requests[0]?.headers['anthropic-beta']).toBeUndefined();
    }
    expect(sonnet).toEqual({
      off: [{ type: 'between_tools' }, undefined],
      minimal: [{ type: 'adaptive' }, { effort: 'low' }],
      low: [{ type: 'adaptive' }, { effort: 'low' }],
      medium: [{ type: 'adaptive' }, { effort: 'medium' }],
      high: [{ type: 'adaptive' }, { effort: 'high' }],
    });
    server.reset();
    const conversation = await cody.create({ provider: 'anthropic', model: 'claude-sonnet-5-5' });
    const events = await drain(conversation.submit('hi', { reasoning: 'high' }));
    expect(events.filter((event) => event.type === 'warning')).toEqual([]);
    const opus47 = await bodyAt({ provider: 'anthropic', model: 'claude-opus-4-7' }, 'high');
    expect(opus47).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'high' } });
    const fable = await bodyAt({ provider: 'anthropic', model: 'claude-fable-5-1' }, 'off');
    expect(fable).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'low' } });
  });

  it('Gemini: thinkingBudget on 2.5, thinkingLevel on 3, includeThoughts while thinking', async () => {
    await start();
    const config = (body: Json): unknown => (body.generationConfig as Json | undefined)?.thinkingConfig;
    const flash: Record<string, unknown> = {};
    for (const level of REASONING_LEVELS)
      flash[level] = config(await bodyAt({ provider: 'google', model: 'gemini-2.5-flash' }, level));
    expect(flash).toEqual({
      off: { thinkingBudget: 0 },
      minimal: { thinkingBudget: 512, includeThoughts: true },
      low: { thinkingBudget: 1024, includeThoughts: true },
      medium: { thinkingBudget: 8192, includeThoughts: true },
      high: { thinkingBudget: 24576, includeThoughts: true },
    });
    // 2.5 Pro cannot stop thinking: off sends nothing (a budget of 0 is refused).
    expect(config(await bodyAt({ provider: 'google', model: 'gemini-2.5-pro' }, 'off'))).toBeUndefined();
    const pro3: Record<string, unknown> = {};
    for (const level of REASONING_LEVELS)
      pro3[level] = config(await bodyAt({ provider: 'google', model: 'gemini-3-pro-preview' }, level));
    expect(pro3).toEqual({
      // No Gemini 3 model turns thinking off: its lowest level, without thoughts.
      off: { thinkingLevel: 'LOW', includeThoughts: false },
      minimal: { thinkingLevel: 'LOW', includeThoughts: true },
      low: { thinkingLevel: 'LOW', includeThoughts: true },
      medium: { thinkingLevel: 'HIGH', includeThoughts: true },
      high: { thinkingLevel: 'HIGH', includeThoughts: true },
    });
    // 3.1 Pro takes medium; 3.7 Flash no minimal.
    const pro31 = await bodyAt({ provider: 'google', model: 'gemini-3.1-pro-preview' }, 'medium');
    expect(config(pro31)).toEqual({ thinkingLevel: 'MEDIUM', includeThoughts: true });
    const flash37 = await bodyAt({ provider: 'google', model: 'gemini-3.7-flash' }, 'minimal');
    expect(config(flash37)).toEqual({ thinkingLevel: 'LOW', includeThoughts: true });
    expect(config(await bodyAt({ provider: 'google', model: 'gemini-2.0-flash' }, 'high'))).toBeUndefined();
  });
});

describe('the setting belongs to the conversation', () => {
  it('comes from config (models.<id>.reasoningEffort over reasoning), is recorded as effort/summary and kept', async () => {
    await start({ reasoning: 'low', models: { 'gpt-5.1': { reasoningEffort: 'high' } } });
    const conversation = await cody.create({ provider: 'openai', api: 'responses', model: 'gpt-5.1' });
    expect(conversation.status()).toMatchObject({ reasoning: 'high' });
    await drain(conversation.submit('first'));
    expect(bodies()[0]?.reasoning).toEqual({ effort: 'high', summary: 'auto' });
    conversation.setReasoning('off');
    await drain(conversation.submit('second'));
    expect(bodies()[1]?.reasoning).toEqual({ effort: 'none' });
    const contexts = await turnContexts(conversation.id);
    expect(contexts.map((payload) => [payload.effort, payload.summary])).toEqual([
      ['high', 'auto'],
      ['none', 'none'],
    ]);
    await cody.close();
    // Opened again (a new process): the conversation keeps 'off' over config's 'high'.
    await start({ reasoning: 'low', models: { 'gpt-5.1': { reasoningEffort: 'high' } } });
    const again = await cody.open(conversation.id);
    expect(again.status()).toMatchObject({ reasoning: 'off' });
    await drain(again.submit('third'));
    expect(bodies()[2]?.reasoning).toEqual({ effort: 'none' });
  });

  it('an unknown level is a usage error that leaves the conversation free; a busy one keeps its level', async () => {
    await start();
    const conversation = await cody.create({ provider: 'openai', api: 'responses', model: 'gpt-5' });
    expect(() => conversation.submit('x', { reasoning: 'extreme' as 'high' })).toThrow(
      /Unknown reasoning level 'extreme'/,
    );
    expect(conversation.busy).toBe(false);
    const running = conversation.submit('first', { reasoning: 'low' });
    const first = await running.next();
    expect(() => conversation.submit('second', { reasoning: 'high' })).toThrow(/already running/);
    expect(conversation.status()).toMatchObject({ reasoning: 'low' });
    if (first.done !== true) await drain(running);
  });

  it('a model that cannot reason ignores the level with one warning, and never gets a 400', async () => {
    await start({ reasoning: 'high' });
    const conversation = await cody.create({ provider: 'openai', api: 'chat', model: 'gpt-4o' });
    const first = await drain(conversation.submit('one'));
    const second = await drain(conversation.submit('two'));
    const warnings = [...first, ...second].filter(
      (event) => event.type === 'warning' && event.message.includes('reasoning'),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ message: expect.stringContaining("'gpt-4o' does not reason") });
    expect(second.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
    expect(server.requests.every((request) => request.rejected === undefined)).toBe(true);
  });

  it('counts reasoning tokens in usage and status', async () => {
    await start();
    const conversation = await cody.create({ provider: 'openai', api: 'responses', model: 'gpt-5' });
    server.enqueue({
      type: 'reply',
      reasoning: 'Thinking about the answer at some length.',
      text: 'Done.',
      usage: { inputTokens: 20, outputTokens: 30 },
    });
    const events = await drain(conversation.submit('go', { reasoning: 'medium' }));
    const usage = events.find((event) => event.type === 'usage');
    expect(usage).toMatchObject({ usage: { reasoningTokens: 11 } });
    expect(conversation.status()).toMatchObject({ reasoningTokens: 11 });
    expect(events.filter((event) => event.type === 'reasoning-delta').length).toBeGreaterThan(0);
  });
});

describe('reasoning kept through tool loops', () => {
  it('Claude: the second request of a tool loop carries the signed thinking block first', async () => {
    await start({ reasoning: 'medium' });
    const conversation = await cody.create({ provider: 'anthropic', model: 'claude-sonnet-4-6' });
    server.enqueue(
      { type: 'reply', reasoning: 'I should look first.', toolCalls: [{ name: 'look', arguments: {} }] },
      { type: 'reply', reasoning: 'Now I know.', text: 'The room is tidy.' },
    );
    const events = await drain(conversation.submit('what is in the room?'));
    expect(events.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
    expect(server.requests.map((request) => request.rejected)).toEqual([undefined, undefined]);
    const second = bodies()[1] as { thinking: Json; messages: { role: string; content: Json[] }[] };
    expect(second.thinking).toEqual({ type: 'enabled', budget_tokens: 10000 });
    const assistant = second.messages.at(-2);
    expect(assistant?.role).toBe('assistant');
    expect(assistant?.content[0]).toMatchObject({
      type: 'thinking',
      thinking: 'I should look first.',
      signature: expect.any(String),
    });
    expect(assistant?.content[1]).toMatchObject({ type: 'tool_use', name: 'look' });
  });

  it('compaction drops the reasoning before the cut', async () => {
    await start({ reasoning: 'medium' });
    const conversation = await cody.create({ provider: 'anthropic', model: 'claude-sonnet-4-6' });
    const long = 'I should look around the room carefully first. '.repeat(40);
    server.enqueue(
      { type: 'reply', reasoning: long, toolCalls: [{ name: 'look', arguments: {} }] },
      { type: 'reply', reasoning: long, text: 'The room is tidy.' },
      { type: 'reply', text: 'Looked; tidy.' },
    );
    await drain(conversation.submit('what is in the room?'));
    const compaction = await drain(conversation.compact());
    expect(compaction.at(-1), JSON.stringify(compaction)).toMatchObject({
      type: 'turn-complete',
      status: 'completed',
    });
    await drain(conversation.submit('and now?'));
    const last = bodies().at(-1) as { messages: { content: Json[] | string }[] };
    const blocks = last.messages.flatMap((message) =>
      typeof message.content === 'string' ? [] : message.content,
    );
    expect(
      blocks.some((block) => block.type === 'thinking'),
      JSON.stringify(compaction),
    ).toBe(false);
    expect(server.requests.every((request) => request.rejected === undefined)).toBe(true);
  });

  it('Claude: a tool loop begun without thinking goes on without it, which the API (and the fake) accept', async () => {
    const { convertToAnthropicRequest, THINKING_PAUSED_WARNING } =
      await import('../../../../src/providers/anthropic-messages/convert-to-anthropic-messages.js');
    const { anthropicMessagesProtocol } = await import('../../../fake-provider/anthropic-messages.js');
    const items: ResponseItem[] = [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'look' }] },
      { type: 'function_call', name: 'look', arguments: '{}', call_id: 'toolu_1' },
      { type: 'function_call_output', call_id: 'toolu_1', output: 'tidy' },
    ];
    const tools = lookTool.specs();
    const { body, warnings } = convertToAnthropicRequest({
      items,
      tools,
      model: 'claude-sonnet-4-6',
      reasoningEffort: 'high',
    });
    expect(body).not.toHaveProperty('thinking');
    expect(warnings).toContain(THINKING_PAUSED_WARNING);
    const check = (candidate: unknown) =>
      anthropicMessagesProtocol.validate({
        url: new URL('http://127.0.0.1/v1/messages'),
        headers: {},
        body: candidate as Json,
      });
    expect(check(body)).toBeUndefined();
    // With thinking forced on, the fake refuses as Anthropic does.
    expect(JSON.stringify(check({ ...body, thinking: { type: 'enabled', budget_tokens: 4000 } }))).toContain(
      'Expected `thinking` or `redacted_thinking`, but found `tool_use`',
    );
  });

  it('Gemini: a function call whose thought signature comes back on the same part', async () => {
    await start({ reasoning: 'low' });
    const conversation = await cody.create({ provider: 'google', model: 'gemini-2.5-flash' });
    server.enqueue(
      { type: 'reply', reasoning: 'Look before answering.', toolCalls: [{ name: 'look', arguments: {} }] },
      { type: 'reply', text: 'Tidy.' },
    );
    await drain(conversation.submit('what is in the room?'));
    const contents = (bodies()[1] as { contents: { role: string; parts: Json[] }[] }).contents;
    const model = contents.find((content) => content.role === 'model');
    const call = model?.parts.find((part) => part.functionCall !== undefined);
    expect(call).toMatchObject({ functionCall: { name: 'look' }, thoughtSignature: expect.any(String) });
    expect(String(call?.thoughtSignature)).not.toBe('');
  });
});
