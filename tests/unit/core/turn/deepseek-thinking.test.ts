/**
 * DeepSeek V4's thinking rules through the whole engine (createCody → Session → the Chat Completions
 * client → the fake provider, which refuses what DeepSeek refuses, in its wording): the reasoning of every
 * tool-calling assistant message goes back in every later request, over several user turns; the
 * reasoning level becomes `thinking: disabled` or `reasoning_effort` low/high/max; R1 as other servers serve
 * it keeps the older rule (the current turn only).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCody, type Cody } from '../../../../src/core/engine/cody.js';
import type { SessionEvent } from '../../../../src/core/conversation/session-events.js';
import type { ToolRuntime } from '../../../../src/core/tools/tool-runtime.js';
import type { ReasoningLevel } from '../../../../src/protocol/index.js';
import { openaiChatProtocol } from '../../../fake-provider/openai-chat.js';
import { DEEPSEEK_REASONING_MISSING } from '../../../fake-provider/reasoning-rules.js';
import { FakeProviderServer } from '../../../fake-provider/server.js';

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
let cody: Cody | undefined;

beforeAll(async () => {
  await server.start();
});
afterAll(async () => {
  await server.stop();
});
beforeEach(async () => {
  server.reset();
  home = await mkdtemp(join(tmpdir(), 'cody-deepseek-'));
  await writeFile(join(home, 'config.json'), '{}');
  cody = createCody({
    home,
    cwd: home,
    tools: lookTool,
    env: {
      DEEPSEEK_API_KEY: 'sk-deepseek-test',
      DEEPSEEK_BASE_URL: server.url,
      OLLAMA_BASE_URL: `${server.url}/v1`,
    },
  });
});
afterEach(async () => {
  await cody?.close();
  await rm(home, { recursive: true, force: true });
});

async function drain(events: AsyncIterable<SessionEvent>): Promise<SessionEvent[]> {
  const seen: SessionEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

function messagesOf(index: number): Json[] {
  return (server.requests[index]?.body as { messages: Json[] }).messages;
}

function toolCallMessages(index: number): Json[] {
  return messagesOf(index).filter((message) => message.role === 'assistant' && message.tool_calls);
}

/** `turns` user turns, each a reasoned tool call and then a reasoned answer. */
async function toolTurns(model: string, provider: string, turns: number, reasoning?: ReasoningLevel) {
  if (!cody) throw new Error('no engine');
  const conversation = await cody.create({ provider, model });
  for (let turn = 1; turn <= turns; turn += 1) {
    server.enqueue(
      {
        type: 'reply',
        reasoning: `Look first (${turn}).`,
        toolCalls: [{ id: `call_${turn}`, name: 'look', arguments: {} }],
      },
      { type: 'reply', reasoning: `Tidy (${turn}).`, text: `Tidy ${turn}.` },
    );
    const events = await drain(conversation.submit(`turn ${turn}`, reasoning ? { reasoning } : {}));
    expect(events.at(-1), JSON.stringify(events.at(-1))).toMatchObject({
      type: 'turn-complete',
      status: 'completed',
    });
  }
}

describe('DeepSeek V4 thinking', () => {
  it('every earlier tool call’s reasoning_content goes back, over three user turns, and DeepSeek accepts each request', async () => {
    await toolTurns('deepseek-v4-pro', 'deepseek', 3);
    expect(server.requests.map((request) => request.rejected)).toEqual(Array(6).fill(undefined));
    expect(server.requests[0]?.url).toBe('/chat/completions');
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-deepseek-test');
    // The third turn's first request carries both earlier turns' tool-call reasoning, and nothing else.
    expect(toolCallMessages(4).map((message) => message.reasoning_content)).toEqual([
      'Look first (1).',
      'Look first (2).',
    ]);
    const answers = messagesOf(4).filter((message) => message.role === 'assistant' && !message.tool_calls);
    expect(answers).toHaveLength(2);
    for (const answer of answers) expect(answer).not.toHaveProperty('reasoning_content');
    expect(toolCallMessages(5).map((message) => message.reasoning_content)).toEqual([
      'Look first (1).',
      'Look first (2).',
      'Look first (3).',
    ]);
  });

  it('the fake refuses an earlier tool call sent back without its reasoning, in DeepSeek’s words', () => {
    const call = { id: 'c', type: 'function', function: { name: 'look', arguments: '{}' } };
    const body = {
      model: 'deepseek-v4-flash',
      messages: [
        { role: 'user', content: 'look' },
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: 'c', content: 'tidy' },
        { role: 'assistant', content: 'Tidy.' },
        { role: 'user', content: 'sure?' },
      ],
    };
    const request = { url: new URL('http://127.0.0.1/chat/completions'), headers: {}, body };
    expect(JSON.stringify(openaiChatProtocol.validate(request))).toContain(DEEPSEEK_REASONING_MISSING);
    const disabled = { ...request, body: { ...body, thinking: { type: 'disabled' } } };
    expect(openaiChatProtocol.validate(disabled)).toBeUndefined();
  });

  it('the levels: off disables thinking (no reasoning sent back), minimal and low are low, medium is high, high is max', async () => {
    await toolTurns('deepseek-v4-flash', 'deepseek', 2, 'off');
    expect(server.requests.map((request) => request.rejected)).toEqual(Array(4).fill(undefined));
    for (const request of server.requests) {
      expect(request.body).toMatchObject({ thinking: { type: 'disabled' } });
      expect(request.body).not.toHaveProperty('reasoning_effort');
    }
    expect(toolCallMessages(2)[0]).not.toHaveProperty('reasoning_content');
    const efforts: Record<string, unknown> = {};
    for (const level of ['minimal', 'low', 'medium', 'high'] as const) {
      server.reset();
      await toolTurns('deepseek-v4-flash', 'deepseek', 1, level);
      efforts[level] = (server.requests[0]?.body as Json).reasoning_effort;
      expect(server.requests[0]?.body).not.toHaveProperty('thinking');
    }
    expect(efforts).toEqual({ minimal: 'low', low: 'low', medium: 'high', high: 'max' });
  });

  it('deepseek-flash (V4.1 Flash, DeepSeek\u2019s current name) follows the same rule', async () => {
    await toolTurns('deepseek-flash', 'deepseek', 2, 'low');
    expect(server.requests.map((request) => request.rejected)).toEqual(Array(4).fill(undefined));
    expect(toolCallMessages(2)[0]).toMatchObject({ reasoning_content: 'Look first (1).' });
    expect(server.requests[0]?.body).toMatchObject({ reasoning_effort: 'low' });
  });

  it('deepseek-reasoner (the retired alias of V4 Flash thinking) follows the same rule', async () => {
    await toolTurns('deepseek-reasoner', 'deepseek', 2);
    expect(server.requests.map((request) => request.rejected)).toEqual(Array(4).fill(undefined));
    expect(toolCallMessages(2)[0]).toMatchObject({ reasoning_content: 'Look first (1).' });
  });

  it('R1 on another server keeps the older rule: reasoning back within the current turn only', async () => {
    await toolTurns('deepseek-r1:14b', 'ollama', 2);
    expect(server.requests.map((request) => request.rejected)).toEqual(Array(4).fill(undefined));
    expect(toolCallMessages(1)[0]).toMatchObject({ reasoning_content: 'Look first (1).' });
    expect(toolCallMessages(2)[0]).not.toHaveProperty('reasoning_content');
    for (const request of server.requests) expect(request.body).not.toHaveProperty('thinking');
  });
});
