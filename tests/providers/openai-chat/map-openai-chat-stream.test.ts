import { APIError } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { mapOpenAIChatStream } from '../../../src/providers/openai-chat/map-openai-chat-stream.js';
import { mapOpenAIChatFinishReason } from '../../../src/providers/openai-chat/map-openai-chat-usage.js';
import { collectEvents, fromArray } from '../collect-events.js';

type Delta = ChatCompletionChunk.Choice.Delta;

function chunk(
  delta: Delta,
  finishReason: ChatCompletionChunk.Choice['finish_reason'] = null,
): ChatCompletionChunk {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-test',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

/** A chunk as a compatible server may send it: fields the SDK types call required left out. */
function looseChunk(value: Record<string, unknown>): ChatCompletionChunk {
  return value as unknown as ChatCompletionChunk;
}

const usageChunk: ChatCompletionChunk = {
  id: 'chatcmpl-test',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-test',
  choices: [],
  usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
};

describe('mapOpenAIChatStream', () => {
  it('streams deltas, then emits the items, usage and finish in that order', async () => {
    const result = await collectEvents(
      mapOpenAIChatStream(
        fromArray([
          chunk({ role: 'assistant', content: '' }),
          chunk({ content: 'Let me ' }),
          chunk({ content: 'look.' }),
          chunk({
            tool_calls: [
              { index: 0, id: 'call_1', type: 'function', function: { name: 'read', arguments: '' } },
            ],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '"a.txt"}' } }] }),
          chunk({}, 'tool_calls'),
          usageChunk,
        ]),
      ),
    );
    expect(result.events.map((event) => event.type)).toEqual([
      'text-delta',
      'text-delta',
      'tool-call-delta',
      'tool-call-delta',
      'item',
      'item',
      'usage',
      'finish',
    ]);
    expect(result.events[2]).toEqual({
      type: 'tool-call-delta',
      callId: 'call_1',
      name: 'read',
      argumentsDelta: '{"path":',
    });
    expect(result.items).toEqual([
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Let me look.' }] },
      { type: 'function_call', name: 'read', arguments: '{"path":"a.txt"}', call_id: 'call_1' },
    ]);
    expect(result.usage).toEqual({ inputTokens: 12, outputTokens: 3, totalTokens: 15 });
    expect(result.finishes).toEqual([{ reason: 'tool-calls', rawReason: 'tool_calls' }]);
  });

  it('discards the partial reply when the stream fails midway: error, then one finish, no items', async () => {
    const failure = new APIError(
      undefined,
      { message: 'upstream hiccup', code: 'server_error' },
      undefined,
      undefined,
    );
    const result = await collectEvents(
      mapOpenAIChatStream(
        fromArray(
          [
            chunk({ content: 'Half a ' }),
            chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'x', arguments: '{' } }] }),
          ],
          failure,
        ),
      ),
    );
    expect(result.text).toBe('Half a ');
    expect(result.items).toEqual([]);
    expect(result.usage).toBeUndefined();
    expect(result.errors.map((error) => [error.kind, error.isRetryable])).toEqual([['server', true]]);
    expect(result.finishes).toEqual([{ reason: 'error' }]);
  });

  it('maps an in-stream context_length_exceeded error to context-overflow', async () => {
    const failure = new APIError(
      undefined,
      { message: "This model's maximum context length is 8192 tokens.", code: 'context_length_exceeded' },
      undefined,
      undefined,
    );
    const result = await collectEvents(mapOpenAIChatStream(fromArray([], failure)));
    expect(result.errors[0]?.kind).toBe('context-overflow');
  });

  it('treats a stream that ends without a finish_reason as a dropped connection', async () => {
    const result = await collectEvents(mapOpenAIChatStream(fromArray([chunk({ content: 'cut' })])));
    expect(result.items).toEqual([]);
    expect(result.errors.map((error) => error.kind)).toEqual(['network']);
    expect(result.finishes).toEqual([{ reason: 'error' }]);
  });

  it('reports a cancelled request as aborted even when the SDK ends the stream quietly', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await collectEvents(
      mapOpenAIChatStream(fromArray([chunk({ content: 'partial' })]), { signal: controller.signal }),
    );
    expect(result.items).toEqual([]);
    expect(result.errors.map((error) => error.kind)).toEqual(['aborted']);
    expect(result.finishes).toEqual([{ reason: 'aborted' }]);
  });

  it('tolerates compatible servers: no choices, no index, repeated names, missing ids, reasoning fields', async () => {
    const result = await collectEvents(
      mapOpenAIChatStream(
        fromArray([
          looseChunk({ id: '', model: '', object: '', created: 0, choices: [], prompt_filter_results: [] }),
          looseChunk({ id: 'x', object: 'chat.completion.chunk', usage: null }),
          looseChunk({ choices: [{ delta: { reasoning_content: 'thinking…' } }] }),
          looseChunk({ choices: [{ index: 0, delta: { reasoning: ' more' } }] }),
          looseChunk({ choices: [{ index: 1, delta: { content: 'other choice' } }] }),
          looseChunk({
            choices: [{ delta: { tool_calls: [{ function: { name: 'ls', arguments: '{"a"' } }] } }],
          }),
          looseChunk({
            choices: [{ delta: { tool_calls: [{ function: { name: 'ls', arguments: ':1}' } }] } }],
          }),
          looseChunk({
            choices: [
              { delta: { tool_calls: [{ id: 'call_b', function: { name: 'cat', arguments: '{}' } }] } },
            ],
          }),
          looseChunk({ choices: [{ delta: { refusal: 'I cannot.' }, finish_reason: 'stop' }] }),
        ]),
      ),
    );
    expect(result.errors).toEqual([]);
    expect(result.reasoning).toBe('thinking… more');
    expect(result.text).toBe('I cannot.');
    const calls = result.items.filter((item) => item.type === 'function_call');
    expect(calls.map((item) => [item.name, item.arguments])).toEqual([
      ['ls', '{"a":1}'],
      ['cat', '{}'],
    ]);
    expect(calls[0]?.call_id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(calls[1]?.call_id).toBe('call_b');
  });

  it('tells apart calls that a server numbers all as index 0, by their ids', async () => {
    const result = await collectEvents(
      mapOpenAIChatStream(
        fromArray([
          chunk({ tool_calls: [{ index: 0, id: 'call_a', function: { name: 'ls', arguments: '{"p":1}' } }] }),
          chunk({
            tool_calls: [{ index: 0, id: 'call_b', function: { name: 'cat', arguments: '{"p":2}' } }],
          }),
          chunk({}, 'tool_calls'),
        ]),
      ),
    );
    expect(result.items).toEqual([
      { type: 'function_call', name: 'ls', arguments: '{"p":1}', call_id: 'call_a' },
      { type: 'function_call', name: 'cat', arguments: '{"p":2}', call_id: 'call_b' },
    ]);
  });

  it('gives calls without ids ids that are unique across streams', async () => {
    const stream = (): AsyncGenerator<ChatCompletionChunk> =>
      fromArray([
        chunk({ tool_calls: [{ index: 0, function: { name: 'ls', arguments: '{}' } }] }, 'tool_calls'),
      ]);
    const first = await collectEvents(mapOpenAIChatStream(stream()));
    const second = await collectEvents(mapOpenAIChatStream(stream()));
    const idOf = (items: typeof first.items): string | undefined =>
      items[0]?.type === 'function_call' ? items[0].call_id : undefined;
    expect(idOf(first.items)).toBeDefined();
    expect(idOf(first.items)).not.toBe(idOf(second.items));
  });

  it.each([
    ['stop', 'stop'],
    ['tool_calls', 'tool-calls'],
    ['function_call', 'tool-calls'],
    ['length', 'length'],
    ['content_filter', 'content-filter'],
    ['eos', 'other'],
  ] as const)('finish_reason %s → %s', (raw, expected) => {
    expect(mapOpenAIChatFinishReason(raw)).toBe(expected);
  });
});
