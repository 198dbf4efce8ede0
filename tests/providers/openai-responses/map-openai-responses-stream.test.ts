import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { mapOpenAIResponsesStream } from '../../../src/providers/openai-responses/map-openai-responses-stream.js';
import { type CollectedStream, collectEvents, fromArray } from '../collect-events.js';

/** Events as the wire sends them (the SDK passes them through untyped; some fields are left out here). */
function events(...values: Array<Record<string, unknown>>): ResponseStreamEvent[] {
  return values as unknown as ResponseStreamEvent[];
}

function run(
  values: ResponseStreamEvent[],
  options: { signal?: AbortSignal } = {},
): Promise<CollectedStream> {
  return collectEvents(mapOpenAIResponsesStream(fromArray(values), { model: 'gpt-5', ...options }));
}

const message = (id: string, text: string): Record<string, unknown> => ({
  id,
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text, annotations: [] }],
});
const functionCall = (id: string, callId: string): Record<string, unknown> => ({
  id,
  type: 'function_call',
  call_id: callId,
  name: 'ls',
  arguments: '{}',
  status: 'completed',
});
const completed = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'response.completed',
  response: {
    model: 'gpt-5-2025-08-07',
    status: 'completed',
    output: [],
    usage: { input_tokens: 5, output_tokens: 2, total_tokens: 7 },
    ...extra,
  },
});

describe('mapOpenAIResponsesStream', () => {
  it('emits completed items in output order, after all deltas, then usage, then finish', async () => {
    const result = await run(
      events(
        { type: 'response.created', response: { model: 'gpt-5-2025-08-07' } },
        { type: 'response.output_text.delta', delta: 'Hi' },
        { type: 'response.output_item.done', output_index: 1, item: functionCall('fc_1', 'call_1') },
        { type: 'response.output_item.done', output_index: 0, item: message('msg_1', 'Hi') },
        { type: 'response.web_search_call.searching', item_id: 'ws_1' },
        { type: 'response.some_future_event', whatever: true },
        completed(),
      ),
    );
    expect(result.events.map((event) => event.type)).toEqual([
      'text-delta',
      'item',
      'item',
      'usage',
      'finish',
    ]);
    expect(result.items.map((item) => item.type)).toEqual(['message', 'function_call']);
    expect(result.usage).toEqual({ inputTokens: 5, outputTokens: 2, totalTokens: 7 });
    expect(result.finishes).toEqual([{ reason: 'tool-calls' }]);
  });

  it('falls back to the final output when no output_item.done was streamed', async () => {
    const result = await run(events(completed({ output: [message('msg_1', 'From the final output.')] })));
    expect(result.items).toEqual([
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'From the final output.' }],
        id: 'msg_1',
      },
    ]);
    expect(result.finishes).toEqual([{ reason: 'stop' }]);
  });

  it('keeps a message phase and shows refusals as text', async () => {
    const result = await run(
      events(
        { type: 'response.refusal.delta', delta: 'No.' },
        {
          type: 'response.output_item.done',
          output_index: 0,
          item: {
            ...message('msg_1', ''),
            phase: 'final_answer',
            content: [{ type: 'refusal', refusal: 'No.' }],
          },
        },
        completed(),
      ),
    );
    expect(result.text).toBe('No.');
    expect(result.items).toEqual([
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'No.' }],
        id: 'msg_1',
        origin: { api: 'openai-responses', model: 'gpt-5-2025-08-07' },
        provider_data: { phase: 'final_answer' },
      },
    ]);
  });

  it.each([
    ['max_output_tokens', 'length'],
    ['content_filter', 'content-filter'],
  ] as const)('response.incomplete (%s) → finish %s, keeping what was produced', async (reason, expected) => {
    const result = await run(
      events(
        { type: 'response.output_item.done', output_index: 0, item: message('msg_1', 'Partial answer') },
        {
          type: 'response.incomplete',
          response: { status: 'incomplete', incomplete_details: { reason }, output: [], usage: null },
        },
      ),
    );
    expect(result.items).toHaveLength(1);
    expect(result.usage).toBeUndefined();
    expect(result.finishes).toEqual([{ reason: expected, rawReason: reason }]);
  });

  it('response.failed → the mapped error, no items, finish error', async () => {
    const result = await run(
      events(
        { type: 'response.output_item.done', output_index: 0, item: message('msg_1', 'half') },
        {
          type: 'response.failed',
          response: {
            status: 'failed',
            error: {
              code: 'context_length_exceeded',
              message: 'Your input exceeds the context window of this model.',
            },
          },
        },
      ),
    );
    expect(result.items).toEqual([]);
    expect(result.errors.map((error) => [error.kind, error.code])).toEqual([
      ['context-overflow', 'context_length_exceeded'],
    ]);
    expect(result.finishes).toEqual([{ reason: 'error' }]);
  });

  it('a flat error event (code and message at the top) → the mapped error', async () => {
    const result = await run(
      events({ type: 'error', code: 'rate_limit_exceeded', message: 'Slow down.', param: null }),
    );
    expect(result.errors.map((error) => [error.kind, error.isRetryable, error.message])).toEqual([
      ['rate-limit', true, 'Slow down.'],
    ]);
  });

  it('a stream that ends without response.completed is a dropped connection; a cancelled one is aborted', async () => {
    const partial = events(
      { type: 'response.output_text.delta', delta: 'cut' },
      { type: 'response.output_item.done', output_index: 0, item: message('msg_1', 'cut') },
    );
    const dropped = await run(partial);
    expect(dropped.items).toEqual([]);
    expect(dropped.errors.map((error) => error.kind)).toEqual(['network']);
    expect(dropped.finishes).toEqual([{ reason: 'error' }]);

    const controller = new AbortController();
    controller.abort();
    const cancelled = await run(partial, { signal: controller.signal });
    expect(cancelled.errors.map((error) => error.kind)).toEqual(['aborted']);
    expect(cancelled.finishes).toEqual([{ reason: 'aborted' }]);
  });

  it('separates reasoning summary parts and names the call of each argument delta', async () => {
    const result = await run(
      events(
        { type: 'response.reasoning_summary_part.added', summary_index: 0 },
        { type: 'response.reasoning_summary_text.delta', delta: 'First.' },
        { type: 'response.reasoning_summary_part.added', summary_index: 1 },
        { type: 'response.reasoning_summary_text.delta', delta: 'Second.' },
        {
          type: 'response.output_item.added',
          output_index: 1,
          item: { ...functionCall('fc_1', 'call_1'), arguments: '' },
        },
        { type: 'response.function_call_arguments.delta', item_id: 'fc_1', delta: '{}' },
        completed(),
      ),
    );
    expect(result.reasoning).toBe('First.\n\nSecond.');
    expect(result.events).toContainEqual({
      type: 'tool-call-delta',
      callId: 'call_1',
      name: 'ls',
      argumentsDelta: '{}',
    });
  });
});
