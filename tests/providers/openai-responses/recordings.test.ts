/**
 * Every recorded Responses API answer, served byte for byte (split at arbitrary places) by the fake
 * provider to the real client built by `createOpenAIResponsesClient`, and the canonical events it produces.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelRequest, ReasoningItem } from '../../../src/protocol/index.js';
import { createOpenAIResponsesClient } from '../../../src/providers/openai-responses/client.js';
import type { RawStep } from '../../fake-provider/types.js';
import { type CollectedStream, collectEvents } from '../collect-events.js';
import { user } from '../item-builders.js';
import {
  chunkLines,
  listRecordings,
  loadRecording,
  RECORDINGS_ROOT,
  splitIntoChunks,
  sseChunksFromChunkFile,
  rawStep,
} from '../recordings.js';
import { withFakeServer } from '../fake-server.js';

const DIR = 'openai-responses';
const REQUEST: ModelRequest = { items: [user('hello')], tools: [] };
const EVENT_STREAM = { 'content-type': 'text/event-stream; charset=utf-8' };

/** Every file of the directory, each replayed below. */
const FILES = {
  functionCall: 'stream-function-call.gpt-4o.sse',
  textAfterOutput: 'stream-text-after-function-output.gpt-4o.sse',
  reasoningAndCall: 'stream-reasoning-item-function-call-usage.gpt-5.sse',
  summaryThenText: 'stream-reasoning-summary-then-text.o3-mini.sse',
  invalidTemperature: 'error-400-invalid-temperature.json',
  modelNotFound: 'error-400-model-not-found.json',
  inStreamQuotaError: 'vercel-ai.openai-error.1.chunks.txt',
  quotaErrorBody: 'vercel-ai.openai-error.1.json',
  fromIssues: 'errors-from-issues.json',
} as const;

const server = withFakeServer();

async function replay(step: RawStep, model = 'gpt-5'): Promise<CollectedStream> {
  server.enqueue(step);
  const client = createOpenAIResponsesClient({
    api: 'openai-responses',
    model,
    baseUrl: `${server.url}/v1`,
    env: { OPENAI_API_KEY: 'sk-test-recordings-0002' },
  });
  const collected = await collectEvents(client.stream(REQUEST));
  expect(server.modelRequests('openai-responses')).toHaveLength(1);
  expect(collected.finishes).toHaveLength(1);
  expect(collected.events.at(-1)?.type).toBe('finish');
  return collected;
}

describe('recorded Responses streams', () => {
  it('a function call with arguments in five deltas (gpt-4o, no sequence_number)', async () => {
    const result = await replay(rawStep(loadRecording(DIR, FILES.functionCall)), 'gpt-4o');
    expect(result.errors).toEqual([]);
    expect(result.toolArguments).toEqual({ call_kL0PCQV7M2WMoVX8V8OtYSAL: '{"country":"France"}' });
    expect(result.events.filter((event) => event.type === 'tool-call-delta')).toHaveLength(5);
    expect(result.events.find((event) => event.type === 'tool-call-delta')).toMatchObject({
      name: 'get_capital',
    });
    expect(result.items).toEqual([
      {
        type: 'function_call',
        name: 'get_capital',
        arguments: '{"country":"France"}',
        call_id: 'call_kL0PCQV7M2WMoVX8V8OtYSAL',
        id: 'fc_67e554a1de488191af0831d35cbe082e0794405d35281ae2',
        origin: { api: 'openai-responses', model: 'gpt-4o-2024-08-06' },
      },
    ]);
    expect(result.usage).toEqual({
      inputTokens: 255,
      cachedInputTokens: 0,
      outputTokens: 16,
      reasoningTokens: 0,
      totalTokens: 271,
    });
    expect(result.finishes).toEqual([{ reason: 'tool-calls' }]);
  });

  it('text after a function output (gpt-4o)', async () => {
    const result = await replay(rawStep(loadRecording(DIR, FILES.textAfterOutput)), 'gpt-4o');
    expect(result.text).toBe('The capital of France is Paris.');
    expect(result.items).toEqual([
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'The capital of France is Paris.' }],
        id: 'msg_67e554a28bec8191b56d3e2331eff88006c52f0e511c76ed',
      },
    ]);
    expect(result.usage).toMatchObject({ inputTokens: 278, outputTokens: 9, totalTokens: 287 });
    expect(result.finishes).toEqual([{ reason: 'stop' }]);
  });

  it('an encrypted reasoning item, then a function call; reasoning tokens in usage (gpt-5)', async () => {
    const result = await replay(rawStep(loadRecording(DIR, FILES.reasoningAndCall), 4));
    expect(result.errors).toEqual([]);
    const [first, second] = result.items;
    expect(first).toMatchObject({
      type: 'reasoning',
      id: 'rs_0050471a34b36ae60068c97bac4dcc819595fd0f80d6b3c405',
      summary: [],
      origin: { api: 'openai-responses', model: 'gpt-5-2025-08-07' },
    });
    const encrypted = (first as ReasoningItem).encrypted_content ?? '';
    expect(encrypted.startsWith('gAAAAABoyXvxI6jwG5j6')).toBe(true);
    expect(encrypted).toHaveLength(3896);
    expect(second).toEqual({
      type: 'function_call',
      name: 'final_result',
      arguments: '{"result":6666}',
      call_id: 'call_CWXgs68YprAjp6t0371hiPOI',
      id: 'fc_0050471a34b36ae60068c97bf19d9c819590eaf42c0edc1042',
      origin: { api: 'openai-responses', model: 'gpt-5-2025-08-07' },
    });
    expect(result.usage).toEqual({
      inputTokens: 53,
      cachedInputTokens: 0,
      outputTokens: 469,
      reasoningTokens: 448,
      totalTokens: 522,
    });
    expect(result.finishes).toEqual([{ reason: 'tool-calls' }]);
  });

  it('a four-part reasoning summary streamed before a long answer (o3-mini)', async () => {
    const result = await replay(rawStep(loadRecording(DIR, FILES.summaryThenText), 23), 'o3-mini');
    expect(result.errors).toEqual([]);
    const [thinking, message] = result.items;
    expect(thinking?.type).toBe('reasoning');
    const summary = (thinking as ReasoningItem).summary.map((part) => part.text);
    expect(summary.map((text) => text.length)).toEqual([460, 517, 540, 505]);
    expect(summary[0]?.startsWith('**Providing street crossing instructions**')).toBe(true);
    expect(result.reasoning).toBe(summary.join('\n\n'));
    expect((thinking as ReasoningItem).encrypted_content).toHaveLength(440);
    expect(thinking?.type === 'reasoning' && thinking.origin).toEqual({
      api: 'openai-responses',
      model: 'o3-mini-2025-01-31',
    });
    expect(result.text).toHaveLength(1251);
    expect(result.text.startsWith("I'm not a road safety professional")).toBe(true);
    expect(result.text.endsWith('Stay safe!')).toBe(true);
    expect(message).toEqual({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: result.text }],
      id: 'msg_68c42d26866c819da8d5c606621c911608fbf9b1584184ff',
    });
    expect(result.usage).toEqual({
      inputTokens: 13,
      cachedInputTokens: 0,
      outputTokens: 1680,
      reasoningTokens: 1408,
      totalTokens: 1693,
    });
    expect(result.finishes).toEqual([{ reason: 'stop' }]);
  });

  it('an in-stream insufficient_quota error then response.failed → rate-limit, not retryable, nothing recorded', async () => {
    const lines = chunkLines(loadRecording(DIR, FILES.inStreamQuotaError).body);
    const body = sseChunksFromChunkFile(lines, 'openai-responses').join('');
    const result = await replay({
      type: 'raw',
      status: 200,
      headers: EVENT_STREAM,
      chunks: splitIntoChunks(body, 5),
    });
    expect(result.items).toEqual([]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({
      kind: 'rate-limit',
      isRetryable: false,
      code: 'insufficient_quota',
    });
    expect(result.errors[0]?.message).toContain('You exceeded your current quota');
    expect(result.finishes).toEqual([{ reason: 'error' }]);
  });

  it('items completed before an in-stream error are not emitted', async () => {
    const recorded = loadRecording(DIR, FILES.functionCall).body;
    const cut = recorded.slice(0, recorded.indexOf('event: response.completed'));
    const error =
      'event: error\ndata: {"type":"error","sequence_number":9,"error":{"type":"server_error","code":"server_error","message":"The server had an error.","param":null}}\n\n';
    const result = await replay({
      type: 'raw',
      status: 200,
      headers: EVENT_STREAM,
      chunks: splitIntoChunks(cut + error, 4),
    });
    expect(result.toolArguments).toEqual({ call_kL0PCQV7M2WMoVX8V8OtYSAL: '{"country":"France"}' });
    expect(result.items).toEqual([]);
    expect(result.errors.map((failure) => [failure.kind, failure.isRetryable])).toEqual([['server', true]]);
  });
});

describe('recorded Responses errors', () => {
  it('400 decimal_below_min_value → bad-request', async () => {
    const result = await replay(rawStep(loadRecording(DIR, FILES.invalidTemperature), 2));
    expect(result.errors[0]).toMatchObject({
      kind: 'bad-request',
      statusCode: 400,
      isRetryable: false,
      code: 'decimal_below_min_value',
      message:
        "Invalid 'temperature': decimal below minimum value. Expected a value >= 0, but got -1 instead.",
    });
    expect(result.finishes).toEqual([{ reason: 'error' }]);
  });

  it('400 model_not_found → not-found', async () => {
    const result = await replay(rawStep(loadRecording(DIR, FILES.modelNotFound), 1));
    expect(result.errors[0]).toMatchObject({
      kind: 'not-found',
      statusCode: 400,
      code: 'model_not_found',
      isRetryable: false,
    });
  });

  it('the insufficient_quota body, sent with 429 → rate-limit, not retryable', async () => {
    const recording = loadRecording(DIR, FILES.quotaErrorBody);
    const result = await replay({ ...rawStep(recording, 1), status: 429 });
    expect(result.errors[0]).toMatchObject({
      kind: 'rate-limit',
      statusCode: 429,
      isRetryable: false,
      code: 'insufficient_quota',
    });
  });

  it('an in-stream context_length_exceeded error (from a GitHub issue) → context-overflow', async () => {
    const issues = JSON.parse(readFileSync(join(RECORDINGS_ROOT, DIR, FILES.fromIssues), 'utf8')) as {
      entries: Array<{ status: number; body_text: string }>;
    };
    expect(issues.entries).toHaveLength(1);
    const [entry] = issues.entries;
    const result = await replay({
      type: 'raw',
      status: entry?.status ?? 200,
      headers: EVENT_STREAM,
      chunks: [`event: error\ndata: ${entry?.body_text ?? ''}\n\n`],
    });
    expect(result.items).toEqual([]);
    expect(result.errors[0]).toMatchObject({ kind: 'context-overflow', code: 'context_length_exceeded' });
    expect(result.finishes).toEqual([{ reason: 'error' }]);
  });
});

describe('coverage', () => {
  it('every recording in the directory is replayed above', () => {
    expect(listRecordings(DIR)).toEqual(Object.values(FILES).sort());
  });
});
