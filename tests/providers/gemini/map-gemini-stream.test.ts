/**
 * The Gemini stream mapper fed response objects directly: the non-SSE recordings (the JSON-array framing
 * and the non-streaming bodies) and the cases no recording shows.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GenerateContentResponse } from '@google/genai';
import { mapGeminiStream } from '../../../src/providers/gemini/map-gemini-stream.js';
import { mapGeminiFinishReason, mapGeminiUsage } from '../../../src/providers/gemini/map-gemini-usage.js';
import { collectEvents, fromArray } from '../collect-events.js';
import { RECORDINGS_ROOT } from '../recordings.js';

type Chunk = Record<string, unknown>;

function run(chunks: Chunk[], options: { failWith?: unknown; signal?: AbortSignal } = {}) {
  return collectEvents(
    mapGeminiStream(fromArray(chunks as unknown as GenerateContentResponse[], options.failWith), {
      model: 'gemini-2.5-flash',
      ...(options.signal ? { signal: options.signal } : {}),
    }),
  );
}

function recorded(file: string): Chunk[] {
  const value = JSON.parse(readFileSync(join(RECORDINGS_ROOT, 'gemini', file), 'utf8')) as Chunk | Chunk[];
  return Array.isArray(value) ? value : [value];
}

const chunk = (parts: Chunk[], extra: Chunk = {}): Chunk => ({
  candidates: [{ content: { parts, role: 'model' }, index: 0, ...extra }],
  modelVersion: 'gemini-2.5-flash',
});

const CALL_ID = /^call_[0-9a-f]{24}$/;

describe('mapGeminiStream on recorded response objects', () => {
  it('stream-json-array-no-alt-sse.thought.json: thought, text, then a signed empty text part', async () => {
    const chunks = recorded('stream-json-array-no-alt-sse.thought.json');
    const collected = await run(chunks);
    const thought = ((chunks[0]?.candidates as Chunk[])[0]?.content as { parts: Array<{ text: string }> })
      .parts[0]?.text;
    const signature = (
      (chunks[2]?.candidates as Chunk[])[0]?.content as { parts: Array<{ thoughtSignature: string }> }
    ).parts[0]?.thoughtSignature;
    const origin = { api: 'gemini', model: 'gemini-3.6-flash' };
    expect(collected.reasoning).toBe(thought);
    expect(collected.text).toBe('Scoop');
    expect(collected.items).toEqual([
      { type: 'reasoning', summary: [{ type: 'summary_text', text: thought }], origin },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Scoop' }],
        origin,
        provider_data: { thoughtSignature: signature },
      },
    ]);
    expect(collected.usage).toEqual({
      inputTokens: 11,
      outputTokens: 293,
      reasoningTokens: 291,
      totalTokens: 304,
    });
    expect(collected.finishes).toEqual([{ reason: 'stop', rawReason: 'STOP' }]);
  });

  it('vercel-ai.google-text.json (non-streaming): the text part carries the signature', async () => {
    const [body] = recorded('vercel-ai.google-text.json');
    const collected = await run([body ?? {}]);
    expect(collected.items).toEqual([
      {
        type: 'message',
        role: 'assistant',
        content: [
          {
            type: 'output_text',
            text: "There are **3** r's in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.",
          },
        ],
        origin: { api: 'gemini', model: 'gemini-3-pro-preview' },
        provider_data: { thoughtSignature: expect.stringMatching(/^EtoFCtcFAb4\+/) },
      },
    ]);
    expect(collected.usage).toEqual({
      inputTokens: 9,
      outputTokens: 272,
      reasoningTokens: 244,
      totalTokens: 281,
    });
  });

  it('vercel-ai.google-tool-call.json (non-streaming): a signed call with a generated id', async () => {
    const [body] = recorded('vercel-ai.google-tool-call.json');
    const collected = await run([body ?? {}]);
    expect(collected.items).toEqual([
      {
        type: 'function_call',
        name: 'weather',
        arguments: '{"location":"San Francisco"}',
        call_id: expect.stringMatching(CALL_ID),
        origin: { api: 'gemini', model: 'gemini-3-pro-preview' },
        provider_data: { thoughtSignature: expect.stringMatching(/^E/) },
      },
    ]);
    expect(collected.finishes).toEqual([{ reason: 'tool-calls', rawReason: 'STOP' }]);
  });
});

describe('mapGeminiStream', () => {
  it('keeps the id Gemini gave a call, and generates distinct ids when it gave none', async () => {
    const collected = await run([
      chunk([{ functionCall: { id: 'fc_given', name: 'a', args: { x: 1 } } }]),
      chunk([{ functionCall: { name: 'b', args: {} } }, { functionCall: { name: 'b' } }], {
        finishReason: 'STOP',
      }),
    ]);
    const ids = collected.items.map((item) => (item.type === 'function_call' ? item.call_id : ''));
    expect(ids[0]).toBe('fc_given');
    expect(ids[1]).toMatch(CALL_ID);
    expect(ids[2]).toMatch(CALL_ID);
    expect(ids[1]).not.toBe(ids[2]);
    expect(collected.toolArguments).toEqual({
      fc_given: '{"x":1}',
      [ids[1] ?? '']: '{}',
      [ids[2] ?? '']: '{}',
    });
    // Calls carry no origin when there is no signature to tie to one.
    expect(collected.items[0]).toEqual({
      type: 'function_call',
      name: 'a',
      arguments: '{"x":1}',
      call_id: 'fc_given',
    });
  });

  it('puts a signature sent on a thought part on the reasoning item', async () => {
    const collected = await run([
      chunk([{ text: 'Thinking…', thought: true, thoughtSignature: 'T_SIG' }]),
      chunk([{ text: 'Answer.' }], { finishReason: 'STOP' }),
    ]);
    expect(collected.items[0]).toEqual({
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'Thinking…' }],
      origin: { api: 'gemini', model: 'gemini-2.5-flash' },
      provider_data: { thoughtSignature: 'T_SIG' },
    });
  });

  it.each([
    ['MAX_TOKENS', 'length'],
    ['SAFETY', 'content-filter'],
    ['RECITATION', 'content-filter'],
    ['PROHIBITED_CONTENT', 'content-filter'],
    ['MALFORMED_FUNCTION_CALL', 'other'],
  ])('finishes %s as %s', async (reason, expected) => {
    const collected = await run([chunk([{ text: 'x' }], { finishReason: reason })]);
    expect(collected.finishes).toEqual([{ reason: expected, rawReason: reason }]);
  });

  it('finishes a blocked prompt (no candidate) as content-filter', async () => {
    const collected = await run([
      {
        promptFeedback: { blockReason: 'PROHIBITED_CONTENT' },
        usageMetadata: { promptTokenCount: 8, totalTokenCount: 8 },
      },
    ]);
    expect(collected.items).toEqual([]);
    expect(collected.errors).toEqual([]);
    expect(collected.usage).toEqual({ inputTokens: 8, totalTokens: 8 });
    expect(collected.finishes).toEqual([{ reason: 'content-filter', rawReason: 'PROHIBITED_CONTENT' }]);
  });

  it('treats a stream without a finish reason as cut off: network error, nothing recorded', async () => {
    const collected = await run([chunk([{ text: 'Half an ans' }])]);
    expect(collected.text).toBe('Half an ans');
    expect(collected.items).toEqual([]);
    expect(collected.errors.map((error) => error.kind)).toEqual(['network']);
    expect(collected.finishes).toEqual([{ reason: 'error' }]);
  });

  it('maps an error thrown while reading and ends with one finish', async () => {
    const collected = await run([chunk([{ text: 'Hi' }])], { failWith: new TypeError('terminated') });
    expect(collected.errors.map((error) => error.kind)).toEqual(['network']);
    expect(collected.finishes).toEqual([{ reason: 'error' }]);
  });

  it('reports a cancelled request as aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const collected = await run([chunk([{ text: 'Hi' }], { finishReason: 'STOP' })], {
      signal: controller.signal,
    });
    expect(collected.errors.map((error) => error.kind)).toEqual(['aborted']);
    expect(collected.finishes).toEqual([{ reason: 'aborted' }]);
  });
});

describe('mapGeminiUsage and mapGeminiFinishReason', () => {
  it('adds thoughts to output, reports them as reasoning, and leaves unknown counts undefined', () => {
    expect(
      mapGeminiUsage({
        promptTokenCount: 100,
        cachedContentTokenCount: 60,
        candidatesTokenCount: 10,
        thoughtsTokenCount: 5,
        totalTokenCount: 115,
      }),
    ).toEqual({
      inputTokens: 100,
      cachedInputTokens: 60,
      outputTokens: 15,
      reasoningTokens: 5,
      totalTokens: 115,
    });
    expect(mapGeminiUsage({ promptTokenCount: 15, totalTokenCount: 15 })).toEqual({
      inputTokens: 15,
      totalTokens: 15,
    });
  });

  it('calls STOP after function calls tool-calls', () => {
    expect(mapGeminiFinishReason('STOP', true)).toBe('tool-calls');
    expect(mapGeminiFinishReason('STOP', false)).toBe('stop');
  });
});
