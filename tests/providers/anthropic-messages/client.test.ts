/**
 * The Anthropic client against scripted fake-provider steps: what lands on the wire, what comes back,
 * and how every kind of failure ends as one error event and one finish, with the SDK never retrying.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  MissingApiKeyError,
  type ModelClient,
  type ModelRequest,
  type ResponseItem,
} from '../../../src/protocol/index.js';
import { createAnthropicClient } from '../../../src/providers/anthropic-messages/client.js';
import type { Step } from '../../fake-provider/types.js';
import { type CollectedStream, collectEvents } from '../collect-events.js';
import { call, output, system, user } from '../item-builders.js';
import { withFakeServer } from '../fake-server.js';

const KEY = 'sk-ant-test-SECRET-0001';
const REQUEST: ModelRequest = { items: [system('Be brief.'), user('hello')], tools: [] };

const server = withFakeServer();

function client(
  env: Record<string, string | undefined> = { ANTHROPIC_API_KEY: KEY },
  baseUrl?: string,
): ModelClient {
  return createAnthropicClient({
    api: 'anthropic-messages',
    model: 'claude-sonnet-4-6',
    env,
    ...(baseUrl !== undefined ? { baseUrl } : {}),
  });
}

async function run(step: Step, request: ModelRequest = REQUEST): Promise<CollectedStream> {
  server.enqueue(step);
  const collected = await collectEvents(client(undefined, server.url).stream(request));
  expect(collected.finishes).toHaveLength(1);
  expect(collected.events.at(-1)?.type).toBe('finish');
  return collected;
}

describe('createAnthropicClient: the request on the wire', () => {
  it('sends the converted body to /v1/messages with the key (SDK 1.12 sends it as a bearer token)', async () => {
    server.enqueue({ type: 'reply', text: 'hi' });
    await collectEvents(
      client(undefined, server.url).stream({
        items: [
          system('Be brief.'),
          user('list files'),
          call('toolu_1', 'shell', '{"command":"ls"}'),
          output('toolu_1', 'a.txt'),
        ],
        tools: [{ name: 'shell', description: 'Run a command', parameters: { type: 'object' } }],
        maxOutputTokens: 256,
      }),
    );
    const [request] = server.modelRequests('anthropic-messages');
    expect(request?.url).toBe('/v1/messages');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(request?.headers['x-stainless-retry-count']).toBe('0');
    expect(request?.rejected).toBeUndefined();
    expect(request?.body).toEqual({
      model: 'claude-sonnet-4-6',
      max_tokens: 256,
      system: 'Be brief.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'list files' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'shell', input: { command: 'ls' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.txt' }] },
      ],
      tools: [{ name: 'shell', description: 'Run a command', input_schema: { type: 'object' } }],
      stream: true,
    });
  });

  it('with thinking on a Claude 4 model, adds the interleaved-thinking beta after a beta the client already sends', async () => {
    server.enqueue({ type: 'reply', text: 'one' }, { type: 'reply', text: 'two' });
    const thinking = (headers?: Record<string, string>): ModelClient =>
      createAnthropicClient({
        api: 'anthropic-messages',
        model: 'claude-sonnet-4-6',
        env: { ANTHROPIC_API_KEY: KEY },
        baseUrl: server.url,
        reasoningEffort: 'low',
        ...(headers ? { headers } : {}),
      });
    await collectEvents(thinking({ 'anthropic-beta': 'oauth-2025-04-20' }).stream(REQUEST));
    await collectEvents(client(undefined, server.url).stream(REQUEST));
    const [withThinking, without] = server.modelRequests('anthropic-messages');
    expect(withThinking?.headers['anthropic-beta']).toBe('oauth-2025-04-20,interleaved-thinking-2025-05-14');
    expect(withThinking?.body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 4000 } });
    expect(without?.headers['anthropic-beta']).toBeUndefined();
    expect(without?.body).not.toHaveProperty('thinking');
  });

  it('uses ANTHROPIC_BASE_URL from options.env, never from process.env, and baseUrl over both', async () => {
    vi.stubEnv('ANTHROPIC_BASE_URL', 'http://127.0.0.1:9/nowhere');
    server.enqueue({ type: 'reply', text: 'one' }, { type: 'reply', text: 'two' });
    const fromEnv = await collectEvents(
      client({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }).stream(REQUEST),
    );
    expect(fromEnv.text).toBe('one');
    const fromOption = await collectEvents(
      client({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/nowhere' }, server.url).stream(
        REQUEST,
      ),
    );
    expect(fromOption.text).toBe('two');
    expect(server.modelRequests('anthropic-messages')).toHaveLength(2);
  });

  it('throws MissingApiKeyError naming ANTHROPIC_API_KEY when no key is set', () => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-from-process-env');
    for (const env of [{}, { ANTHROPIC_API_KEY: '  ' }]) {
      let thrown: unknown;
      try {
        client(env);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(MissingApiKeyError);
      expect((thrown as MissingApiKeyError).variable).toBe('ANTHROPIC_API_KEY');
      expect((thrown as Error).message).toContain('ANTHROPIC_API_KEY');
    }
  });
});

describe('createAnthropicClient: replies from the fake provider', () => {
  it('streams thinking, text and tool calls, then the items, usage and finish', async () => {
    const collected = await run({
      type: 'reply',
      reasoning: 'The user wants a listing.',
      text: 'Let me look.',
      toolCalls: [
        { id: 'toolu_A', name: 'shell', arguments: { command: 'ls -la' } },
        { id: 'toolu_B', name: 'list_dir', arguments: {} },
      ],
      usage: { inputTokens: 120, outputTokens: 30 },
    });
    expect(collected.reasoning).toBe('The user wants a listing.');
    expect(collected.text).toBe('Let me look.');
    expect(collected.toolArguments).toEqual({ toolu_A: '{"command":"ls -la"}' });
    const [thinking, message, first, second] = collected.items;
    expect(thinking).toMatchObject({
      type: 'reasoning',
      content: [{ type: 'reasoning_text', text: 'The user wants a listing.' }],
      origin: { api: 'anthropic-messages', model: 'claude-sonnet-4-6' },
    });
    expect(thinking?.type === 'reasoning' ? thinking.provider_data?.signature : undefined).toMatch(
      /^[A-Za-z0-9+/=]{8,}$/,
    );
    expect(message).toEqual({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Let me look.' }],
    });
    expect(first).toEqual({
      type: 'function_call',
      name: 'shell',
      arguments: '{"command":"ls -la"}',
      call_id: 'toolu_A',
    });
    expect(second).toEqual({ type: 'function_call', name: 'list_dir', arguments: '{}', call_id: 'toolu_B' });
    expect(collected.usage).toEqual({
      inputTokens: 120,
      cachedInputTokens: 0,
      outputTokens: 30,
      totalTokens: 150,
    });
    expect(collected.finishes).toEqual([{ reason: 'tool-calls', rawReason: 'tool_use' }]);
  });

  it('sends its own thinking back with the signature, in a body the API accepts', async () => {
    const first = await run({
      type: 'reply',
      reasoning: 'Think first.',
      toolCalls: [{ id: 'toolu_C', name: 'pwd', arguments: {} }],
    });
    server.reset();
    const history: ResponseItem[] = [user('where am I?'), ...first.items, output('toolu_C', '/home')];
    const tools = [{ name: 'pwd', description: 'Print the directory', parameters: { type: 'object' } }];
    await run({ type: 'reply', text: 'In /home.' }, { items: history, tools });
    const [request] = server.modelRequests('anthropic-messages');
    expect(request?.rejected).toBeUndefined();
    const signature =
      first.items[0]?.type === 'reasoning' ? first.items[0].provider_data?.signature : undefined;
    expect((request?.body as { messages: unknown[] }).messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Think first.', signature },
        { type: 'tool_use', id: 'toolu_C', name: 'pwd', input: {} },
      ],
    });
  });
});

describe('createAnthropicClient: failures', () => {
  it('401 → auth, with the API’s message', async () => {
    const collected = await run({ type: 'error', status: 401 });
    expect(collected.errors.map((error) => [error.kind, error.statusCode, error.message])).toEqual([
      ['auth', 401, 'invalid x-api-key'],
    ]);
    expect(collected.finishes).toEqual([{ reason: 'error' }]);
  });

  it('429 → rate-limit with retryAfterMs, after exactly one request (the SDK does not retry)', async () => {
    const collected = await run({ type: 'error', status: 429, headers: { 'retry-after': '13' } });
    expect(collected.errors.map((error) => [error.kind, error.isRetryable, error.retryAfterMs])).toEqual([
      ['rate-limit', true, 13_000],
    ]);
    expect(server.modelRequests('anthropic-messages')).toHaveLength(1);
  });

  it('529 → overloaded and retryable, after exactly one request', async () => {
    const collected = await run({ type: 'error', status: 529 });
    expect(collected.errors.map((error) => [error.kind, error.isRetryable, error.code])).toEqual([
      ['overloaded', true, 'overloaded_error'],
    ]);
    expect(server.modelRequests('anthropic-messages')).toHaveLength(1);
  });

  it('500 → server, after exactly one request', async () => {
    const collected = await run({ type: 'error', status: 500 });
    expect(collected.errors.map((error) => error.kind)).toEqual(['server']);
    expect(server.modelRequests('anthropic-messages')).toHaveLength(1);
  });

  it('400 prompt is too long → context-overflow', async () => {
    const collected = await run({ type: 'error', status: 400, contextOverflow: true });
    expect(collected.errors.map((error) => [error.kind, error.isRetryable])).toEqual([
      ['context-overflow', false],
    ]);
    expect(collected.errors[0]?.message).toMatch(/prompt is too long/);
  });

  it('a connection dropped mid-stream → network, one finish, nothing recorded', async () => {
    const collected = await run({
      type: 'reply',
      text: 'this reply is cut off in the middle',
      disconnectAfterFrames: 4,
    });
    expect(collected.text).not.toBe('');
    expect(collected.items).toEqual([]);
    expect(collected.errors.map((error) => error.kind)).toEqual(['network']);
    expect(collected.finishes).toEqual([{ reason: 'error' }]);
  });

  it('a cancelled request → aborted, one finish', async () => {
    server.enqueue({ type: 'reply', text: 'a long answer that will not be read to the end' });
    const controller = new AbortController();
    const events = [];
    for await (const event of client(undefined, server.url).stream({
      ...REQUEST,
      signal: controller.signal,
    })) {
      events.push(event);
      if (event.type === 'text-delta') controller.abort();
    }
    expect(events.filter((event) => event.type === 'item')).toEqual([]);
    expect(events.filter((event) => event.type === 'error').map((event) => event.error.kind)).toEqual([
      'aborted',
    ]);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'aborted' });
  });

  it('a server that cannot be reached → network', async () => {
    const collected = await collectEvents(client(undefined, 'http://127.0.0.1:9').stream(REQUEST));
    expect(collected.errors.map((error) => error.kind)).toEqual(['network']);
    expect(collected.finishes).toEqual([{ reason: 'error' }]);
  });
});
