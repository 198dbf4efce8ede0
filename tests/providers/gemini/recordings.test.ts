/**
 * Every recorded Gemini response, served byte for byte (split at arbitrary places) by the fake provider
 * to the real client built by `createGeminiClient`, and the canonical events it produces. The two
 * non-SSE shapes (the JSON-array stream and the non-streaming bodies) are fed to the mapper directly in
 * map-gemini-stream.test.ts: the client always asks for `alt=sse`.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelRequest, ProviderErrorKind, TokenUsage } from '../../../src/protocol/index.js';
import { createGeminiClient } from '../../../src/providers/gemini/client.js';
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

const DIR = 'gemini';
const REQUEST: ModelRequest = { items: [user('hello')], tools: [] };
const CALL_ID = /^call_[0-9a-f]{24}$/;

const server = withFakeServer();

async function replay(step: RawStep, model = 'gemini-2.5-flash'): Promise<CollectedStream> {
  server.enqueue(step);
  const client = createGeminiClient({
    api: 'gemini',
    model,
    baseUrl: server.url,
    env: { GEMINI_API_KEY: 'gemini-test-recordings-0001' },
  });
  const collected = await collectEvents(client.stream(REQUEST));
  const requests = server.modelRequests('gemini');
  expect(requests).toHaveLength(1);
  expect(requests[0]?.url).toBe(`/v1beta/models/${model}:streamGenerateContent?alt=sse`);
  expect(collected.finishes).toHaveLength(1);
  expect(collected.events.at(-1)?.type).toBe('finish');
  return collected;
}

type Part = {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { name: string; args: unknown };
};

/** The parts of every chunk of a recording, in order: what the mapper must reproduce. */
function recordedParts(file: string): Part[] {
  const text = readFileSync(join(RECORDINGS_ROOT, DIR, file), 'utf8');
  const payloads = file.endsWith('.sse')
    ? text
        .split('\r\n\r\n')
        .filter((frame) => frame.startsWith('data: '))
        .map((frame) => frame.slice('data: '.length))
    : chunkLines(text);
  return payloads.flatMap(
    (payload) =>
      (JSON.parse(payload) as { candidates?: Array<{ content?: { parts?: Part[] } }> }).candidates?.[0]
        ?.content?.parts ?? [],
  );
}

interface StreamCase {
  file: string;
  model: string;
  calls: Array<{ name: string; arguments: string; signed: boolean }>;
  usage: TokenUsage;
  finish: { reason: string; rawReason: string };
}

const STREAMS: StreamCase[] = [
  {
    file: 'stream-text.gemini-2.0-flash-exp.sse',
    model: 'gemini-2.0-flash-exp',
    calls: [],
    usage: { inputTokens: 13, outputTokens: 8, totalTokens: 21 },
    finish: { reason: 'stop', rawReason: 'STOP' },
  },
  {
    file: 'stream-text-usage-every-chunk.gemini-2.5-flash.sse',
    model: 'gemini-2.5-flash',
    calls: [],
    usage: { inputTokens: 18, outputTokens: 115, reasoningTokens: 35, totalTokens: 133 },
    finish: { reason: 'stop', rawReason: 'STOP' },
  },
  {
    file: 'stream-thought-summaries-then-text.gemini-2.5-pro.sse',
    model: 'gemini-2.5-pro',
    calls: [],
    usage: { inputTokens: 34, outputTokens: 1256, reasoningTokens: 787, totalTokens: 1290 },
    finish: { reason: 'stop', rawReason: 'STOP' },
  },
  {
    file: 'stream-function-call.gemini-2.0-flash.sse',
    model: 'gemini-2.0-flash',
    calls: [{ name: 'get_capital', arguments: '{"country":"France"}', signed: false }],
    usage: { inputTokens: 52, outputTokens: 5, totalTokens: 57 },
    finish: { reason: 'tool-calls', rawReason: 'STOP' },
  },
  {
    file: 'stream-function-call-thought-signature.gemini-3-pro-preview.sse',
    model: 'gemini-3-pro-preview',
    calls: [{ name: 'get_country', arguments: '{}', signed: true }],
    usage: { inputTokens: 29, outputTokens: 212, reasoningTokens: 202, totalTokens: 241 },
    finish: { reason: 'tool-calls', rawReason: 'STOP' },
  },
  {
    file: 'vercel-ai.google-text.chunks.txt',
    model: 'gemini-3-pro-preview',
    calls: [],
    usage: { inputTokens: 9, outputTokens: 208, reasoningTokens: 185, totalTokens: 217 },
    finish: { reason: 'stop', rawReason: 'STOP' },
  },
  {
    file: 'vercel-ai.google-tool-call.chunks.txt',
    model: 'gemini-3-pro-preview',
    calls: [{ name: 'weather', arguments: '{"location":"San Francisco"}', signed: true }],
    usage: { inputTokens: 29, outputTokens: 60, reasoningTokens: 45, totalTokens: 89 },
    finish: { reason: 'tool-calls', rawReason: 'STOP' },
  },
];

function recordingFor(file: string): Recording {
  if (file.endsWith('.sse')) return loadRecording(DIR, file);
  const lines = chunkLines(readFileSync(join(RECORDINGS_ROOT, DIR, file), 'utf8'));
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    body: sseChunksFromChunkFile(lines, 'gemini').join(''),
  };
}

describe('recorded Gemini streams through createGeminiClient', () => {
  for (const testCase of STREAMS) {
    it(testCase.file, async () => {
      const collected = await replay(rawStep(recordingFor(testCase.file)), testCase.model);
      expect(collected.errors).toEqual([]);
      const parts = recordedParts(testCase.file);
      const answer = parts.filter((part) => !part.thought && !part.functionCall);
      const thoughts = parts.filter((part) => part.thought);
      const text = answer.map((part) => part.text ?? '').join('');
      const textSignature = answer.find((part) => part.thoughtSignature)?.thoughtSignature;
      const thought = thoughts.map((part) => part.text ?? '').join('');
      const signatures = parts.filter((part) => part.functionCall).map((part) => part.thoughtSignature);
      const origin = { api: 'gemini', model: testCase.model };
      expect(collected.text).toBe(text);
      expect(collected.reasoning).toBe(thought);
      expect(collected.items).toEqual([
        ...(thought !== ''
          ? [{ type: 'reasoning', summary: [{ type: 'summary_text', text: thought }], origin }]
          : []),
        ...(text !== ''
          ? [
              {
                type: 'message',
                role: 'assistant',
                content: [{ type: 'output_text', text }],
                ...(textSignature ? { origin, provider_data: { thoughtSignature: textSignature } } : {}),
              },
            ]
          : []),
        ...testCase.calls.map((call, index) => ({
          type: 'function_call',
          name: call.name,
          arguments: call.arguments,
          call_id: expect.stringMatching(CALL_ID),
          ...(call.signed ? { origin, provider_data: { thoughtSignature: signatures[index] } } : {}),
        })),
      ]);
      expect(signatures.map(Boolean)).toEqual(testCase.calls.map((call) => call.signed));
      for (const item of collected.items) {
        if (item.type === 'function_call') expect(collected.toolArguments[item.call_id]).toBe(item.arguments);
      }
      expect(collected.usage).toEqual(testCase.usage);
      expect(collected.finishes).toEqual([testCase.finish]);
    });
  }

  it('the Gemini 2.5 signature rides on the first answer part, Gemini 3’s on a trailing empty part', () => {
    const pro = recordedParts('stream-thought-summaries-then-text.gemini-2.5-pro.sse').filter(
      (part) => !part.thought,
    );
    expect(pro[0]?.thoughtSignature).toBeDefined();
    const three = recordedParts('vercel-ai.google-text.chunks.txt');
    expect(three.at(-1)).toMatchObject({ text: '', thoughtSignature: expect.any(String) });
  });

  it('parses the same stream however the bytes are cut', async () => {
    const recording = recordingFor('stream-thought-summaries-then-text.gemini-2.5-pro.sse');
    const whole = await replay(rawStep(recording, 1), 'gemini-2.5-pro');
    for (const pieces of [2, 13, 97]) {
      server.reset();
      const cut = await replay(rawStep(recording, pieces), 'gemini-2.5-pro');
      expect(cut.items).toEqual(whole.items);
      expect(cut.text).toBe(whole.text);
    }
  });
});

interface ErrorCase {
  name: string;
  recording: Recording;
  kind: ProviderErrorKind;
  statusCode: number;
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

function issueRecording(name: string): Recording {
  const entry = issues.find((candidate) => candidate.case === name);
  if (!entry) throw new Error(`no errors-from-issues entry '${name}'`);
  return {
    status: entry.status,
    headers: { 'content-type': 'application/json; charset=UTF-8' },
    body: entry.body_text ?? JSON.stringify(entry.body),
  };
}

const ERRORS: ErrorCase[] = [
  {
    name: 'error-404-model-not-found.json',
    recording: loadRecording(DIR, 'error-404-model-not-found.json'),
    kind: 'not-found',
    statusCode: 404,
    message: /^models\/gemini-3\.6-flahs is not found for API version v1beta/,
  },
  {
    name: 'issues: input token count exceeds the model limit',
    recording: issueRecording('input token count exceeds the model limit'),
    kind: 'context-overflow',
    statusCode: 400,
    message: /The input token count \(3475108\) exceeds the maximum number of tokens allowed/,
  },
  {
    name: 'issues: model overloaded (503)',
    recording: issueRecording('model overloaded'),
    kind: 'overloaded',
    statusCode: 503,
    message: /experiencing high demand/,
  },
  {
    name: 'issues: quota exceeded with RetryInfo (429)',
    recording: issueRecording('quota exceeded with RetryInfo'),
    kind: 'rate-limit',
    statusCode: 429,
    message: /You exceeded your current quota/,
    retryAfterMs: 26_000,
  },
];

describe('recorded Gemini errors through createGeminiClient', () => {
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
});

describe('the recordings directory', () => {
  it('has every file replayed above or fed to the mapper in map-gemini-stream.test.ts', () => {
    const covered = new Set([
      ...STREAMS.map((testCase) => testCase.file),
      'error-404-model-not-found.json',
      'errors-from-issues.json',
      'stream-json-array-no-alt-sse.thought.json',
      'vercel-ai.google-text.json',
      'vercel-ai.google-tool-call.json',
    ]);
    expect(listRecordings(DIR).filter((file) => !covered.has(file))).toEqual([]);
  });
});
