/**
 * What each API is sent, pinned for a model without reasoning and one with it, and a compaction of a
 * history with tool calls on each API, all against the fake provider, which refuses what the real APIs
 * refuse (Responses: encrypted reasoning asked of a model without reasoning; Anthropic: tool blocks in a
 * request that defines no tools).
 */
import { describe, expect, it } from 'vitest';
import { COMPACTION_PROMPT } from '../../src/core/compact/index.js';
import { isReasoningModel } from '../../src/core/selection/model-catalog.js';
import { heuristicEstimator } from '../../src/core/tokens/index.js';
import type { ResponseItem, ToolSpec, WireApi } from '../../src/protocol/index.js';
import { createModelClient } from '../../src/providers/index.js';
import type { FakeApi } from '../fake-provider/types.js';
import { compactWith } from '../unit/core/compact/compact-with.js';
import { withFakeServer } from './fake-server.js';
import { assistant, call, developer, output, system, user } from './item-builders.js';

const server = withFakeServer();

const KEYS = {
  OPENAI_API_KEY: 'sk-test-fidelity-0001',
  ANTHROPIC_API_KEY: 'sk-ant-test-fidelity-0002',
  GEMINI_API_KEY: 'gemini-test-fidelity-0003',
};

const TOOLS: ToolSpec[] = [
  {
    name: 'read_file',
    description: 'Read a file',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
  },
];

function clientFor(api: WireApi, model: string) {
  const baseUrl = api.startsWith('openai') ? `${server.url}/v1` : server.url;
  return createModelClient({ api, model, baseUrl, env: KEYS, reasoning: isReasoningModel(model) });
}

async function send(api: WireApi, model: string, items: ResponseItem[], tools: ToolSpec[] = TOOLS) {
  const client = await clientFor(api, model);
  const events = [];
  for await (const event of client.stream({ items, tools, maxOutputTokens: 500 })) events.push(event);
  const [request] = server.modelRequests(api as FakeApi);
  return { events, request, body: request?.body as Record<string, unknown> };
}

const TURN: ResponseItem[] = [system('You are Cody.'), user('hello')];

describe('what each API is sent, for a model without reasoning and one with it', () => {
  it('Responses: encrypted reasoning is asked of gpt-5 and o3, never of gpt-4.1-mini or gpt-4o', async () => {
    const sent: Record<string, unknown> = {};
    for (const model of ['gpt-4.1-mini', 'gpt-4o', 'gpt-5', 'o3']) {
      server.reset();
      const { request, body } = await send('openai-responses', model, TURN);
      expect(request?.rejected).toBeUndefined();
      sent[model] = body.include ?? null;
      expect(body).toMatchObject({ model, store: false, stream: true, instructions: 'You are Cody.' });
    }
    expect(sent).toEqual({
      'gpt-4.1-mini': null,
      'gpt-4o': null,
      'gpt-5': ['reasoning.encrypted_content'],
      o3: ['reasoning.encrypted_content'],
    });
  });

  it('Chat Completions: one first instructions message, developer role only for reasoning models', async () => {
    const roles: Record<string, unknown> = {};
    for (const model of ['gpt-4.1-mini', 'o3']) {
      server.reset();
      const { request, body } = await send('openai-chat', model, [
        system('You are Cody.'),
        developer('Work in /repo.'),
        user('hello'),
      ]);
      expect(request?.rejected).toBeUndefined();
      roles[model] = (body.messages as Array<{ role: string }>).map((message) => message.role);
      expect(body).toMatchObject({ max_completion_tokens: 500, stream: true });
      expect(body).not.toHaveProperty('include');
      expect(body).not.toHaveProperty('reasoning_effort');
    }
    expect(roles).toEqual({ 'gpt-4.1-mini': ['system', 'user'], o3: ['developer', 'user'] });
  });

  it('Anthropic: the same body for Claude 3.5 Haiku and Claude Sonnet 4.6 (no thinking is requested)', async () => {
    const bodies = [];
    for (const model of ['claude-3-5-haiku-20241022', 'claude-sonnet-4-6']) {
      server.reset();
      const { request, body } = await send('anthropic-messages', model, TURN);
      expect(request?.rejected).toBeUndefined();
      const { model: sentModel, ...rest } = body;
      expect(sentModel).toBe(model);
      bodies.push(rest);
    }
    expect(bodies[0]).toEqual(bodies[1]);
    expect(bodies[0]).toMatchObject({ system: 'You are Cody.', max_tokens: 500 });
    expect(bodies[0]).not.toHaveProperty('thinking');
  });

  it('Gemini: the same body for gemini-2.0-flash and gemini-2.5-pro (no thinking config)', async () => {
    const bodies = [];
    for (const model of ['gemini-2.0-flash', 'gemini-2.5-pro']) {
      server.reset();
      const { request, body } = await send('gemini', model, TURN);
      expect(request?.rejected).toBeUndefined();
      bodies.push(body);
    }
    expect(bodies[0]).toEqual(bodies[1]);
    expect(bodies[0]).toMatchObject({ systemInstruction: { parts: [{ text: 'You are Cody.' }] } });
    expect(JSON.stringify(bodies[0])).not.toMatch(/thinkingConfig/);
  });
});

/** A conversation that used a tool, long enough that compaction has something to replace. */
const WITH_TOOLS: ResponseItem[] = [
  system('You are Cody.'),
  user('What is in notes.txt?'),
  call('call_n1', 'read_file', '{"path":"notes.txt"}'),
  output('call_n1', 'Buy milk. '.repeat(200)),
  assistant('It says to buy milk, many times.'),
  user('Thanks.'),
  assistant('You are welcome.'),
];

const CASES: Array<{ api: WireApi; model: string; toolChoice: (body: Record<string, unknown>) => unknown }> =
  [
    { api: 'openai-responses', model: 'gpt-5', toolChoice: (body) => body.tool_choice },
    { api: 'openai-chat', model: 'gpt-4.1-mini', toolChoice: (body) => body.tool_choice },
    {
      api: 'anthropic-messages',
      model: 'claude-sonnet-4-6',
      toolChoice: (body) => (body.tool_choice as { type?: string } | undefined)?.type,
    },
    {
      api: 'gemini',
      model: 'gemini-2.5-flash',
      toolChoice: (body) =>
        (body.toolConfig as { functionCallingConfig?: { mode?: string } } | undefined)?.functionCallingConfig
          ?.mode,
    },
  ];

describe('compacting a history with tool calls, on every API', () => {
  it.each(CASES)(
    '$api: the summary request defines the tools, forbids calling them, and is accepted',
    async ({ api, model, toolChoice }) => {
      server.enqueue({ type: 'reply', text: 'Goal: read notes.txt. It says buy milk.' });
      const outcome = await compactWith({
        history: WITH_TOOLS,
        client: await clientFor(api, model),
        tools: TOOLS,
        estimator: heuristicEstimator(),
        contextWindow: 100_000,
        autoCompactLimit: 80_000,
      });
      expect(outcome).toMatchObject({ status: 'compacted', summaryFailed: false });
      const [request] = server.modelRequests(api as FakeApi);
      expect(request?.rejected).toBeUndefined();
      const body = request?.body as Record<string, unknown>;
      expect(JSON.stringify(body)).toContain('read_file');
      expect(JSON.stringify(body)).toContain(COMPACTION_PROMPT.slice(0, 40));
      expect(String(toolChoice(body)).toLowerCase()).toBe('none');
    },
  );

  it('Anthropic refuses tool blocks without tools (the real 400); without tools Cody sends them as text', async () => {
    const client = await clientFor('anthropic-messages', 'claude-sonnet-4-6');
    server.enqueue({ type: 'reply', text: 'A summary.' });
    const outcome = await compactWith({
      history: WITH_TOOLS,
      client,
      estimator: heuristicEstimator(),
      contextWindow: 100_000,
      autoCompactLimit: 80_000,
    });
    expect(outcome).toMatchObject({ status: 'compacted', summaryFailed: false });
    const [request] = server.modelRequests('anthropic-messages');
    expect(request?.rejected).toBeUndefined();
    const body = JSON.stringify(request?.body);
    expect(body).not.toMatch(/"tool_use"|"tool_result"/);
    expect(body).toContain('[called tool read_file (call_n1) with {\\"path\\":\\"notes.txt\\"}]');
    expect(body).toContain('[result of tool read_file (call_n1)]');

    // The fake's rule is the real API's: the same history as tool blocks, without tools, is a 400.
    server.reset();
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEYS.ANTHROPIC_API_KEY },
      body: JSON.stringify({
        model: 'claude-sonnet-4-6',
        max_tokens: 100,
        messages: [
          { role: 'user', content: 'What is in notes.txt?' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'milk' }] },
        ],
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: 'Requests which include `tool_use` or `tool_result` blocks must define tools.',
      },
    });
  });

  it('a summary the provider refuses leaves the placeholder and says why', async () => {
    server.enqueue({ type: 'error', status: 400 });
    const outcome = await compactWith({
      history: WITH_TOOLS,
      client: await clientFor('openai-chat', 'gpt-4.1-mini'),
      tools: TOOLS,
      estimator: heuristicEstimator(),
      contextWindow: 100_000,
      autoCompactLimit: 80_000,
      // An automatic compaction (the only kind with a placeholder).
      placeholderOnFailure: true,
    });
    expect(outcome).toMatchObject({
      status: 'compacted',
      summaryFailed: true,
      summaryError: 'Invalid request.',
    });
  });
});
