/**
 * The Gemini client against scripted fake-provider steps: what lands on the wire, what comes back, and
 * how every kind of failure ends as one error event and one finish, with the SDK never retrying.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  MissingApiKeyError,
  type ModelClient,
  type ModelRequest,
  type ResponseItem,
} from '../../../src/protocol/index.js';
import { createGeminiClient } from '../../../src/providers/gemini/client.js';
import type { Step } from '../../fake-provider/types.js';
import { type CollectedStream, collectEvents } from '../collect-events.js';
import { call, output, system, user } from '../item-builders.js';
import { withFakeServer } from '../fake-server.js';

const KEY = 'gemini-test-SECRET-0001';
const MODEL = 'gemini-2.5-flash';
const REQUEST: ModelRequest = { items: [system('Be brief.'), user('hello')], tools: [] };

const server = withFakeServer();

function client(
  env: Record<string, string | undefined> = { GEMINI_API_KEY: KEY },
  baseUrl?: string,
): ModelClient {
  return createGeminiClient({
    api: 'gemini',
    model: MODEL,
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

describe('createGeminiClient: the request on the wire', () => {
  it('sends the REST body to :streamGenerateContent?alt=sse with the key in x-goog-api-key', async () => {
    server.enqueue({ type: 'reply', text: 'hi' });
    await collectEvents(
      client(undefined, server.url).stream({
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
    const [request] = server.modelRequests('gemini');
    expect(request?.url).toBe(`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`);
    expect(request?.headers['x-goog-api-key']).toBe(KEY);
    expect(request?.rejected).toBeUndefined();
    expect(request?.body).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'list files' }] },
        {
          role: 'model',
          parts: [{ functionCall: { id: 'call_1', name: 'shell', args: { command: 'ls' } } }],
        },
        {
          role: 'user',
          parts: [{ functionResponse: { id: 'call_1', name: 'shell', response: { output: 'a.txt' } } }],
        },
      ],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      tools: [
        {
          functionDeclarations: [
            { name: 'shell', description: 'Run a command', parametersJsonSchema: { type: 'object' } },
          ],
        },
      ],
      generationConfig: { maxOutputTokens: 256 },
    });
  });

  it('uses GOOGLE_GEMINI_BASE_URL from options.env, never from process.env, and baseUrl over both', async () => {
    vi.stubEnv('GOOGLE_GEMINI_BASE_URL', 'http://127.0.0.1:9/nowhere');
    vi.stubEnv('GOOGLE_GENAI_USE_VERTEXAI', 'true');
    server.enqueue({ type: 'reply', text: 'one' }, { type: 'reply', text: 'two' });
    const fromEnv = await collectEvents(
      client({ GEMINI_API_KEY: KEY, GOOGLE_GEMINI_BASE_URL: server.url }).stream(REQUEST),
    );
    expect(fromEnv.text).toBe('one');
    const fromOption = await collectEvents(
      client(
        { GOOGLE_API_KEY: KEY, GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:9/nowhere' },
        server.url,
      ).stream(REQUEST),
    );
    expect(fromOption.text).toBe('two');
    expect(server.modelRequests('gemini').map((request) => request.headers['x-goog-api-key'])).toEqual([
      KEY,
      KEY,
    ]);
  });

  it('throws MissingApiKeyError naming GEMINI_API_KEY when neither key is set', () => {
    vi.stubEnv('GEMINI_API_KEY', 'from-process-env');
    for (const env of [{}, { GEMINI_API_KEY: ' ', GOOGLE_API_KEY: '' }]) {
      let thrown: unknown;
      try {
        client(env);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(MissingApiKeyError);
      expect((thrown as MissingApiKeyError).variable).toBe('GEMINI_API_KEY');
    }
  });
});

describe('createGeminiClient: replies from the fake provider', () => {
  it('streams thoughts, text and whole function calls, then the items, usage and finish', async () => {
    const collected = await run({
      type: 'reply',
      reasoning: 'The user wants a listing of the current directory.',
      text: 'Let me look at the files.',
      toolCalls: [{ name: 'shell', arguments: { command: 'ls -la' } }],
      usage: { inputTokens: 120, outputTokens: 40 },
    });
    expect(collected.reasoning).toBe('The user wants a listing of the current directory.');
    expect(collected.text).toBe('Let me look at the files.');
    const origin = { api: 'gemini', model: MODEL };
    const [thought, message, shell] = collected.items;
    expect(thought).toEqual({
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'The user wants a listing of the current directory.' }],
      origin,
    });
    expect(message).toEqual({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Let me look at the files.' }],
    });
    expect(shell).toMatchObject({
      type: 'function_call',
      name: 'shell',
      arguments: '{"command":"ls -la"}',
      origin,
    });
    expect(shell?.type === 'function_call' ? shell.provider_data?.thoughtSignature : undefined).toMatch(
      /^[A-Za-z0-9+/=]+$/,
    );
    expect(collected.usage).toMatchObject({ inputTokens: 120, outputTokens: 40 });
    expect(collected.finishes).toEqual([{ reason: 'tool-calls', rawReason: 'STOP' }]);
  });

  it('sends the call’s thought signature back to the same model, in contents the API accepts', async () => {
    const first = await run({
      type: 'reply',
      reasoning: 'Think first.',
      toolCalls: [{ name: 'pwd', arguments: {} }],
    });
    const callItem = first.items.find((item) => item.type === 'function_call');
    if (callItem?.type !== 'function_call') throw new Error('no call');
    server.reset();
    const history: ResponseItem[] = [user('where am I?'), ...first.items, output(callItem.call_id, '/home')];
    await run({ type: 'reply', text: 'In /home.' }, { items: history, tools: [] });
    const [request] = server.modelRequests('gemini');
    expect(request?.rejected).toBeUndefined();
    expect((request?.body as { contents: unknown[] }).contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          { text: 'Think first.', thought: true },
          {
            functionCall: { id: callItem.call_id, name: 'pwd', args: {} },
            thoughtSignature: callItem.provider_data?.thoughtSignature,
          },
        ],
      },
      {
        role: 'user',
        parts: [{ functionResponse: { id: callItem.call_id, name: 'pwd', response: { output: '/home' } } }],
      },
    ]);
  });
});

describe('createGeminiClient: Gemini 3 and tool calls from elsewhere', () => {
  it('continues a tool loop another provider started, which Gemini 3 would otherwise reject', async () => {
    server.enqueue({ type: 'reply', text: 'It is sunny.' });
    const history: ResponseItem[] = [
      user('weather in Paris?'),
      call('toolu_01A', 'weather', '{"city":"Paris"}'),
      output('toolu_01A', 'sunny'),
    ];
    const gemini3 = createGeminiClient({
      api: 'gemini',
      model: 'gemini-3-pro-preview',
      env: { GEMINI_API_KEY: KEY },
      baseUrl: server.url,
    });
    const collected = await collectEvents(gemini3.stream({ items: history, tools: [] }));
    expect(collected.errors).toEqual([]);
    expect(collected.text).toBe('It is sunny.');
    expect(server.modelRequests('gemini')[0]?.rejected).toBeUndefined();
  });
});

describe('createGeminiClient: failures', () => {
  it('401 → auth', async () => {
    const collected = await run({ type: 'error', status: 401 });
    expect(collected.errors.map((error) => [error.kind, error.statusCode, error.code])).toEqual([
      ['auth', 401, 'UNAUTHENTICATED'],
    ]);
    expect(collected.finishes).toEqual([{ reason: 'error' }]);
  });

  it('400 API key not valid → auth', async () => {
    const collected = await run({
      type: 'error',
      status: 400,
      body: {
        error: {
          code: 400,
          message: 'API key not valid. Please pass a valid API key.',
          status: 'INVALID_ARGUMENT',
        },
      },
    });
    expect(collected.errors.map((error) => error.kind)).toEqual(['auth']);
  });

  it('429 → rate-limit with RetryInfo’s delay, after exactly one request (the SDK does not retry)', async () => {
    const collected = await run({
      type: 'error',
      status: 429,
      body: {
        error: {
          code: 429,
          message: 'You exceeded your current quota.',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '13s' }],
        },
      },
    });
    expect(collected.errors.map((error) => [error.kind, error.isRetryable, error.retryAfterMs])).toEqual([
      ['rate-limit', true, 13_000],
    ]);
    expect(server.modelRequests('gemini')).toHaveLength(1);
  });

  it('503 → overloaded, after exactly one request', async () => {
    const collected = await run({ type: 'error', status: 503 });
    expect(collected.errors.map((error) => [error.kind, error.isRetryable])).toEqual([['overloaded', true]]);
    expect(server.modelRequests('gemini')).toHaveLength(1);
  });

  it('500 → server, after exactly one request', async () => {
    const collected = await run({ type: 'error', status: 500 });
    expect(collected.errors.map((error) => error.kind)).toEqual(['server']);
    expect(server.modelRequests('gemini')).toHaveLength(1);
  });

  it('400 input token count → context-overflow', async () => {
    const collected = await run({ type: 'error', status: 400, contextOverflow: true });
    expect(collected.errors.map((error) => [error.kind, error.isRetryable])).toEqual([
      ['context-overflow', false],
    ]);
  });

  it('a connection dropped mid-stream → network, one finish, nothing recorded', async () => {
    const collected = await run({
      type: 'reply',
      text: 'this reply is cut off somewhere in the middle',
      disconnectAfterFrames: 2,
    });
    expect(collected.text).not.toBe('');
    expect(collected.items).toEqual([]);
    expect(collected.errors.map((error) => error.kind)).toEqual(['network']);
    expect(collected.finishes).toEqual([{ reason: 'error' }]);
    expect(server.modelRequests('gemini')).toHaveLength(1);
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
