/** Gemini failures → `ProviderError`: the classification table and the SDK's `ApiError`. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '@google/genai';
import {
  classifyGeminiError,
  type GeminiErrorFacts,
  mapGeminiError,
} from '../../../src/providers/gemini/map-gemini-error.js';

/** An `ApiError` as @google/genai builds it from an HTTP error: the JSON body as its message. */
function apiError(status: number, error: Record<string, unknown>): ApiError {
  return new ApiError({ message: JSON.stringify({ error }), status });
}

describe('classifyGeminiError', () => {
  it.each<[string, GeminiErrorFacts, string]>([
    [
      '400 input token count',
      {
        status: 400,
        grpcStatus: 'INVALID_ARGUMENT',
        message: 'The input token count (3475108) exceeds the maximum number of tokens allowed (1048576).',
      },
      'context-overflow',
    ],
    [
      '400 API key not valid',
      {
        status: 400,
        grpcStatus: 'INVALID_ARGUMENT',
        message: 'API key not valid. Please pass a valid API key.',
      },
      'auth',
    ],
    ['401', { status: 401, grpcStatus: 'UNAUTHENTICATED', message: 'no' }, 'auth'],
    ['403', { status: 403, grpcStatus: 'PERMISSION_DENIED', message: 'no' }, 'auth'],
    ['404', { status: 404, grpcStatus: 'NOT_FOUND', message: 'models/x is not found' }, 'not-found'],
    ['429', { status: 429, grpcStatus: 'RESOURCE_EXHAUSTED', message: 'quota' }, 'rate-limit'],
    ['503', { status: 503, grpcStatus: 'UNAVAILABLE', message: 'The model is overloaded.' }, 'overloaded'],
    ['500', { status: 500, grpcStatus: 'INTERNAL', message: 'An internal error has occurred.' }, 'server'],
    ['504', { status: 504, grpcStatus: 'DEADLINE_EXCEEDED', message: 'Deadline exceeded' }, 'network'],
    [
      'other 400',
      { status: 400, grpcStatus: 'INVALID_ARGUMENT', message: 'Request contains an invalid argument.' },
      'bad-request',
    ],
  ])('%s', (_name, facts, kind) => {
    expect(classifyGeminiError(facts)).toBe(kind);
  });
});

describe('mapGeminiError', () => {
  it('reads status, message and RetryInfo retryDelay from an ApiError', () => {
    const error = apiError(429, {
      code: 429,
      message: 'You exceeded your current quota.',
      status: 'RESOURCE_EXHAUSTED',
      details: [
        { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [] },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '34.4s' },
      ],
    });
    expect(mapGeminiError(error)).toMatchObject({
      api: 'gemini',
      kind: 'rate-limit',
      statusCode: 429,
      isRetryable: true,
      retryAfterMs: 34_400,
      code: 'RESOURCE_EXHAUSTED',
      message: 'You exceeded your current quota.',
    });
  });

  it('falls back to a retry-after header when one is at hand and the body has no RetryInfo', () => {
    const error = apiError(429, { code: 429, message: 'slow down', status: 'RESOURCE_EXHAUSTED' });
    expect(mapGeminiError(error).retryAfterMs).toBeUndefined();
    expect(mapGeminiError(error, { headers: new Headers({ 'retry-after': '7' }) }).retryAfterMs).toBe(7_000);
  });

  it('reads an error that arrived inside the stream (`got status: …` prefix)', () => {
    const body = { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } };
    const error = new ApiError({ message: `got status: UNAVAILABLE. ${JSON.stringify(body)}`, status: 503 });
    expect(mapGeminiError(error)).toMatchObject({ kind: 'overloaded', message: 'The model is overloaded.' });
  });

  it('keeps a non-JSON body short and without the key', () => {
    const key = 'AIzaSy-SECRET-123456';
    const error = new ApiError({ message: `<html>${'x'.repeat(2000)} ${key}</html>`, status: 502 });
    const mapped = mapGeminiError(error, { secret: key });
    expect(mapped.kind).toBe('server');
    expect(mapped.message).not.toContain(key);
    expect(mapped.message.length).toBeLessThanOrEqual(501);
  });

  it.each<[string, unknown, string]>([
    [
      'an AbortError',
      Object.assign(new Error('This operation was aborted'), { name: 'AbortError' }),
      'aborted',
    ],
    ['a refused connection', new TypeError('fetch failed'), 'network'],
    ['a body cut mid-frame', new Error('Incomplete JSON segment at the end'), 'network'],
    [
      'an unparsable chunk',
      new Error('exception parsing stream chunk {"cand. SyntaxError'),
      'invalid-stream',
    ],
  ])('maps %s', (_name, error, kind) => {
    expect(mapGeminiError(error).kind).toBe(kind);
  });
});
