/** The Anthropic stream mapper fed event objects directly: the cases no recording shows. */
import { describe, expect, it } from 'vitest';
import { APIError } from '@anthropic-ai/sdk';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { mapAnthropicStream } from '../../../src/providers/anthropic-messages/map-anthropic-stream.js';
import {
  mapAnthropicStopReason,
  mapAnthropicUsage,
} from '../../../src/providers/anthropic-messages/map-anthropic-usage.js';
import { collectEvents, fromArray } from '../collect-events.js';

type Event = Record<string, unknown>;

const start = (usage: Event = { input_tokens: 10, output_tokens: 1 }): Event => ({
  type: 'message_start',
  message: {
    model: 'claude-sonnet-4-6',
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    content: [],
    usage,
  },
});
const blockStart = (index: number, block: Event): Event => ({
  type: 'content_block_start',
  index,
  content_block: block,
});
const delta = (index: number, value: Event): Event => ({ type: 'content_block_delta', index, delta: value });
const blockStop = (index: number): Event => ({ type: 'content_block_stop', index });
const messageDelta = (stopReason: string, usage: Event = { output_tokens: 20 }): Event => ({
  type: 'message_delta',
  delta: { stop_reason: stopReason, stop_sequence: null },
  usage,
});
const stop: Event = { type: 'message_stop' };

function run(events: Event[], options: { failWith?: unknown; signal?: AbortSignal } = {}) {
  return collectEvents(
    mapAnthropicStream(fromArray(events as unknown as RawMessageStreamEvent[], options.failWith), {
      model: 'claude-sonnet-4-6',
      ...(options.signal ? { signal: options.signal } : {}),
    }),
  );
}

describe('mapAnthropicStream', () => {
  it('emits items in block order groups: reasoning, one message with a part per text block, calls', async () => {
    const collected = await run([
      start(),
      blockStart(0, { type: 'thinking', thinking: '', signature: '' }),
      delta(0, { type: 'thinking_delta', thinking: 'Hmm.' }),
      delta(0, { type: 'signature_delta', signature: 'SIG' }),
      blockStop(0),
      blockStart(1, { type: 'text', text: '' }),
      delta(1, { type: 'text_delta', text: 'Searching.' }),
      blockStop(1),
      blockStart(2, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }),
      delta(2, { type: 'input_json_delta', partial_json: '{"query":"x"}' }),
      blockStop(2),
      blockStart(3, { type: 'text', text: '' }),
      delta(3, { type: 'text_delta', text: 'Found it.' }),
      blockStop(3),
      blockStart(4, { type: 'tool_use', id: 'toolu_1', name: 'open', input: {} }),
      delta(4, { type: 'input_json_delta', partial_json: '{"url":' }),
      delta(4, { type: 'input_json_delta', partial_json: '"a"}' }),
      blockStop(4),
      messageDelta('tool_use'),
      stop,
    ]);
    expect(collected.items).toEqual([
      {
        type: 'reasoning',
        summary: [],
        content: [{ type: 'reasoning_text', text: 'Hmm.' }],
        origin: { api: 'anthropic-messages', model: 'claude-sonnet-4-6' },
        provider_data: { signature: 'SIG' },
      },
      {
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'output_text', text: 'Searching.' },
          { type: 'output_text', text: 'Found it.' },
        ],
      },
      { type: 'function_call', name: 'open', arguments: '{"url":"a"}', call_id: 'toolu_1' },
    ]);
    // The server tool's input is Anthropic's business, not a call for Cody to run.
    expect(collected.toolArguments).toEqual({ toolu_1: '{"url":"a"}' });
    expect(collected.finishes).toEqual([{ reason: 'tool-calls', rawReason: 'tool_use' }]);
  });

  it('keeps redacted thinking as reasoning with its data', async () => {
    const collected = await run([
      start(),
      blockStart(0, { type: 'redacted_thinking', data: 'EmwKAhgB' }),
      blockStop(0),
      blockStart(1, { type: 'text', text: 'ok' }),
      blockStop(1),
      messageDelta('end_turn'),
      stop,
    ]);
    expect(collected.items).toEqual([
      {
        type: 'reasoning',
        summary: [],
        origin: { api: 'anthropic-messages', model: 'claude-sonnet-4-6' },
        provider_data: { redacted_data: 'EmwKAhgB' },
      },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] },
    ]);
    expect(collected.text).toBe('ok');
  });

  it('counts cached input into the prompt and reports cache reads as cached', async () => {
    const collected = await run([
      start({
        input_tokens: 5,
        cache_read_input_tokens: 1000,
        cache_creation_input_tokens: 200,
        output_tokens: 1,
      }),
      blockStart(0, { type: 'text', text: '' }),
      delta(0, { type: 'text_delta', text: 'hi' }),
      blockStop(0),
      messageDelta('end_turn', { output_tokens: 42, output_tokens_details: { thinking_tokens: 30 } }),
      stop,
    ]);
    expect(collected.usage).toEqual({
      inputTokens: 1205,
      cachedInputTokens: 1000,
      outputTokens: 42,
      reasoningTokens: 30,
      totalTokens: 1247,
    });
  });

  it('turns a mid-stream error event into the error and one finish, recording nothing', async () => {
    const overloaded = new APIError(
      undefined,
      { type: 'error', error: { details: null, type: 'overloaded_error', message: 'Overloaded' } },
      undefined,
      new Headers(),
    );
    const collected = await run(
      [start(), blockStart(0, { type: 'text', text: '' }), delta(0, { type: 'text_delta', text: 'Half' })],
      { failWith: overloaded },
    );
    expect(collected.text).toBe('Half');
    expect(collected.items).toEqual([]);
    expect(collected.errors.map((error) => [error.kind, error.isRetryable, error.code])).toEqual([
      ['overloaded', true, 'overloaded_error'],
    ]);
    expect(collected.finishes).toEqual([{ reason: 'error' }]);
  });

  it('treats a stream that ends without message_stop as a dropped connection', async () => {
    const collected = await run([
      start(),
      blockStart(0, { type: 'text', text: '' }),
      delta(0, { type: 'text_delta', text: 'cut' }),
      messageDelta('end_turn'),
    ]);
    expect(collected.items).toEqual([]);
    expect(collected.usage).toBeUndefined();
    expect(collected.errors.map((error) => error.kind)).toEqual(['network']);
    expect(collected.finishes).toEqual([{ reason: 'error' }]);
  });

  it('reports a cancelled request as aborted (the SDK ends a cancelled stream silently)', async () => {
    const controller = new AbortController();
    controller.abort();
    const collected = await run([start(), blockStart(0, { type: 'text', text: 'partial' })], {
      signal: controller.signal,
    });
    expect(collected.errors.map((error) => error.kind)).toEqual(['aborted']);
    expect(collected.finishes).toEqual([{ reason: 'aborted' }]);
  });

  it('ignores events it does not know and deltas for blocks it never saw', async () => {
    const collected = await run([
      start(),
      { type: 'ping' },
      delta(7, { type: 'text_delta', text: 'stray' }),
      blockStart(0, { type: 'text', text: '' }),
      delta(0, { type: 'citations_delta', citation: {} }),
      delta(0, { type: 'text_delta', text: 'fine' }),
      { type: 'something_new', index: 0 },
      blockStop(0),
      messageDelta('end_turn'),
      stop,
    ]);
    expect(collected.text).toBe('fine');
    expect(collected.finishes).toEqual([{ reason: 'stop', rawReason: 'end_turn' }]);
  });
});

describe('mapAnthropicStopReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['tool_use', 'tool-calls'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['refusal', 'content-filter'],
    ['pause_turn', 'other'],
    [null, 'other'],
  ] as const)('%s → %s', (reason, expected) => {
    expect(mapAnthropicStopReason(reason)).toBe(expected);
  });
});

describe('mapAnthropicUsage', () => {
  it('leaves unknown counts undefined, never 0', () => {
    expect(mapAnthropicUsage({})).toBeUndefined();
    expect(mapAnthropicUsage({ output: 7 })).toEqual({ outputTokens: 7 });
  });
});
