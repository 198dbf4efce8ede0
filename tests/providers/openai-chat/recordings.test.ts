/**
 * Every recorded Chat Completions response, served byte for byte (split at arbitrary places) by the fake
 * provider to the real client built by `createOpenAIChatClient`, and the canonical events it produces.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelRequest } from '../../../src/protocol/index.js';
import { createOpenAIChatClient } from '../../../src/providers/openai-chat/client.js';
import { mapOpenAIChatUsage } from '../../../src/providers/openai-chat/map-openai-chat-usage.js';
import type { RawStep } from '../../fake-provider/types.js';
import { type CollectedStream, collectEvents } from '../collect-events.js';
import { user } from '../item-builders.js';
import {
  chunkLines,
  listRecordings,
  loadRecording,
  RECORDINGS_ROOT,
  rawStep,
  splitIntoChunks,
  sseChunksFromChunkFile,
} from '../recordings.js';
import { withFakeServer } from '../fake-server.js';

const DIR = 'openai-chat';
const REQUEST: ModelRequest = { items: [user('hello')], tools: [] };

const server = withFakeServer();

async function replay(step: RawStep): Promise<CollectedStream> {
  server.enqueue(step);
  const client = createOpenAIChatClient({
    api: 'openai-chat',
    model: 'gpt-4o',
    baseUrl: `${server.url}/v1`,
    env: { OPENAI_API_KEY: 'sk-test-recordings-0001' },
  });
  const collected = await collectEvents(client.stream(REQUEST));
  expect(server.modelRequests('openai-chat')).toHaveLength(1);
  expect(collected.finishes).toHaveLength(1);
  expect(collected.events.at(-1)?.type).toBe('finish');
  return collected;
}

async function replayChunkFile(file: string): Promise<CollectedStream> {
  const lines = chunkLines(loadRecording(DIR, file).body);
  const body = sseChunksFromChunkFile(lines, 'openai-chat').join('');
  return replay({
    type: 'raw',
    status: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8' },
    chunks: splitIntoChunks(body, 11),
  });
}

/** Every file of the directory, each replayed below. */
const FILES = {
  toolCall: 'stream-tool-call.gpt-4o-mini.sse',
  textAfterToolResult: 'stream-text-after-tool-result.gpt-4o-mini.sse',
  parallelToolCalls: 'stream-parallel-tool-calls.gpt-4o.sse',
  longText: 'vercel-ai.openai-text.chunks.txt',
  azure: 'vercel-ai.azure-model-router.1.chunks.txt',
  nonStreaming: 'vercel-ai.openai-text.json',
  unsupportedValue: 'error-400-unsupported-value.json',
  modelNotFound: 'error-404-model-not-found.json',
  fromIssues: 'errors-from-issues.json',
} as const;

describe('recorded Chat Completions streams', () => {
  it('one tool call with its arguments in pieces (gpt-4o-mini)', async () => {
    const result = await replay(rawStep(loadRecording(DIR, FILES.toolCall)));
    expect(result.errors).toEqual([]);
    expect(result.text).toBe('');
    expect(result.toolArguments).toEqual({ call_ZR5UUuTt3pf61kjwAJIYdVMj: '{"country":"UK"}' });
    expect(result.items).toEqual([
      {
        type: 'function_call',
        name: 'get_capital',
        arguments: '{"country":"UK"}',
        call_id: 'call_ZR5UUuTt3pf61kjwAJIYdVMj',
      },
    ]);
    expect(result.usage).toEqual({
      inputTokens: 53,
      cachedInputTokens: 0,
      outputTokens: 15,
      reasoningTokens: 0,
      totalTokens: 68,
    });
    expect(result.finishes).toEqual([{ reason: 'tool-calls', rawReason: 'tool_calls' }]);
  });

  it('text after a tool result (gpt-4o-mini)', async () => {
    const result = await replay(rawStep(loadRecording(DIR, FILES.textAfterToolResult)));
    expect(result.text).toBe('The capital of the UK is London.');
    expect(result.items).toEqual([
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'The capital of the UK is London.' }],
      },
    ]);
    expect(result.usage).toMatchObject({ inputTokens: 78, outputTokens: 9, totalTokens: 87 });
    expect(result.finishes).toEqual([{ reason: 'stop', rawReason: 'stop' }]);
  });

  it('two parallel tool calls told apart by index (gpt-4o)', async () => {
    const result = await replay(rawStep(loadRecording(DIR, FILES.parallelToolCalls), 3));
    expect(result.items).toEqual([
      {
        type: 'function_call',
        name: 'get_country',
        arguments: '{}',
        call_id: 'call_q2UyBRP7eXNTzAoR8lEhjc9Z',
      },
      {
        type: 'function_call',
        name: 'get_product_name',
        arguments: '{}',
        call_id: 'call_b51ijcpFkDiTQG1bQzsrmtW5',
      },
    ]);
    expect(result.usage).toMatchObject({ inputTokens: 364, outputTokens: 40, totalTokens: 404 });
    expect(result.finishes).toEqual([{ reason: 'tool-calls', rawReason: 'tool_calls' }]);
  });

  it('a long text stream with obfuscation fields (gpt-4.1-nano, chunk file)', async () => {
    const result = await replayChunkFile(FILES.longText);
    expect(result.errors).toEqual([]);
    expect(result.text).toHaveLength(1724);
    expect(result.text.startsWith('**Holiday Name:** Harmony Day\n\n**Date:**')).toBe(true);
    expect(result.text.endsWith('shared human experiences and mutual respect.')).toBe(true);
    expect(result.events.filter((event) => event.type === 'text-delta').length).toBeGreaterThan(250);
    expect(result.items).toEqual([
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: result.text }] },
    ]);
    expect(result.usage).toEqual({
      inputTokens: 16,
      cachedInputTokens: 0,
      outputTokens: 300,
      reasoningTokens: 0,
      totalTokens: 316,
    });
    expect(result.finishes).toEqual([{ reason: 'stop', rawReason: 'stop' }]);
  });

  it('Azure: a first chunk with empty id/model and prompt_filter_results, reasoning tokens in usage', async () => {
    const result = await replayChunkFile(FILES.azure);
    expect(result.errors).toEqual([]);
    expect(result.text).toBe('Capital of Denmark.');
    expect(result.items).toHaveLength(1);
    expect(result.usage).toEqual({
      inputTokens: 15,
      cachedInputTokens: 0,
      outputTokens: 78,
      reasoningTokens: 64,
      totalTokens: 93,
    });
    expect(result.finishes).toEqual([{ reason: 'stop', rawReason: 'stop' }]);
  });

  it('a non-streaming chat.completion: its usage maps, and a server answering JSON to a stream request is an error', async () => {
    const recording = loadRecording(DIR, FILES.nonStreaming);
    const completion = JSON.parse(recording.body) as { usage: Record<string, unknown> };
    expect(mapOpenAIChatUsage(completion.usage)).toEqual({
      inputTokens: 16,
      cachedInputTokens: 0,
      outputTokens: 363,
      reasoningTokens: 0,
      totalTokens: 379,
    });
    const result = await replay(rawStep(recording, 2));
    expect(result.items).toEqual([]);
    expect(result.errors.map((error) => error.kind)).toEqual(['network']);
    expect(result.finishes).toEqual([{ reason: 'error' }]);
  });
});

describe('recorded Chat Completions errors', () => {
  it('400 unsupported_value (system role on o1-mini) → bad-request with the API message', async () => {
    const result = await replay(rawStep(loadRecording(DIR, FILES.unsupportedValue), 2));
    expect(result.items).toEqual([]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({
      kind: 'bad-request',
      statusCode: 400,
      isRetryable: false,
      code: 'unsupported_value',
      message: "Unsupported value: 'messages[0].role' does not support 'system' with this model.",
    });
    expect(result.finishes).toEqual([{ reason: 'error' }]);
  });

  it('404 model_not_found → not-found', async () => {
    const result = await replay(rawStep(loadRecording(DIR, FILES.modelNotFound), 1));
    expect(result.errors[0]).toMatchObject({
      kind: 'not-found',
      statusCode: 404,
      isRetryable: false,
      code: 'model_not_found',
    });
    expect(result.errors[0]?.message).toContain('gpt-5.2-proo');
  });

  interface IssueEntry {
    case: string;
    status: number;
    body_text?: string;
    body: { error: { code: string } };
  }
  const issues = JSON.parse(readFileSync(join(RECORDINGS_ROOT, DIR, FILES.fromIssues), 'utf8')) as {
    entries: IssueEntry[];
  };

  it.each(issues.entries.map((entry) => [entry.case, entry] as const))('%s', async (_name, entry) => {
    const result = await replay({
      type: 'raw',
      status: entry.status,
      headers: { 'content-type': 'application/json' },
      chunks: [entry.body_text ?? JSON.stringify(entry.body, null, 2)],
    });
    expect(result.items).toEqual([]);
    expect(result.errors).toHaveLength(1);
    const expected =
      entry.body.error.code === 'context_length_exceeded'
        ? { kind: 'context-overflow', statusCode: 400, isRetryable: false }
        : { kind: 'rate-limit', statusCode: 429, isRetryable: true };
    expect(result.errors[0]).toMatchObject({ ...expected, code: entry.body.error.code });
  });
});

describe('coverage', () => {
  it('every recording in the directory is replayed above', () => {
    expect(listRecordings(DIR)).toEqual(Object.values(FILES).sort());
  });
});
