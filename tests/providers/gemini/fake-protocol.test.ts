/**
 * The fake provider's Gemini module against the recordings: it accepts the request bodies the real API
 * accepted, rejects what the real API rejects with its error body, and renders replies in the recorded
 * framing and shape.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { geminiJson, geminiProtocol } from '../../fake-provider/gemini.js';
import type { ProtocolRequest, ReplyStep } from '../../fake-provider/types.js';
import { listRecordings, RECORDINGS_ROOT } from '../recordings.js';

const DIR = 'gemini';
type Json = Record<string, unknown>;

function request(body: Json, path = 'gemini-2.5-flash:streamGenerateContent?alt=sse'): ProtocolRequest {
  return { url: new URL(`http://127.0.0.1/v1beta/models/${path}`), body, headers: {} };
}

function readText(file: string): string {
  return readFileSync(join(RECORDINGS_ROOT, DIR, file), 'utf8');
}

const call = (name: string): Json => ({ functionCall: { name, args: {} } });
const response = (name: string): Json => ({ functionResponse: { name, response: { output: 'ok' } } });

describe('geminiProtocol routing', () => {
  it('serves both generate endpoints and reads the model from the URL', () => {
    const stream = request({}, 'gemini-3-pro-preview:streamGenerateContent?alt=sse');
    expect(geminiProtocol.matches('POST', stream.url)).toBe(true);
    expect(geminiProtocol.model(stream)).toBe('gemini-3-pro-preview');
    expect(geminiProtocol.isStream(stream)).toBe(true);
    expect(geminiProtocol.isStream(request({}, 'gemini-2.5-flash:generateContent'))).toBe(false);
    expect(geminiProtocol.matches('POST', new URL('http://127.0.0.1/v1/messages'))).toBe(false);
  });
});

describe('geminiProtocol.validate', () => {
  const metaFiles = listRecordings(DIR)
    .map((file) => `${file}.meta.json`)
    .filter((file) => existsSync(join(RECORDINGS_ROOT, DIR, file)));

  it('has recorded requests to check against', () => {
    expect(metaFiles.length).toBeGreaterThanOrEqual(7);
  });

  it.each(metaFiles)('accepts the request the real API accepted in %s', (file) => {
    const body = (JSON.parse(readText(file)) as { request: { json_body: Json } }).request.json_body;
    expect(geminiProtocol.validate(request(body))).toBeUndefined();
  });

  it('accepts a parallel-call round trip', () => {
    const contents = [
      { role: 'user', parts: [{ text: 'go' }] },
      { role: 'model', parts: [call('a'), call('b')] },
      { role: 'user', parts: [response('b'), response('a'), { text: 'and then?' }] },
    ];
    expect(geminiProtocol.validate(request({ contents }))).toBeUndefined();
  });

  const rejected: Array<[string, Json[], RegExp]> = [
    ['empty contents', [], /contents is not specified/],
    [
      'a role other than user or model',
      [{ role: 'assistant', parts: [{ text: 'hi' }] }],
      /Please use a valid role: user, model/,
    ],
    ['a content without parts', [{ role: 'user', parts: [] }], /contents\.parts must not be empty/],
    [
      'a function response not right after the model turn with its call',
      [
        { role: 'user', parts: [{ text: 'go' }] },
        { role: 'model', parts: [{ text: 'ok' }] },
        { role: 'user', parts: [response('ls')] },
      ],
      /function response turn comes immediately after a function call turn/,
    ],
    [
      'a function response named after another call',
      [
        { role: 'user', parts: [{ text: 'go' }] },
        { role: 'model', parts: [call('ls')] },
        { role: 'user', parts: [response('pwd')] },
      ],
      /Please ensure that function call turn comes immediately after a user turn or after a function response turn/,
    ],
    [
      'a function call turn not followed by its responses',
      [
        { role: 'user', parts: [{ text: 'go' }] },
        { role: 'model', parts: [call('ls'), call('pwd')] },
        { role: 'user', parts: [response('ls')] },
      ],
      /number of function response parts should be equal to number of function call parts/,
    ],
  ];

  it('rejects an unsigned tool-call step of the current turn on Gemini 3, and only there', () => {
    const earlier = [
      { role: 'user', parts: [{ text: 'go' }] },
      { role: 'model', parts: [call('ls')] },
      { role: 'user', parts: [response('ls')] },
    ];
    const current = [...earlier.slice(0, 2), { role: 'user', parts: [response('ls')] }];
    const three = 'gemini-3-pro-preview:streamGenerateContent?alt=sse';
    const verdict = geminiProtocol.validate(request({ contents: current }, three));
    expect((verdict?.body as { error: { message: string } }).error.message).toMatch(
      /Function call is missing a thought_signature in functionCall parts.*default_api:ls/,
    );
    expect(geminiProtocol.validate(request({ contents: current }))).toBeUndefined();
    const laterTurn = [
      ...earlier,
      { role: 'model', parts: [{ text: 'done' }] },
      { role: 'user', parts: [{ text: 'thanks' }] },
    ];
    expect(geminiProtocol.validate(request({ contents: laterTurn }, three))).toBeUndefined();
    const signed = [
      earlier[0],
      { role: 'model', parts: [{ ...call('ls'), thoughtSignature: 'SIG' }] },
      earlier[2],
    ] as Json[];
    expect(geminiProtocol.validate(request({ contents: signed }, three))).toBeUndefined();
  });

  it.each(rejected)('rejects %s with a real 400 body', (_name, contents, message) => {
    const verdict = geminiProtocol.validate(request({ contents }));
    expect(verdict?.status).toBe(400);
    expect(verdict?.body).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    expect((verdict?.body as { error: { message: string } }).error.message).toMatch(message);
  });
});

function render(step: ReplyStep, path?: string) {
  return geminiProtocol.renderReply(
    step,
    request({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }, path),
  );
}

describe('geminiProtocol.renderReply', () => {
  it('frames each chunk as `data: <json>\\r\\n\\r\\n` in Google’s JSON spacing, like the recordings', () => {
    const rendered = render({ type: 'reply', text: 'Say "yes": no, "maybe",  perhaps.' });
    expect(rendered.headers['content-type']).toBe('text/event-stream');
    const recorded = readText('stream-text.gemini-2.0-flash-exp.sse');
    for (const frame of [...rendered.chunks, ...recorded.split(/(?<=\r\n\r\n)/)]) {
      expect(frame).toMatch(
        /^data: \{"candidates": \[\{"content": \{"parts": \[.*\],"role": "model"\}.*\}\r\n\r\n$/s,
      );
    }
    const chunks = rendered.chunks.map((frame) => JSON.parse(frame.slice('data: '.length)) as Json);
    const text = chunks
      .map(
        (chunk) =>
          ((chunk.candidates as Json[])[0]?.content as { parts: Array<{ text: string }> }).parts[0]?.text,
      )
      .join('');
    expect(text).toBe('Say "yes": no, "maybe",  perhaps.');
  });

  it('puts usage on every chunk and the finish reason on the last, with modelVersion and responseId', () => {
    const rendered = render({
      type: 'reply',
      text: 'Hello there, this is a reply.',
      usage: { inputTokens: 9, outputTokens: 12 },
    });
    const chunks = rendered.chunks.map((frame) => JSON.parse(frame.slice('data: '.length)) as Json);
    expect(chunks.length).toBeGreaterThan(1);
    const recorded = JSON.parse(
      readText('stream-text.gemini-2.0-flash-exp.sse').split('\r\n\r\n')[2]?.slice(6) ?? '',
    ) as Json;
    for (const [index, chunk] of chunks.entries()) {
      expect(Object.keys(chunk).sort()).toEqual([
        'candidates',
        'modelVersion',
        'responseId',
        'usageMetadata',
      ]);
      expect(Object.keys(chunk).sort()).toEqual(Object.keys(recorded).sort());
      expect(chunk.modelVersion).toBe('gemini-2.5-flash');
      const candidate = (chunk.candidates as Json[])[0] as Json;
      expect('finishReason' in candidate).toBe(index === chunks.length - 1);
    }
    expect(chunks.at(-1)?.usageMetadata).toMatchObject({
      promptTokenCount: 9,
      candidatesTokenCount: 12,
      totalTokenCount: 21,
    });
  });

  it('sends thoughts as thought parts with thoughtsTokenCount, and each call whole and signed', () => {
    const rendered = render({
      type: 'reply',
      reasoning: 'Considering the question carefully before answering it.',
      toolCalls: [{ name: 'weather', arguments: { location: 'San Francisco' } }],
    });
    const parts = rendered.chunks.flatMap(
      (frame) =>
        (((JSON.parse(frame.slice(6)) as Json).candidates as Json[])[0]?.content as { parts: Json[] }).parts,
    );
    expect(
      parts
        .filter((part) => part.thought === true)
        .map((part) => part.text)
        .join(''),
    ).toBe('Considering the question carefully before answering it.');
    const calls = parts.filter((part) => part.functionCall);
    expect(calls).toEqual([
      {
        functionCall: { name: 'weather', args: { location: 'San Francisco' } },
        thoughtSignature: expect.any(String),
      },
    ]);
    const last = JSON.parse(rendered.chunks.at(-1)?.slice(6) ?? '') as Json;
    expect(last.usageMetadata).toHaveProperty('thoughtsTokenCount');
  });

  it('answers without alt=sse with one JSON array, and :generateContent with one response object', () => {
    const step: ReplyStep = { type: 'reply', text: 'Scoop is a fine name.' };
    const array = JSON.parse(
      render(step, 'gemini-2.5-flash:streamGenerateContent').chunks.join(''),
    ) as Json[];
    expect(array.length).toBeGreaterThan(1);
    const whole = JSON.parse(render(step, 'gemini-2.5-flash:generateContent').chunks.join('')) as Json;
    const recorded = JSON.parse(readText('vercel-ai.google-text.json')) as Json;
    expect(Object.keys(whole).sort()).toEqual(Object.keys(recorded).sort());
    expect(
      ((whole.candidates as Json[])[0]?.content as { parts: Json[] }).parts.map((part) => part.text).join(''),
    ).toBe('Scoop is a fine name.');
  });

  it('drops the connection after the requested number of frames', () => {
    expect(render({ type: 'reply', text: 'hello', disconnectAfterFrames: 1 }).disconnectAfter).toBe(1);
  });

  it('geminiJson spaces after colons between keys and values only', () => {
    expect(geminiJson({ a: [1, { b: 'c: "d",e' }], f: null })).toBe(
      '{"a": [1,{"b": "c: \\"d\\",e"}],"f": null}',
    );
  });
});

describe('geminiProtocol.renderError', () => {
  const issues = (
    JSON.parse(readText('errors-from-issues.json')) as {
      entries: Array<{ case: string; body_text?: string }>;
    }
  ).entries;

  it('answers a context overflow with the recorded input-token-count body', () => {
    const rendered = geminiProtocol.renderError({ type: 'error', status: 400, contextOverflow: true });
    expect(rendered.chunks.join('')).toBe(
      issues.find((entry) => entry.case === 'input token count exceeds the model limit')?.body_text,
    );
  });

  it.each([
    [401, 'UNAUTHENTICATED'],
    [403, 'PERMISSION_DENIED'],
    [404, 'NOT_FOUND'],
    [429, 'RESOURCE_EXHAUSTED'],
    [500, 'INTERNAL'],
    [503, 'UNAVAILABLE'],
  ])('answers %i with a pretty-printed %s body', (status, name) => {
    const rendered = geminiProtocol.renderError({ type: 'error', status });
    const text = rendered.chunks.join('');
    expect(text).toMatch(/^\{\n {2}"error": \{\n/);
    const body = JSON.parse(text) as { error: { code: number; status: string; details?: Json[] } };
    expect(body.error).toMatchObject({ code: status, status: name });
    if (status === 429)
      expect(body.error.details).toContainEqual({
        '@type': 'type.googleapis.com/google.rpc.RetryInfo',
        retryDelay: expect.any(String),
      });
  });
});
