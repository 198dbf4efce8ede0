/**
 * The Chat Completions client against scripted fake-provider steps: what lands on the wire, and how every
 * kind of failure comes back as one error event and one finish, with the SDK never retrying.
 */
import { describe, expect, it, vi } from 'vitest';
import { MissingApiKeyError, type ModelClient, type ModelRequest } from '../../../src/protocol/index.js';
import { createOpenAIChatClient } from '../../../src/providers/openai-chat/client.js';
import type { Step } from '../../fake-provider/types.js';
import { type CollectedStream, collectEvents } from '../collect-events.js';
import { call, output, system, user } from '../item-builders.js';
import { FakeProviderServer } from '../../fake-provider/server.js';
import { withFakeServer } from '../fake-server.js';

const KEY = 'sk-test-chat-SECRET-0001';
const REQUEST: ModelRequest = { items: [system('Be brief.'), user('hello')], tools: [] };

const server = withFakeServer();

function client(
  model = 'gpt-4.1-mini',
  env: Record<string, string | undefined> = { OPENAI_API_KEY: KEY },
): ModelClient {
  return createOpenAIChatClient({ api: 'openai-chat', model, baseUrl: `${server.url}/v1`, env });
}

async function run(step: Step, request: ModelRequest = REQUEST): Promise<CollectedStream> {
  server.enqueue(step);
  const collected = await collectEvents(client().stream(request));
  expect(collected.finishes).toHaveLength(1);
  expect(collected.events.at(-1)?.type).toBe('finish');
  return collected;
}

describe('createOpenAIChatClient: the request on the wire', () => {
  it('sends the converted body with the key as a bearer token', async () => {
    server.enqueue({ type: 'reply', text: 'hi' });
    await collectEvents(
      client('gpt-4.1-mini').stream({
        items: [
          system('Be brief.'),
          user('list files'),
          call('call_1', 'shell', '{"command":"ls"}'),
          output('call_1', 'a.txt'),
        ],
        tools: [{ name: 'shell', description: 'Run a command', parameters: { type: 'object' } }],
        maxOutputTokens: 256,
      }),
    );
    const [request] = server.modelRequests('openai-chat');
    expect(request?.url).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.rejected).toBeUndefined();
    expect(request?.body).toEqual({
      model: 'gpt-4.1-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'list files' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'shell', arguments: '{"command":"ls"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'a.txt' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      tools: [
        {
          type: 'function',
          function: { name: 'shell', description: 'Run a command', parameters: { type: 'object' } },
        },
      ],
      max_completion_tokens: 256,
    });
  });

  it('maps a scripted reply with text and two tool calls', async () => {
    const result = await run({
      type: 'reply',
      text: 'Reading both files now.',
      toolCalls: [
        { id: 'call_a', name: 'read', arguments: { path: 'a.txt' } },
        { id: 'call_b', name: 'read', arguments: { path: 'b.txt' } },
      ],
      usage: { inputTokens: 120, outputTokens: 30 },
    });
    expect(result.text).toBe('Reading both files now.');
    expect(result.toolArguments).toEqual({ call_a: '{"path":"a.txt"}', call_b: '{"path":"b.txt"}' });
    expect(result.items).toEqual([
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Reading both files now.' }],
      },
      { type: 'function_call', name: 'read', arguments: '{"path":"a.txt"}', call_id: 'call_a' },
      { type: 'function_call', name: 'read', arguments: '{"path":"b.txt"}', call_id: 'call_b' },
    ]);
    expect(result.usage).toEqual({
      inputTokens: 120,
      cachedInputTokens: 0,
      outputTokens: 30,
      reasoningTokens: 0,
      totalTokens: 150,
    });
    expect(result.finishes).toEqual([{ reason: 'tool-calls', rawReason: 'tool_calls' }]);
  });
});

describe('createOpenAIChatClient: failures', () => {
  it('401 → auth, naming nothing secret', async () => {
    const result = await run({
      type: 'error',
      status: 401,
      body: {
        error: {
          message: `Incorrect API key provided: ${KEY}.`,
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      },
    });
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ kind: 'auth', statusCode: 401, isRetryable: false });
    expect(result.errors[0]?.message).not.toContain(KEY);
    expect(result.finishes).toEqual([{ reason: 'error' }]);
  });

  it('429 → rate-limit with the server-requested delay, and no retry by the SDK', async () => {
    const result = await run({ type: 'error', status: 429 });
    expect(result.errors[0]).toMatchObject({
      kind: 'rate-limit',
      statusCode: 429,
      isRetryable: true,
      retryAfterMs: 20,
      code: 'rate_limit_exceeded',
    });
    expect(server.modelRequests()).toHaveLength(1);
  });

  it('429 with only retry-after in seconds', async () => {
    const result = await run({ type: 'error', status: 429, headers: { 'retry-after': '7' } });
    expect(result.errors[0]?.retryAfterMs).toBe(7000);
    expect(server.modelRequests()).toHaveLength(1);
  });

  it('429 insufficient_quota → rate-limit that is not retryable', async () => {
    const result = await run({
      type: 'error',
      status: 429,
      body: {
        error: {
          message: 'You exceeded your current quota.',
          type: 'insufficient_quota',
          param: null,
          code: 'insufficient_quota',
        },
      },
    });
    expect(result.errors[0]).toMatchObject({ kind: 'rate-limit', isRetryable: false });
  });

  it('500 → server, retryable, still exactly one request', async () => {
    const result = await run({ type: 'error', status: 500 });
    expect(result.errors[0]).toMatchObject({ kind: 'server', statusCode: 500, isRetryable: true });
    expect(server.modelRequests()).toHaveLength(1);
  });

  it('400 context_length_exceeded → context-overflow', async () => {
    const result = await run({ type: 'error', status: 400, contextOverflow: true });
    expect(result.errors[0]).toMatchObject({
      kind: 'context-overflow',
      statusCode: 400,
      code: 'context_length_exceeded',
    });
  });

  it('a connection dropped mid-stream → network error, no items, one finish', async () => {
    const result = await run({
      type: 'reply',
      text: 'This reply will be cut off halfway through.',
      disconnectAfterFrames: 3,
    });
    expect(result.text).not.toBe('');
    expect(result.items).toEqual([]);
    expect(result.usage).toBeUndefined();
    expect(result.errors.map((error) => [error.kind, error.isRetryable])).toEqual([['network', true]]);
    expect(result.finishes).toEqual([{ reason: 'error' }]);
  });

  it('a server that cannot be reached → network error', async () => {
    const unreachable = createOpenAIChatClient({
      api: 'openai-chat',
      model: 'gpt-4o',
      baseUrl: 'http://127.0.0.1:9/v1',
      env: { OPENAI_API_KEY: KEY },
    });
    const result = await collectEvents(unreachable.stream(REQUEST));
    expect(result.errors.map((error) => error.kind)).toEqual(['network']);
    expect(result.finishes).toEqual([{ reason: 'error' }]);
  });

  it('a request cancelled before it starts → aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await collectEvents(client().stream({ ...REQUEST, signal: controller.signal }));
    expect(result.errors.map((error) => error.kind)).toEqual(['aborted']);
    expect(result.finishes).toEqual([{ reason: 'aborted' }]);
  });

  it('a request cancelled mid-stream → aborted, no items', async () => {
    const slow = new FakeProviderServer({ chunkDelayMs: 20 });
    await slow.start();
    try {
      slow.enqueue({ type: 'reply', text: 'one two three four five six seven eight nine ten eleven twelve' });
      const controller = new AbortController();
      const stream = createOpenAIChatClient({
        api: 'openai-chat',
        model: 'gpt-4o',
        baseUrl: `${slow.url}/v1`,
        env: { OPENAI_API_KEY: KEY },
      }).stream({ ...REQUEST, signal: controller.signal });
      const types: string[] = [];
      const kinds: string[] = [];
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === 'text-delta') controller.abort();
        if (event.type === 'error') kinds.push(event.error.kind);
      }
      expect(types).not.toContain('item');
      expect(kinds).toEqual(['aborted']);
      expect(types.filter((type) => type === 'finish')).toHaveLength(1);
    } finally {
      await slow.stop();
    }
  });
});

describe('createOpenAIChatClient: key and endpoint', () => {
  it('throws MissingApiKeyError naming OPENAI_API_KEY for OpenAI without a key, even if process.env has one', () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-from-process-env');
    const build = (): ModelClient => createOpenAIChatClient({ api: 'openai-chat', model: 'gpt-4o', env: {} });
    expect(build).toThrow(MissingApiKeyError);
    expect(build).toThrow(/OPENAI_API_KEY/);
  });

  it('sends a placeholder key to a local OpenAI-compatible server when none is set', async () => {
    server.enqueue({ type: 'reply', text: 'local' });
    const local = createOpenAIChatClient({
      api: 'openai-chat',
      model: 'llama3.2',
      env: { OPENAI_BASE_URL: `${server.url}/v1` },
    });
    const result = await collectEvents(local.stream(REQUEST));
    expect(result.text).toBe('local');
    expect(server.modelRequests()[0]?.headers.authorization).toBe('Bearer no-key-needed');
  });

  it('prefers options.baseUrl over OPENAI_BASE_URL, and never reads process.env', async () => {
    vi.stubEnv('OPENAI_BASE_URL', 'http://127.0.0.1:9/v1');
    server.enqueue({ type: 'reply', text: 'from config url' });
    const configured = createOpenAIChatClient({
      api: 'openai-chat',
      model: 'gpt-4o',
      baseUrl: `${server.url}/v1`,
      env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
    });
    expect((await collectEvents(configured.stream(REQUEST))).text).toBe('from config url');

    server.enqueue({ type: 'reply', text: 'from env url' });
    const fromEnv = createOpenAIChatClient({
      api: 'openai-chat',
      model: 'gpt-4o',
      env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${server.url}/v1` },
    });
    expect((await collectEvents(fromEnv.stream(REQUEST))).text).toBe('from env url');
    expect(server.modelRequests()).toHaveLength(2);
  });
});
