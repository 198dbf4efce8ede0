/**
 * The fake provider's Anthropic module against the recordings: it accepts the request bodies the real API
 * accepted, rejects what the real API rejects with its error body, and renders replies in the recorded
 * framing and shape.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { anthropicMessagesProtocol } from '../../fake-provider/anthropic-messages.js';
import type { ProtocolRequest, ReplyStep } from '../../fake-provider/types.js';
import { listRecordings, RECORDINGS_ROOT } from '../recordings.js';

const DIR = 'anthropic-messages';
type Json = Record<string, unknown>;

function request(body: Json): ProtocolRequest {
  return { url: new URL('http://127.0.0.1/v1/messages'), body, headers: {} };
}

function readJson(file: string): Json {
  return JSON.parse(readFileSync(join(RECORDINGS_ROOT, DIR, file), 'utf8')) as Json;
}

const text = (value: string): Json => ({ type: 'text', text: value });
const base = { model: 'claude-sonnet-4-6', max_tokens: 1024 };
/** Tool blocks are accepted only in a request that defines tools. */
const withTools = {
  ...base,
  tools: [{ name: 'ls', description: 'List files', input_schema: { type: 'object' } }],
};

describe('anthropicMessagesProtocol.validate', () => {
  const metaFiles = listRecordings(DIR)
    .map((file) => `${file}.meta.json`)
    .filter((file) => existsSync(join(RECORDINGS_ROOT, DIR, file)));

  it('has recorded requests to check against', () => {
    expect(metaFiles.length).toBeGreaterThanOrEqual(8);
  });

  it.each(metaFiles)('accepts the request the real API accepted in %s', (file) => {
    const body = (readJson(file).request as { json_body: Json }).json_body;
    expect(anthropicMessagesProtocol.validate(request(body))).toBeUndefined();
  });

  const rejected: Array<[string, Json, RegExp]> = [
    [
      'a missing max_tokens',
      { model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'hi' }] },
      /max_tokens: Field required/,
    ],
    [
      'a first message from the assistant',
      { ...base, messages: [{ role: 'assistant', content: 'hi' }] },
      /first message must use the "user" role/,
    ],
    [
      'two user turns in a row',
      {
        ...base,
        messages: [
          { role: 'user', content: 'a' },
          { role: 'user', content: 'b' },
        ],
      },
      /roles must alternate/,
    ],
    [
      'a tool_result without its tool_use in the previous message',
      {
        ...withTools,
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: [text('ok')] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_X', content: 'done' }] },
        ],
      },
      /unexpected `tool_use_id` found in `tool_result` blocks: toolu_X/,
    ],
    [
      'a tool_use not answered in the next user message',
      {
        ...withTools,
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_X', name: 'ls', input: {} }] },
          { role: 'user', content: [text('never mind')] },
        ],
      },
      /`tool_use` ids were found without `tool_result` blocks immediately after: toolu_X/,
    ],
    [
      'a thinking block without its signature',
      {
        ...base,
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm' }, text('ok')] },
          { role: 'user', content: 'again' },
        ],
      },
      /thinking\.signature: Field required/,
    ],
    [
      'tool blocks in a request that defines no tools',
      {
        ...base,
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'ls', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.txt' }] },
        ],
      },
      /Requests which include `tool_use` or `tool_result` blocks must define tools\./,
    ],
    [
      'a tool_use id outside the pattern',
      {
        ...withTools,
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'call.1', name: 'ls', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call.1' }] },
        ],
      },
      /String should match pattern/,
    ],
    [
      'an empty text block',
      { ...base, messages: [{ role: 'user', content: [text('')] }] },
      /text content blocks must be non-empty/,
    ],
  ];

  it.each(rejected)('rejects %s with a real 400 body', (_name, body, message) => {
    const verdict = anthropicMessagesProtocol.validate(request(body));
    expect(verdict?.status).toBe(400);
    expect(verdict?.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect((verdict?.body as { error: { message: string } }).error.message).toMatch(message);
  });
});

describe('anthropicMessagesProtocol.validate: thinking types per model', () => {
  const hi = { max_tokens: 16_000, messages: [{ role: 'user', content: 'hi' }] };
  const budget = { type: 'enabled', budget_tokens: 4_000 };

  it.each([
    'claude-opus-4-7',
    'claude-opus-4-8',
    'claude-opus-5',
    'claude-sonnet-5-5',
    'claude-haiku-5-5',
    'claude-fable-5-1',
    'claude-mythos-preview',
  ])('refuses a thinking budget on the adaptive-only %s, in Anthropic’s words', (model) => {
    const verdict = anthropicMessagesProtocol.validate(request({ ...hi, model, thinking: budget }));
    expect(verdict?.status).toBe(400);
    expect((verdict?.body as { error: { message: string } }).error.message).toBe(
      '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.',
    );
    const adaptive = { ...hi, model, thinking: { type: 'adaptive' }, output_config: { effort: 'medium' } };
    expect(anthropicMessagesProtocol.validate(request(adaptive))).toBeUndefined();
  });

  it.each([
    ['claude-opus-5-5', 'disabled'],
    ['claude-fable-5', 'disabled'],
    ['claude-sonnet-5-5', 'disabled'],
    ['claude-opus-4-7', 'disabled'],
    ['claude-opus-5', 'between_tools'],
    ['claude-sonnet-4-5', 'adaptive'],
  ])('refuses %s with thinking %s', (model, type) => {
    const verdict = anthropicMessagesProtocol.validate(request({ ...hi, model, thinking: { type } }));
    expect((verdict?.body as { error: { message: string } }).error.message).toMatch(
      `"thinking.type.${type}" is not supported for this model.`,
    );
  });

  it('takes a budget where it is still accepted, disabled where documented, and only known efforts', () => {
    const ok = (body: Json): void =>
      expect(anthropicMessagesProtocol.validate(request({ ...hi, ...body }))).toBeUndefined();
    ok({ model: 'claude-sonnet-4-6', thinking: budget });
    ok({ model: 'claude-opus-5', thinking: { type: 'disabled' } });
    ok({ model: 'claude-sonnet-5-5', thinking: { type: 'between_tools' } });
    const bad = anthropicMessagesProtocol.validate(
      request({
        ...hi,
        model: 'claude-opus-5',
        thinking: { type: 'adaptive' },
        output_config: { effort: 'minimal' },
      }),
    );
    expect((bad?.body as { error: { message: string } }).error.message).toMatch(/output_config\.effort/);
  });
});

/** The SSE frames of a rendered reply as [event name, parsed data, raw data line]. */
function framesOf(
  step: ReplyStep,
  body: Json = { ...base, stream: true, messages: [] },
): Array<[string, Json, string]> {
  return anthropicMessagesProtocol.renderReply(step, request(body)).chunks.map((frame) => {
    const match = /^event: (\S+)\ndata: (.*)\n\n$/s.exec(frame);
    if (!match) throw new Error(`not an Anthropic SSE frame: ${JSON.stringify(frame)}`);
    return [match[1] ?? '', JSON.parse(match[2] ?? '') as Json, match[2] ?? ''];
  });
}

describe('anthropicMessagesProtocol.renderReply', () => {
  it('frames every event as `event: <type>` + `data: <json>` with the event named after the payload type', () => {
    const frames = framesOf({ type: 'reply', text: 'Hello there, how are you?' });
    for (const [name, payload] of frames) expect(payload.type).toBe(name);
    expect(frames.map(([name]) => name)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      ...Array<string>(4).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(frames.find(([name]) => name === 'ping')?.[2]).toBe('{"type": "ping"}');
    // Like the real API, some data lines are padded with spaces before the closing brace.
    expect(frames.some(([, , raw]) => / +\}$/.test(raw))).toBe(true);
  });

  it('carries the recorded usage fields in message_start and message_delta', () => {
    const recorded = readFileSync(join(RECORDINGS_ROOT, DIR, 'stream-text.claude-haiku-4-5.sse'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as Json);
    const rendered = framesOf({ type: 'reply', text: 'Hi', usage: { inputTokens: 10, outputTokens: 4 } }).map(
      ([, payload]) => payload,
    );
    const usageKeys = (payloads: Json[], type: string): string[] => {
      const payload = payloads.find((candidate) => candidate.type === type) as Json;
      const usage = (type === 'message_start' ? (payload.message as Json).usage : payload.usage) as Json;
      return Object.keys(usage).sort();
    };
    expect(usageKeys(rendered, 'message_start')).toEqual(usageKeys(recorded, 'message_start'));
    expect(usageKeys(rendered, 'message_delta')).toEqual(usageKeys(recorded, 'message_delta'));
    const delta = rendered.find((payload) => payload.type === 'message_delta') as Json;
    expect(delta).toMatchObject({ delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 4 } });
  });

  it('streams thinking in pieces ending in a signature_delta, and tool input as input_json_delta pieces', () => {
    const frames = framesOf({
      type: 'reply',
      reasoning: 'Let me think about this carefully.',
      toolCalls: [
        { id: 'toolu_1', name: 'weather', arguments: { location: 'San Francisco' } },
        { id: 'toolu_2', name: 'pelican_name_generator', arguments: {} },
      ],
    }).map(([, payload]) => payload);
    const deltas = (index: number) =>
      frames
        .filter((payload) => payload.type === 'content_block_delta' && payload.index === index)
        .map((payload) => payload.delta as Json);
    const thinking = deltas(0);
    expect(thinking.filter((delta) => delta.type === 'thinking_delta').length).toBeGreaterThan(2);
    expect(thinking.at(-1)?.type).toBe('signature_delta');
    expect(
      deltas(1)
        .map((delta) => delta.partial_json)
        .join(''),
    ).toBe('{"location":"San Francisco"}');
    expect(deltas(1)[0]).toEqual({ type: 'input_json_delta', partial_json: '' });
    expect(deltas(2)).toEqual([{ type: 'input_json_delta', partial_json: '' }]);
    expect(frames.find((payload) => payload.type === 'message_delta')).toMatchObject({
      delta: { stop_reason: 'tool_use' },
    });
  });

  it('answers a non-streaming request with a Message shaped like the recorded one', () => {
    const recorded = readJson('vercel-ai.anthropic-thinking.1.json');
    const rendered = anthropicMessagesProtocol.renderReply(
      { type: 'reply', reasoning: '925 divided by 5 = 185', text: '925 ÷ 5 = 185' },
      request({ ...base, messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(rendered.headers['content-type']).toBe('application/json');
    const message = JSON.parse(rendered.chunks.join('')) as Json;
    const keys = (value: Json) =>
      Object.keys(value)
        .filter((key) => key !== 'context_management')
        .sort();
    expect(keys(message)).toEqual(keys(recorded));
    expect((message.content as Json[]).map((block) => Object.keys(block).sort())).toEqual(
      (recorded.content as Json[]).map((block) => Object.keys(block).sort()),
    );
    const plain = readJson('vercel-ai.anthropic-text.json');
    expect((plain.content as Json[]).map((block) => block.type)).toEqual(['text']);
  });

  it('drops the connection after the requested number of frames', () => {
    const rendered = anthropicMessagesProtocol.renderReply(
      { type: 'reply', text: 'hello', disconnectAfterFrames: 3 },
      request({ ...base, stream: true, messages: [] }),
    );
    expect(rendered.disconnectAfter).toBe(3);
  });
});

describe('anthropicMessagesProtocol.renderError', () => {
  const issues = readJson('errors-from-issues.json').entries as Array<{ case: string; body_text?: string }>;

  it('answers a context overflow with the recorded "prompt is too long" body', () => {
    const rendered = anthropicMessagesProtocol.renderError({
      type: 'error',
      status: 400,
      contextOverflow: true,
    });
    expect(rendered.chunks.join('')).toBe(
      issues.find((entry) => entry.case === 'prompt is too long')?.body_text,
    );
  });

  it.each([
    [401, 'authentication_error'],
    [429, 'rate_limit_error'],
    [500, 'api_error'],
    [529, 'overloaded_error'],
  ])('answers %i with an %s body', (status, type) => {
    const rendered = anthropicMessagesProtocol.renderError({ type: 'error', status });
    expect(rendered.status).toBe(status);
    expect(JSON.parse(rendered.chunks.join(''))).toMatchObject({ type: 'error', error: { type } });
    if (status === 429) expect(rendered.headers['retry-after']).toBeDefined();
  });
});
