/**
 * The Bedrock Converse client against the loopback fake (AWS event-stream frames, SigV4 checked): what
 * lands on the wire, what comes back, and how every kind of failure ends as one error event and one
 * finish, with the SDK never retrying.
 */
import { describe, expect, it } from 'vitest';
import {
  ProviderError,
  type ModelClient,
  type ModelRequest,
  type ReasoningItem,
  type ReasoningLevel,
} from '../../../src/protocol/index.js';
import { createBedrockConverseClient } from '../../../src/providers/bedrock-converse/client.js';
import {
  exceptionFrame,
  eventFrame,
  SIGV4_AUTHORIZATION,
  streamHeaders,
} from '../../fake-provider/bedrock-converse.js';
import { FakeProviderServer } from '../../fake-provider/server.js';
import type { Step } from '../../fake-provider/types.js';
import { type CollectedStream, collectEvents } from '../collect-events.js';
import { call, image, output, system, user } from '../item-builders.js';
import { withFakeServer } from '../fake-server.js';

const MODEL = 'us.anthropic.claude-sonnet-4-20250514-v1:0';
const ACCESS_KEY = 'AKIAFAKEFAKEFAKE0001';
const SECRET = 'fake-secret-access-key-SECRET-0001';
const ENV = { AWS_ACCESS_KEY_ID: ACCESS_KEY, AWS_SECRET_ACCESS_KEY: SECRET, AWS_REGION: 'eu-west-1' };
const REQUEST: ModelRequest = { items: [system('Be brief.'), user('hello')], tools: [] };
const SHELL = {
  name: 'shell',
  description: 'Run a command',
  parameters: { type: 'object', properties: { command: { type: 'string' } } },
};
/** A 1×1 transparent PNG. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const server = withFakeServer();

function client(
  env: Record<string, string | undefined> = ENV,
  extra: { reasoningEffort?: ReasoningLevel; model?: string } = {},
): ModelClient {
  return createBedrockConverseClient({
    api: 'bedrock-converse',
    model: extra.model ?? MODEL,
    env,
    baseUrl: server.url,
    ...(extra.reasoningEffort ? { reasoningEffort: extra.reasoningEffort } : {}),
  });
}

async function run(step: Step, request: ModelRequest = REQUEST, model = client()): Promise<CollectedStream> {
  server.enqueue(step);
  const collected = await collectEvents(model.stream(request));
  expect(collected.finishes).toHaveLength(1);
  expect(collected.events.at(-1)?.type).toBe('finish');
  return collected;
}

describe('createBedrockConverseClient: the request on the wire', () => {
  it('POSTs the Converse body to /model/{modelId}/converse-stream, SigV4-signed for bedrock in the region', async () => {
    const collected = await run({ type: 'reply', textDeltas: ['Hel', 'lo ', 'there'] });
    const [request] = server.modelRequests('bedrock-converse');
    expect(request?.url).toBe(`/model/${encodeURIComponent(MODEL)}/converse-stream`);
    expect(request?.rejected).toBeUndefined();
    const authorization = String(request?.headers.authorization);
    expect(authorization).toMatch(SIGV4_AUTHORIZATION);
    expect(authorization).toContain(`Credential=${ACCESS_KEY}/`);
    expect(authorization).toContain('/eu-west-1/bedrock/aws4_request');
    expect(request?.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
    expect(request?.headers['x-amz-security-token']).toBeUndefined();
    expect(JSON.stringify(request?.headers)).not.toContain(SECRET);
    expect(request?.body).toEqual({
      messages: [{ role: 'user', content: [{ text: 'hello' }] }],
      system: [{ text: 'Be brief.' }],
    });
    expect(collected.text).toBe('Hello there');
    expect(collected.events.filter((event) => event.type === 'text-delta')).toHaveLength(3);
  });
});

describe('createBedrockConverseClient: credentials and region from options.env only', () => {
  it('sends x-amz-security-token when AWS_SESSION_TOKEN is set, and never the secret', async () => {
    const token = 'FwoGZXIvYXdzEFAKE-session-token-0001';
    await run({ type: 'reply', text: 'ok' }, REQUEST, client({ ...ENV, AWS_SESSION_TOKEN: token }));
    const [request] = server.modelRequests('bedrock-converse');
    expect(request?.headers['x-amz-security-token']).toBe(token);
    expect(String(request?.headers.authorization)).toContain('x-amz-security-token');
    expect(JSON.stringify(request?.headers)).not.toContain(SECRET);
  });

  it('sends a Bedrock API key (AWS_BEARER_TOKEN_BEDROCK, or the key core passes) as a bearer token instead of signing', async () => {
    const key = 'ABSKQmVkcm9ja0FQSUtleS1mYWtlLTAwMDE=';
    await run(
      { type: 'reply', text: 'ok' },
      REQUEST,
      client({ AWS_REGION: 'us-east-1', AWS_BEARER_TOKEN_BEDROCK: key }),
    );
    const passed = createBedrockConverseClient({
      api: 'bedrock-converse',
      model: MODEL,
      env: ENV,
      baseUrl: server.url,
      apiKey: `${key}2`,
    });
    await run({ type: 'reply', text: 'ok' }, REQUEST, passed);
    const [first, second] = server.modelRequests('bedrock-converse');
    expect(first?.headers.authorization).toBe(`Bearer ${key}`);
    expect(second?.headers.authorization).toBe(`Bearer ${key}2`);
    expect(second?.rejected).toBeUndefined();
  });

  it('reads a profile from the shared credentials file AWS_SHARED_CREDENTIALS_FILE names', async () => {
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'cody-aws-'));
    const file = join(dir, 'credentials');
    await writeFile(
      file,
      `[work]\naws_access_key_id = AKIAPROFILEFAKE0002\naws_secret_access_key = ${SECRET}\n`,
    );
    const env = {
      AWS_PROFILE: 'work',
      AWS_SHARED_CREDENTIALS_FILE: file,
      AWS_CONFIG_FILE: join(dir, 'none'),
      AWS_REGION: 'us-west-2',
      HOME: dir,
    };
    const collected = await run({ type: 'reply', text: 'ok' }, REQUEST, client(env));
    expect(collected.errors).toEqual([]);
    const authorization = String(server.modelRequests('bedrock-converse')[0]?.headers.authorization);
    expect(authorization).toContain('Credential=AKIAPROFILEFAKE0002/');
    expect(authorization).toContain('/us-west-2/bedrock/aws4_request');
  });

  it('without any credentials: one auth error naming what to set, and no request', async () => {
    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const home = await mkdtemp(join(tmpdir(), 'cody-aws-empty-'));
    const collected = await collectEvents(client({ AWS_REGION: 'us-east-1', HOME: home }).stream(REQUEST));
    expect(collected.errors.map((error) => error.kind)).toEqual(['auth']);
    expect(collected.errors[0]?.isRetryable).toBe(false);
    expect(collected.errors[0]?.message).toContain('AWS_ACCESS_KEY_ID');
    expect(collected.finishes).toEqual([{ reason: 'error' }]);
    expect(server.modelRequests()).toHaveLength(0);
  });

  it('without a region: an auth error at once, naming AWS_REGION', () => {
    expect(() => client({ AWS_ACCESS_KEY_ID: ACCESS_KEY, AWS_SECRET_ACCESS_KEY: SECRET })).toThrow(
      ProviderError,
    );
    expect(() => client({ AWS_ACCESS_KEY_ID: ACCESS_KEY, AWS_SECRET_ACCESS_KEY: SECRET })).toThrow(
      /AWS_REGION/,
    );
  });

  it('AWS_DEFAULT_REGION stands in for AWS_REGION, and the SDK prints no Node version warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.message);
    };
    process.on('warning', onWarning);
    try {
      const { AWS_REGION: _region, ...rest } = ENV;
      await run(
        { type: 'reply', text: 'ok' },
        REQUEST,
        client({ ...rest, AWS_DEFAULT_REGION: 'ap-south-1' }),
      );
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(String(server.modelRequests()[0]?.headers.authorization)).toContain('/ap-south-1/bedrock/');
    expect(warnings.filter((message) => /AWS SDK/.test(message))).toEqual([]);
  });
});

describe('createBedrockConverseClient: tools', () => {
  it('streams a tool call as input pieces, then a function_call item, finish tool-calls', async () => {
    const collected = await run(
      {
        type: 'reply',
        toolCalls: [{ id: 'tooluse_abc123', name: 'shell', arguments: { command: 'ls -la' } }],
      },
      { items: [user('list files')], tools: [SHELL] },
    );
    expect(collected.toolArguments).toEqual({ tooluse_abc123: '{"command":"ls -la"}' });
    expect(collected.items).toEqual([
      { type: 'function_call', name: 'shell', arguments: '{"command":"ls -la"}', call_id: 'tooluse_abc123' },
    ]);
    expect(collected.finishes).toEqual([{ reason: 'tool-calls', rawReason: 'tool_use' }]);
    const [request] = server.modelRequests('bedrock-converse');
    expect((request?.body as { toolConfig: unknown }).toolConfig).toEqual({
      tools: [
        {
          toolSpec: { name: 'shell', description: 'Run a command', inputSchema: { json: SHELL.parameters } },
        },
      ],
    });
  });

  it('sends the call back as toolUse and its result as toolResult in the next user turn', async () => {
    await run(
      { type: 'reply', text: 'two files' },
      {
        items: [
          user('list files'),
          call('tooluse_abc123', 'shell', '{"command":"ls"}'),
          output('tooluse_abc123', 'a.txt\nb.txt'),
        ],
        tools: [SHELL],
      },
    );
    const [request] = server.modelRequests('bedrock-converse');
    expect(request?.rejected).toBeUndefined();
    expect((request?.body as { messages: unknown }).messages).toEqual([
      { role: 'user', content: [{ text: 'list files' }] },
      {
        role: 'assistant',
        content: [{ toolUse: { toolUseId: 'tooluse_abc123', name: 'shell', input: { command: 'ls' } } }],
      },
      {
        role: 'user',
        content: [{ toolResult: { toolUseId: 'tooluse_abc123', content: [{ text: 'a.txt\nb.txt' }] } }],
      },
    ]);
  });

  it('with toolChoice none (the compaction summary) sends no tools and the history’s calls as text', async () => {
    await run(
      { type: 'reply', text: 'summary' },
      {
        items: [user('list files'), call('call_1'), output('call_1', 'a.txt')],
        tools: [SHELL],
        toolChoice: 'none',
      },
    );
    const [request] = server.modelRequests('bedrock-converse');
    expect(request?.rejected).toBeUndefined();
    const body = request?.body as { toolConfig?: unknown; messages: unknown };
    expect(body.toolConfig).toBeUndefined();
    expect(body.messages).toEqual([
      { role: 'user', content: [{ text: 'list files' }] },
      { role: 'assistant', content: [{ text: '[called tool shell (call_1) with {"command":"ls"}]' }] },
      { role: 'user', content: [{ text: '[result of tool shell (call_1)]' }, { text: 'a.txt' }] },
    ]);
  });
});

describe('createBedrockConverseClient: reasoning', () => {
  it('asks Claude for thinking in additionalModelRequestFields and streams reasoning with its signature', async () => {
    const collected = await run(
      { type: 'reply', reasoning: 'The user greets me; greet back.', text: 'Hi!' },
      REQUEST,
      client(ENV, { reasoningEffort: 'high' }),
    );
    const body = server.modelRequests('bedrock-converse')[0]?.body as Record<string, unknown>;
    expect(body.additionalModelRequestFields).toEqual({
      thinking: { type: 'enabled', budget_tokens: 7_168 },
      anthropic_beta: ['interleaved-thinking-2025-05-14'],
    });
    expect(body.inferenceConfig).toEqual({ maxTokens: 8_192 });
    expect(collected.reasoning).toBe('The user greets me; greet back.');
    const [thinking, message] = collected.items;
    expect(thinking).toMatchObject({
      type: 'reasoning',
      content: [{ type: 'reasoning_text', text: 'The user greets me; greet back.' }],
      origin: { api: 'bedrock-converse', model: MODEL },
    });
    expect((thinking as ReasoningItem).provider_data?.signature).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
    expect(message).toEqual({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Hi!' }],
    });
  });

  it('replays its own reasoning with the signature before the tool call it led to', async () => {
    server.enqueue({
      type: 'reply',
      reasoning: 'I should list.',
      toolCalls: [{ id: 'tooluse_1', name: 'shell', arguments: { command: 'ls' } }],
    });
    const thinker = client(ENV, { reasoningEffort: 'high' });
    const first = await collectEvents(thinker.stream({ items: [user('list')], tools: [SHELL] }));
    await run(
      { type: 'reply', text: 'done' },
      { items: [user('list'), ...first.items, output('tooluse_1', 'a.txt')], tools: [SHELL] },
      thinker,
    );
    const second = server.modelRequests('bedrock-converse')[1];
    expect(second?.rejected).toBeUndefined();
    const signature = (first.items[0] as ReasoningItem).provider_data?.signature;
    expect((second?.body as { messages: unknown[] }).messages[1]).toEqual({
      role: 'assistant',
      content: [
        { reasoningContent: { reasoningText: { text: 'I should list.', signature } } },
        { toolUse: { toolUseId: 'tooluse_1', name: 'shell', input: { command: 'ls' } } },
      ],
    });
    expect((second?.body as Record<string, unknown>).additionalModelRequestFields).toBeDefined();
  });

  it('asks an adaptive-only Claude for adaptive thinking with its effort, no budget, cap or beta; off as documented', async () => {
    const fields = async (model: string, level: ReasoningLevel): Promise<unknown> => {
      server.reset();
      await run({ type: 'reply', text: 'ok' }, REQUEST, client(ENV, { model, reasoningEffort: level }));
      const [request] = server.modelRequests('bedrock-converse');
      expect(request?.rejected).toBeUndefined();
      expect(request?.body).not.toHaveProperty('inferenceConfig');
      return (request?.body as Record<string, unknown>).additionalModelRequestFields;
    };
    const sonnet = 'us.anthropic.claude-sonnet-5-5-v1:0';
    expect(await fields(sonnet, 'minimal')).toEqual({
      thinking: { type: 'adaptive' },
      output_config: { effort: 'low' },
    });
    expect(await fields(sonnet, 'medium')).toEqual({
      thinking: { type: 'adaptive' },
      output_config: { effort: 'medium' },
    });
    expect(await fields('anthropic.claude-opus-4-7', 'high')).toEqual({
      thinking: { type: 'adaptive' },
      output_config: { effort: 'high' },
    });
    expect(await fields(sonnet, 'off')).toEqual({ thinking: { type: 'between_tools' } });
    expect(await fields('anthropic.claude-opus-5', 'off')).toEqual({ thinking: { type: 'disabled' } });
    expect(await fields('anthropic.claude-fable-5-1', 'off')).toEqual({
      thinking: { type: 'adaptive' },
      output_config: { effort: 'low' },
    });
    expect(await fields('anthropic.claude-opus-4-7', 'off')).toBeUndefined();
  });

  it('the fake refuses a budget for an adaptive-only Claude, as Bedrock passes Anthropic’s 400 through', async () => {
    server.enqueue({ type: 'reply', text: 'never' });
    const response = await fetch(`${server.url}/model/anthropic.claude-opus-5-5/converse-stream`, {
      method: 'POST',
      headers: { authorization: 'Bearer test-key', 'content-type': 'application/json' },
      body: JSON.stringify({
        messages: [{ role: 'user', content: [{ text: 'hi' }] }],
        additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 4_000 } },
      }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toBe(
      '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.',
    );
  });
});

describe('createBedrockConverseClient: usage and images', () => {
  it('reports the metadata usage, cache reads counted into the prompt', async () => {
    server.enqueue({
      type: 'raw',
      headers: streamHeaders(),
      chunks: [],
      binary: [
        eventFrame('messageStart', { role: 'assistant' }),
        eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'ok' } }),
        eventFrame('contentBlockStop', { contentBlockIndex: 0 }),
        eventFrame('messageStop', { stopReason: 'end_turn' }),
        eventFrame('metadata', {
          usage: {
            inputTokens: 10,
            outputTokens: 3,
            totalTokens: 113,
            cacheReadInputTokens: 100,
            cacheWriteInputTokens: 0,
          },
          metrics: { latencyMs: 12 },
        }),
      ],
    });
    const collected = await collectEvents(client().stream(REQUEST));
    expect(collected.usage).toEqual({
      inputTokens: 110,
      cachedInputTokens: 100,
      outputTokens: 3,
      totalTokens: 113,
    });
    expect(collected.finishes).toEqual([{ reason: 'stop', rawReason: 'end_turn' }]);
  });

  it('sends a data: URL image as bytes with its format, in the user turn and in a tool result', async () => {
    await run(
      { type: 'reply', text: 'a dot' },
      {
        items: [
          user('what is this?', image(`data:image/png;base64,${PNG}`)),
          call('tooluse_2'),
          output('tooluse_2', [{ type: 'input_image', image_url: `data:image/jpeg;base64,${PNG}` }]),
        ],
        tools: [SHELL],
      },
    );
    const [request] = server.modelRequests('bedrock-converse');
    expect(request?.rejected).toBeUndefined();
    const messages = (request?.body as { messages: Array<{ content: unknown[] }> }).messages;
    expect(messages[0]?.content).toEqual([
      { text: 'what is this?' },
      { image: { format: 'png', source: { bytes: PNG } } },
    ]);
    expect(messages[2]?.content).toEqual([
      {
        toolResult: {
          toolUseId: 'tooluse_2',
          content: [{ image: { format: 'jpeg', source: { bytes: PNG } } }],
        },
      },
    ]);
  });
});

describe('createBedrockConverseClient: failures end as one error and one finish, never retried', () => {
  it.each([
    [429, 'rate-limit', 'ThrottlingException', true],
    [403, 'auth', 'AccessDeniedException', false],
    [401, 'auth', 'UnrecognizedClientException', false],
    [400, 'bad-request', 'ValidationException', false],
    [404, 'not-found', 'ResourceNotFoundException', false],
    [503, 'overloaded', 'ServiceUnavailableException', true],
    [500, 'server', 'InternalServerException', true],
  ] as const)('HTTP %i → %s (%s)', async (status, kind, code, retryable) => {
    const collected = await run({ type: 'error', status });
    expect(
      collected.errors.map((error) => [error.kind, error.code, error.statusCode, error.isRetryable]),
    ).toEqual([[kind, code, status, retryable]]);
    expect(collected.errors[0]?.message).not.toContain(SECRET);
    expect(server.modelRequests()).toHaveLength(1);
  });

  it('a 400 "Input is too long" is a context overflow', async () => {
    const collected = await run({ type: 'error', status: 400, contextOverflow: true });
    expect(collected.errors.map((error) => error.kind)).toEqual(['context-overflow']);
  });

  it('an exception frame mid-stream ends the stream with its error and records nothing', async () => {
    server.enqueue({
      type: 'raw',
      headers: streamHeaders(),
      chunks: [],
      binary: [
        eventFrame('messageStart', { role: 'assistant' }),
        eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Par' } }),
        exceptionFrame('modelStreamErrorException', 'The model stream failed.'),
      ],
    });
    const collected = await collectEvents(client().stream(REQUEST));
    expect(collected.text).toBe('Par');
    expect(collected.items).toEqual([]);
    expect(collected.errors.map((error) => [error.kind, error.code, error.isRetryable])).toEqual([
      ['server', 'ModelStreamErrorException', true],
    ]);
    expect(collected.finishes).toEqual([{ reason: 'error' }]);
  });

  it('a throttling exception frame is a retryable rate limit', async () => {
    server.enqueue({
      type: 'raw',
      headers: streamHeaders(),
      chunks: [],
      binary: [exceptionFrame('throttlingException', 'Too many tokens, please wait.')],
    });
    const collected = await collectEvents(client().stream(REQUEST));
    expect(collected.errors.map((error) => [error.kind, error.isRetryable])).toEqual([['rate-limit', true]]);
  });

  it('a stream cut before messageStop is a network error and records nothing', async () => {
    const collected = await run({
      type: 'reply',
      text: 'a long answer that is cut',
      disconnectAfterFrames: 3,
    });
    expect(collected.items).toEqual([]);
    expect(collected.errors.map((error) => error.kind)).toEqual(['network']);
  });

  it('a refused connection is a network error', async () => {
    const refused = createBedrockConverseClient({
      api: 'bedrock-converse',
      model: MODEL,
      env: ENV,
      baseUrl: 'http://127.0.0.1:9',
    });
    const collected = await collectEvents(refused.stream(REQUEST));
    expect(collected.errors.map((error) => error.kind)).toEqual(['network']);
    expect(collected.finishes).toEqual([{ reason: 'error' }]);
  });

  it('a stream silent for longer than timeoutMs fails as a network error instead of hanging', async () => {
    const slow = new FakeProviderServer({ chunkDelayMs: 400 });
    const url = await slow.start();
    try {
      const timed = createBedrockConverseClient({
        api: 'bedrock-converse',
        model: MODEL,
        env: ENV,
        baseUrl: url,
        timeoutMs: 150,
      });
      slow.enqueue({ type: 'reply', textDeltas: ['a', 'b', 'c', 'd'] });
      const collected = await collectEvents(timed.stream(REQUEST));
      expect(collected.items).toEqual([]);
      expect(collected.errors.map((error) => error.kind)).toEqual(['network']);
      expect(collected.finishes).toEqual([{ reason: 'error' }]);
    } finally {
      await slow.stop();
    }
  });

  it('an aborted request ends with finish aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const collected = await collectEvents(client().stream({ ...REQUEST, signal: controller.signal }));
    expect(collected.errors.map((error) => error.kind)).toEqual(['aborted']);
    expect(collected.finishes).toEqual([{ reason: 'aborted' }]);
  });
});
