/**
 * Every recorded Anthropic Messages response, served byte for byte (split at arbitrary places) by the fake
 * provider to the real client built by `createAnthropicClient`, and the canonical events it produces.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelRequest, ProviderErrorKind, TokenUsage } from '../../../src/protocol/index.js';
import { createAnthropicClient } from '../../../src/providers/anthropic-messages/client.js';
import type { RawStep } from '../../fake-provider/types.js';
import { type CollectedStream, collectEvents } from '../collect-events.js';
import { user } from '../item-builders.js';
import {
  chunkLines,
  listRecordings,
  loadRecording,
  RECORDINGS_ROOT,
  type Recording,
  rawStep,
  sseChunksFromChunkFile,
} from '../recordings.js';
import { withFakeServer } from '../fake-server.js';

const DIR = 'anthropic-messages';
const REQUEST: ModelRequest = { items: [user('hello')], tools: [] };

const server = withFakeServer();

async function replay(step: RawStep): Promise<CollectedStream> {
  server.enqueue(step);
  const client = createAnthropicClient({
    api: 'anthropic-messages',
    model: 'claude-sonnet-4-6',
    baseUrl: server.url,
    env: { ANTHROPIC_API_KEY: 'sk-ant-test-recordings-0001' },
  });
  const collected = await collectEvents(client.stream(REQUEST));
  expect(server.modelRequests('anthropic-messages')).toHaveLength(1);
  expect(collected.finishes).toHaveLength(1);
  expect(collected.events.at(-1)?.type).toBe('finish');
  return collected;
}

/** The `data:` payloads of a recording, parsed: an `.sse` body's data lines, or a chunk file's lines. */
function payloadsOf(file: string): Array<Record<string, unknown>> {
  const text = readFileSync(join(RECORDINGS_ROOT, DIR, file), 'utf8');
  const lines = file.endsWith('.sse')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice('data: '.length))
    : chunkLines(text);
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A plain reading of the recorded deltas, block by block: what the mapper must reproduce. */
function recordedBlocks(file: string): Map<number, { type: string; text: string; signature: string }> {
  const blocks = new Map<number, { type: string; text: string; signature: string }>();
  for (const payload of payloadsOf(file)) {
    const index = payload.index as number;
    if (payload.type === 'content_block_start') {
      blocks.set(index, {
        type: String((payload.content_block as { type: string }).type),
        text: '',
        signature: '',
      });
    } else if (payload.type === 'content_block_delta') {
      const block = blocks.get(index);
      const delta = payload.delta as Record<string, string>;
      if (!block) continue;
      block.text += delta.text ?? delta.thinking ?? delta.partial_json ?? '';
      block.signature += delta.signature ?? '';
    }
  }
  return blocks;
}

function textsOf(file: string, type: string): string[] {
  return [...recordedBlocks(file).values()].filter((block) => block.type === type).map((block) => block.text);
}

interface StreamCase {
  file: string;
  model: string;
  calls: Array<{ call_id: string; name: string; arguments: string }>;
  usage: TokenUsage;
  finish: { reason: string; rawReason: string };
}

const usage = (input: number, output: number): TokenUsage => ({
  inputTokens: input,
  cachedInputTokens: 0,
  outputTokens: output,
  totalTokens: input + output,
});

const STREAMS: StreamCase[] = [
  {
    file: 'stream-text.claude-haiku-4-5.sse',
    model: 'claude-haiku-4-5-20251001',
    calls: [],
    usage: usage(10, 4),
    finish: { reason: 'stop', rawReason: 'end_turn' },
  },
  {
    file: 'stream-text-after-tool-results.claude-haiku-4-5.sse',
    model: 'claude-haiku-4-5-20251001',
    calls: [],
    usage: usage(678, 82),
    finish: { reason: 'stop', rawReason: 'end_turn' },
  },
  {
    file: 'stream-thinking.claude-haiku-4-5.sse',
    model: 'claude-haiku-4-5-20251001',
    calls: [],
    usage: usage(46, 133),
    finish: { reason: 'stop', rawReason: 'end_turn' },
  },
  {
    file: 'stream-thinking-then-long-text.claude-sonnet-4.sse',
    model: 'claude-sonnet-4-20250514',
    calls: [],
    usage: usage(43, 282),
    finish: { reason: 'stop', rawReason: 'end_turn' },
  },
  {
    file: 'stream-two-tool-uses-empty-input.claude-haiku-4-5.sse',
    model: 'claude-haiku-4-5-20251001',
    calls: [
      { call_id: 'toolu_01LtHJmixrs9NcWQkK8hu8hj', name: 'pelican_name_generator', arguments: '{}' },
      { call_id: 'toolu_01N8a4jWyf116qKTMqKKmjyt', name: 'pelican_name_generator', arguments: '{}' },
    ],
    usage: usage(542, 62),
    finish: { reason: 'tool-calls', rawReason: 'tool_use' },
  },
  {
    // Text, a server tool (tool search) and its result, more text, then the client tool_use at index 4.
    file: 'stream-tool-use-args-in-pieces.claude-sonnet-4-6.sse',
    model: 'claude-sonnet-4-6',
    calls: [
      {
        call_id: 'toolu_01EFn5wTNBYA8Reni8rbmnHT',
        name: 'get_exchange_rate',
        arguments: '{"from_currency": "USD", "to_currency": "EUR"}',
      },
    ],
    usage: usage(1591, 175),
    finish: { reason: 'tool-calls', rawReason: 'tool_use' },
  },
  {
    file: 'vercel-ai.anthropic-text.chunks.txt',
    model: 'claude-sonnet-4-5-20250929',
    calls: [],
    usage: usage(12, 30),
    finish: { reason: 'stop', rawReason: 'end_turn' },
  },
  {
    file: 'vercel-ai.anthropic-thinking.1.chunks.txt',
    model: 'claude-sonnet-4-5-20250929',
    calls: [],
    usage: usage(69, 53),
    finish: { reason: 'stop', rawReason: 'end_turn' },
  },
  {
    file: 'vercel-ai.anthropic-tool-use-weather.1.chunks.txt',
    model: 'claude-haiku-4-5-20251001',
    calls: [
      {
        call_id: 'toolu_019Zvehfe1XQWweT1pm7okyt',
        name: 'weather',
        arguments: '{"location": "San Francisco"}',
      },
    ],
    usage: usage(843, 28),
    finish: { reason: 'tool-calls', rawReason: 'tool_use' },
  },
];

function recordingFor(file: string): Recording {
  if (file.endsWith('.sse')) return loadRecording(DIR, file);
  const lines = chunkLines(readFileSync(join(RECORDINGS_ROOT, DIR, file), 'utf8'));
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8' },
    body: sseChunksFromChunkFile(lines, 'anthropic-messages').join(''),
  };
}

describe('recorded Anthropic streams through createAnthropicClient', () => {
  for (const testCase of STREAMS) {
    it(testCase.file, async () => {
      const collected = await replay(rawStep(recordingFor(testCase.file)));
      expect(collected.errors).toEqual([]);
      const texts = textsOf(testCase.file, 'text');
      const thinking = [...recordedBlocks(testCase.file).values()].filter(
        (block) => block.type === 'thinking',
      );
      expect(collected.text).toBe(texts.join(''));
      expect(collected.reasoning).toBe(thinking.map((block) => block.text).join(''));
      const origin = { api: 'anthropic-messages', model: testCase.model };
      expect(collected.items).toEqual([
        ...thinking.map((block) => ({
          type: 'reasoning',
          summary: [],
          content: [{ type: 'reasoning_text', text: block.text }],
          origin,
          provider_data: { signature: block.signature },
        })),
        ...(texts.length > 0
          ? [
              {
                type: 'message',
                role: 'assistant',
                content: texts.map((text) => ({ type: 'output_text', text })),
              },
            ]
          : []),
        ...testCase.calls.map((call) => ({ type: 'function_call', ...call })),
      ]);
      for (const block of thinking) expect(block.signature).toMatch(/^E[A-Za-z0-9+/]{40,}={0,2}$/);
      for (const call of testCase.calls)
        expect(collected.toolArguments[call.call_id] ?? '{}').toBe(call.arguments);
      expect(collected.usage).toEqual(testCase.usage);
      expect(collected.finishes).toEqual([testCase.finish]);
    });
  }

  it('parses the same stream however the bytes are cut', async () => {
    const recording = recordingFor('stream-thinking.claude-haiku-4-5.sse');
    const whole = await replay(rawStep(recording, 1));
    for (const pieces of [2, 13, 97]) {
      server.reset();
      const cut = await replay(rawStep(recording, pieces));
      expect(cut.items).toEqual(whole.items);
      expect(cut.text).toBe(whole.text);
    }
  });
});

interface ErrorCase {
  name: string;
  recording: Recording;
  kind: ProviderErrorKind;
  statusCode: number | undefined;
  message: RegExp;
  retryAfterMs?: number;
}

interface IssueEntry {
  case: string;
  status: number;
  body_text?: string;
  body: unknown;
}

const issues = (
  JSON.parse(readFileSync(join(RECORDINGS_ROOT, DIR, 'errors-from-issues.json'), 'utf8')) as {
    entries: IssueEntry[];
  }
).entries;

function issue(name: string): IssueEntry {
  const entry = issues.find((candidate) => candidate.case === name);
  if (!entry) throw new Error(`no errors-from-issues entry '${name}'`);
  return entry;
}

function issueRecording(name: string, headers: Record<string, string> = {}): Recording {
  const entry = issue(name);
  return {
    status: entry.status,
    headers: { 'content-type': 'application/json', ...headers },
    body: entry.body_text ?? JSON.stringify(entry.body),
  };
}

const ERRORS: ErrorCase[] = [
  {
    name: 'error-400-invalid-request.json',
    recording: loadRecording(DIR, 'error-400-invalid-request.json'),
    kind: 'bad-request',
    statusCode: 400,
    message: /does not support effort level 'xhigh'/,
  },
  {
    name: 'error-404-not-found.json',
    recording: loadRecording(DIR, 'error-404-not-found.json'),
    kind: 'not-found',
    statusCode: 404,
    message: /^model: claude-sonet-4-5$/,
  },
  {
    name: 'issues: prompt is too long',
    recording: issueRecording('prompt is too long'),
    kind: 'context-overflow',
    statusCode: 400,
    message: /prompt is too long: 219898 tokens > 200000 maximum/,
  },
  {
    name: 'issues: input length + max_tokens exceed context limit',
    recording: issueRecording('input length + max_tokens exceed context limit'),
    kind: 'context-overflow',
    statusCode: 400,
    message: /exceed context limit/,
  },
  {
    // The issue shows the body only; the real response also carries retry-after, added here.
    name: 'issues: rate_limit_error',
    recording: issueRecording('rate_limit_error', { 'retry-after': '17' }),
    kind: 'rate-limit',
    statusCode: 429,
    message: /rate limit for your organization/,
    retryAfterMs: 17_000,
  },
  {
    name: 'issues: overloaded_error (529)',
    recording: issueRecording('overloaded_error'),
    kind: 'overloaded',
    statusCode: 529,
    message: /^Overloaded$/,
  },
];

describe('recorded Anthropic errors through createAnthropicClient', () => {
  for (const testCase of ERRORS) {
    it(testCase.name, async () => {
      const collected = await replay(rawStep(testCase.recording, 2));
      expect(collected.items).toEqual([]);
      expect(collected.errors).toHaveLength(1);
      const [error] = collected.errors;
      expect(error?.kind).toBe(testCase.kind);
      expect(error?.statusCode).toBe(testCase.statusCode);
      expect(error?.message).toMatch(testCase.message);
      expect(error?.retryAfterMs).toBe(testCase.retryAfterMs);
      expect(collected.finishes).toEqual([{ reason: 'error' }]);
    });
  }

  it('issues: a mid-stream error event after text was shown (overloaded, no message_stop)', async () => {
    const recorded = loadRecording(DIR, 'stream-text.claude-haiku-4-5.sse');
    const frames = recorded.body.split('\n\n');
    const upToFirstDelta = frames.slice(
      0,
      frames.findIndex((frame) => frame.includes('content_block_delta')) + 1,
    );
    const body = `${upToFirstDelta.join('\n\n')}\n\nevent: error\ndata: ${issue('mid-stream error event (HTTP 200 already sent)').body_text ?? ''}\n\n`;
    const collected = await replay(rawStep({ ...recorded, body }, 5));
    expect(collected.text).toBe('Hello');
    expect(collected.items).toEqual([]);
    expect(
      collected.errors.map((error) => [error.kind, error.isRetryable, error.statusCode, error.message]),
    ).toEqual([['overloaded', true, undefined, 'Overloaded']]);
    expect(collected.finishes).toEqual([{ reason: 'error' }]);
  });
});

describe('the recordings directory', () => {
  it('has every file replayed above, or checked against the fake server in fake-protocol.test.ts', () => {
    const covered = new Set([
      ...STREAMS.map((testCase) => testCase.file),
      ...ERRORS.map((testCase) => testCase.name).filter((name) => !name.startsWith('issues:')),
      'errors-from-issues.json',
      // Non-streaming Message bodies: the shape the fake server's non-streaming reply must have.
      'vercel-ai.anthropic-text.json',
      'vercel-ai.anthropic-thinking.1.json',
    ]);
    expect(listRecordings(DIR).filter((file) => !covered.has(file))).toEqual([]);
  });
});
