/**
 * The Responses client against scripted fake-provider steps: what lands on the wire (including replayed
 * reasoning, which the fake validates as the real API does), and every failure as one error and one finish.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  MissingApiKeyError,
  type ModelClient,
  type ModelRequest,
  type ResponseItem,
} from '../../../src/protocol/index.js';
import { createOpenAIResponsesClient } from '../../../src/providers/openai-responses/client.js';
import type { Step } from '../../fake-provider/types.js';
import { type CollectedStream, collectEvents } from '../collect-events.js';
import { output, system, user } from '../item-builders.js';
import { withFakeServer } from '../fake-server.js';

const KEY = 'sk-test-responses-SECRET-0002';
const REQUEST: ModelRequest = { items: [system('You are Cody.'), user('hello')], tools: [] };

const server = withFakeServer();

function client(model = 'gpt-5', options: { reasoning?: boolean; key?: string } = {}): ModelClient {
  return createOpenAIResponsesClient({
    api: 'openai-responses',
    model,
    baseUrl: `${server.url}/v1`,
    env: { OPENAI_API_KEY: options.key ?? KEY },
    reasoning: options.reasoning ?? true,
  });
}

async function run(step: Step, request: ModelRequest = REQUEST): Promise<CollectedStream> {
  server.enqueue(step);
  const collected = await collectEvents(client().stream(request));
  expect(collected.finishes).toHaveLength(1);
  expect(collected.events.at(-1)?.type).toBe('finish');
  return collected;
}

describe('createOpenAIResponsesClient: a tool loop on the wire', () => {
  it('records reasoning, a call and its id, then replays them so the fake (like the API) accepts them', async () => {
    const first = await run(
      {
        type: 'reply',
        reasoning: 'The user wants the files listed.',
        toolCalls: [{ id: 'call_1', name: 'shell', arguments: { command: 'ls' } }],
        usage: { inputTokens: 40, outputTokens: 20 },
      },
      {
        ...REQUEST,
        tools: [{ name: 'shell', description: 'Run a command', parameters: { type: 'object' } }],
        maxOutputTokens: 2000,
      },
    );
    expect(first.reasoning).toBe('The user wants the files listed.');
    expect(first.items.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
    const [thinking, call] = first.items;
    expect(thinking).toMatchObject({
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'The user wants the files listed.' }],
      origin: { api: 'openai-responses', model: 'gpt-5' },
    });
    expect(thinking?.type === 'reasoning' && thinking.encrypted_content).toMatch(/^gAAAAB/);
    expect(call).toMatchObject({
      type: 'function_call',
      call_id: 'call_1',
      name: 'shell',
      arguments: '{"command":"ls"}',
    });
    expect(first.usage).toMatchObject({ inputTokens: 40, outputTokens: 20, totalTokens: 60 });
    expect(first.finishes).toEqual([{ reason: 'tool-calls' }]);

    const [firstRequest] = server.modelRequests('openai-responses');
    expect(firstRequest?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(firstRequest?.body).toEqual({
      model: 'gpt-5',
      instructions: 'You are Cody.',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] }],
      stream: true,
      store: false,
      include: ['reasoning.encrypted_content'],
      tools: [
        {
          type: 'function',
          name: 'shell',
          description: 'Run a command',
          parameters: { type: 'object' },
          strict: false,
        },
      ],
      max_output_tokens: 2000,
    });

    const history: ResponseItem[] = [...REQUEST.items, ...first.items, output('call_1', 'a.txt')];
    const second = await run(
      { type: 'reply', text: 'There is one file: a.txt.' },
      { items: history, tools: [] },
    );
    expect(second.errors).toEqual([]);
    expect(second.text).toBe('There is one file: a.txt.');
    const secondRequest = server.modelRequests('openai-responses')[1];
    expect(secondRequest?.rejected).toBeUndefined();
    const input = (secondRequest?.body as { input: Array<Record<string, unknown>> }).input;
    expect(input.map((item) => item.type)).toEqual([
      'message',
      'reasoning',
      'function_call',
      'function_call_output',
    ]);
    expect(input[1]).toEqual({
      type: 'reasoning',
      id: thinking?.type === 'reasoning' ? thinking.id : undefined,
      summary: [{ type: 'summary_text', text: 'The user wants the files listed.' }],
      encrypted_content: thinking?.type === 'reasoning' ? thinking.encrypted_content : undefined,
    });
    expect(input[2]).toMatchObject({
      call_id: 'call_1',
      id: call?.type === 'function_call' ? call.id : 'missing',
    });
  });
});

describe('createOpenAIResponsesClient: encrypted reasoning', () => {
  it('asks no model without reasoning for it; the fake, like OpenAI, refuses that with a 400', async () => {
    server.enqueue({ type: 'reply', text: 'Hi.' });
    const plain = await collectEvents(client('gpt-4.1-mini', { reasoning: false }).stream(REQUEST));
    expect(plain.errors).toEqual([]);
    expect(server.modelRequests('openai-responses')[0]?.body).not.toHaveProperty('include');

    const wrong = await collectEvents(client('gpt-4.1-mini', { reasoning: true }).stream(REQUEST));
    expect(wrong.errors[0]).toMatchObject({
      kind: 'bad-request',
      message: 'Encrypted content is not supported with this model.',
    });
  });

  it('reasoning another account encrypted is refused once (invalid_encrypted_content), then sent without it', async () => {
    const tools = [{ name: 'shell', description: 'Run a command', parameters: { type: 'object' } }];
    server.enqueue({
      type: 'reply',
      reasoning: 'List the files.',
      toolCalls: [{ id: 'call_9', name: 'shell', arguments: { command: 'ls' } }],
    });
    const other = await collectEvents(
      client('gpt-5', { key: 'sk-test-other-account' }).stream({ ...REQUEST, tools }),
    );
    const history: ResponseItem[] = [...REQUEST.items, ...other.items, output('call_9', 'a.txt')];
    server.reset();

    const mine = client('gpt-5');
    server.enqueue({ type: 'reply', text: 'One file.' }, { type: 'reply', text: 'Still one.' });
    const answer = await collectEvents(mine.stream({ items: history, tools }));
    expect(answer.errors).toEqual([]);
    expect(answer.text).toBe('One file.');
    const [refused, resent] = server.modelRequests('openai-responses');
    expect(refused?.rejected).toMatch(/invalid_encrypted_content/);
    const types = (request: typeof resent) =>
      (request?.body as { input: Array<Record<string, unknown>> }).input.map((item) => item.type);
    expect(types(refused)).toContain('reasoning');
    expect(types(resent)).toEqual(['message', 'function_call', 'function_call_output']);
    // The call's `fc_` id needs its reasoning item, so it goes too.
    expect((resent?.body as { input: Array<Record<string, unknown>> }).input[1]).not.toHaveProperty('id');

    // The same client does not try the refused reasoning again.
    await collectEvents(mine.stream({ items: history, tools }));
    const third = server.modelRequests('openai-responses')[2];
    expect(third?.rejected).toBeUndefined();
    expect(types(third)).not.toContain('reasoning');
  });
});

describe('createOpenAIResponsesClient: failures', () => {
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
    expect(result.errors[0]).toMatchObject({ kind: 'auth', statusCode: 401 });
    expect(result.errors[0]?.message).not.toContain(KEY);
  });

  it('429 → rate-limit with retryAfterMs, exactly one request', async () => {
    const result = await run({
      type: 'error',
      status: 429,
      headers: { 'retry-after-ms': '1500', 'retry-after': '2' },
    });
    expect(result.errors[0]).toMatchObject({ kind: 'rate-limit', isRetryable: true, retryAfterMs: 1500 });
    expect(server.modelRequests()).toHaveLength(1);
  });

  it('500 and 503 → server, retryable, no SDK retry', async () => {
    for (const status of [500, 503]) {
      server.reset();
      const result = await run({ type: 'error', status });
      expect(result.errors[0]).toMatchObject({ kind: 'server', statusCode: status, isRetryable: true });
      expect(server.modelRequests()).toHaveLength(1);
    }
  });

  it('400 context overflow → context-overflow', async () => {
    const result = await run({ type: 'error', status: 400, contextOverflow: true });
    expect(result.errors[0]).toMatchObject({ kind: 'context-overflow', code: 'context_length_exceeded' });
  });

  it('a connection dropped mid-stream → network error, no items, one finish', async () => {
    const result = await run({
      type: 'reply',
      reasoning: 'Thinking it through.',
      text: 'An answer that never completes.',
      disconnectAfterFrames: 12,
    });
    expect(result.reasoning).not.toBe('');
    expect(result.items).toEqual([]);
    expect(result.errors.map((error) => error.kind)).toEqual(['network']);
    expect(result.finishes).toEqual([{ reason: 'error' }]);
  });
});

describe('createOpenAIResponsesClient: key', () => {
  it('throws MissingApiKeyError naming OPENAI_API_KEY without a key for OpenAI', () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-from-process-env');
    expect(() => createOpenAIResponsesClient({ api: 'openai-responses', model: 'gpt-5', env: {} })).toThrow(
      /OPENAI_API_KEY/,
    );
    expect(() =>
      createOpenAIResponsesClient({
        api: 'openai-responses',
        model: 'gpt-5',
        baseUrl: 'https://api.openai.com/v1',
        env: {},
      }),
    ).toThrow(MissingApiKeyError);
  });
});
