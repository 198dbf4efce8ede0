/** The fake provider's Chat Completions module speaks (and refuses) like the real API. */
import { describe, expect, it } from 'vitest';
import { withFakeServer } from '../fake-server.js';

const server = withFakeServer();

async function post(body: unknown): Promise<{ status: number; contentType: string | null; text: string }> {
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text: await response.text(),
  };
}

function frames(text: string): string[] {
  return text.split('\n\n').filter((frame) => frame !== '');
}

describe('fake Chat Completions: streams', () => {
  it('frames chunks as data: lines ending in [DONE], with a usage chunk only when asked for', async () => {
    server.enqueue({
      type: 'reply',
      text: 'Hello there, friend.',
      toolCalls: [{ id: 'call_1', name: 'ls', arguments: { path: '.' } }],
    });
    const withUsage = await post({
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(withUsage.contentType).toBe('text/event-stream; charset=utf-8');
    const parts = frames(withUsage.text);
    expect(parts.every((frame) => frame.startsWith('data: ') && !frame.includes('\n'))).toBe(true);
    expect(parts.at(-1)).toBe('data: [DONE]');
    const chunks = parts.slice(0, -1).map((frame) => JSON.parse(frame.slice(6)) as Record<string, unknown>);
    expect(chunks[0]).toMatchObject({
      object: 'chat.completion.chunk',
      choices: [{ delta: { role: 'assistant', content: '' } }],
    });
    expect(chunks.filter((chunk) => JSON.stringify(chunk).includes('"content":"')).length).toBeGreaterThan(2);
    expect(chunks.find((chunk) => JSON.stringify(chunk).includes('"id":"call_1"'))).toMatchObject({
      choices: [
        {
          delta: {
            tool_calls: [
              { index: 0, id: 'call_1', type: 'function', function: { name: 'ls', arguments: '' } },
            ],
          },
        },
      ],
    });
    expect(chunks.at(-2)).toMatchObject({
      choices: [{ delta: {}, finish_reason: 'tool_calls' }],
      usage: null,
    });
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });

    server.enqueue({ type: 'reply', text: 'Hi.' });
    const withoutUsage = frames(
      (await post({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'hi' }] })).text,
    );
    expect(withoutUsage.some((frame) => frame.includes('"usage"'))).toBe(false);
  });

  it('answers a chat.completion JSON when not streaming', async () => {
    server.enqueue({ type: 'reply', text: 'Plain.' });
    const response = await post({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(response.contentType).toBe('application/json');
    expect(JSON.parse(response.text)).toMatchObject({
      object: 'chat.completion',
      model: 'gpt-4o',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Plain.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 5 },
    });
  });

  it('echoes the last user message when nothing is scripted', async () => {
    const response = await post({ model: 'gpt-4o', messages: [{ role: 'user', content: 'ping' }] });
    expect(JSON.parse(response.text)).toMatchObject({ choices: [{ message: { content: 'echo: ping' } }] });
  });
});

describe('fake Chat Completions: what the real API rejects', () => {
  const cases: Array<{ name: string; body: unknown; message: string }> = [
    {
      name: 'no model',
      body: { messages: [{ role: 'user', content: 'hi' }] },
      message: 'you must provide a model parameter',
    },
    { name: 'no messages', body: { model: 'gpt-4o' }, message: "Missing required parameter: 'messages'." },
    {
      name: 'a tool message with no preceding tool call',
      body: {
        model: 'gpt-4o',
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'tool', tool_call_id: 'call_1', content: 'x' },
        ],
      },
      message:
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
    },
    {
      name: 'a tool message answering an unknown id',
      body: {
        model: 'gpt-4o',
        messages: [
          { role: 'user', content: 'hi' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'call_2', content: 'x' },
        ],
      },
      message: "Invalid parameter: 'tool_call_id' of 'call_2' not found in 'tool_calls' of previous message.",
    },
    {
      name: 'tool calls left unanswered',
      body: {
        model: 'gpt-4o',
        messages: [
          { role: 'user', content: 'hi' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{}' } },
              { id: 'call_2', type: 'function', function: { name: 'ls', arguments: '{}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: 'x' },
          { role: 'user', content: 'and?' },
        ],
      },
      message:
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_2",
    },
  ];

  it.each(cases)('$name', async ({ body, message }) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toMatchObject({ error: { message, type: 'invalid_request_error' } });
    expect(server.requests[0]?.rejected).toBeDefined();
  });

  it('renders a 429 with retry-after headers and a pretty-printed OpenAI body', async () => {
    server.enqueue({ type: 'error', status: 429 });
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(response.headers.get('retry-after-ms')).toBe('20');
    const text = await response.text();
    expect(text.startsWith('{\n  "error": {\n')).toBe(true);
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
  });
});
