/** Anthropic failures → `ProviderError`: the classification table and the SDK's error classes. */
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import {
  type AnthropicErrorFacts,
  classifyAnthropicError,
  mapAnthropicError,
} from '../../../src/providers/anthropic-messages/map-anthropic-error.js';

describe('classifyAnthropicError', () => {
  it.each<[string, AnthropicErrorFacts, string]>([
    ['401', { status: 401, type: 'authentication_error', message: 'invalid x-api-key' }, 'auth'],
    ['403', { status: 403, type: 'permission_error', message: 'no' }, 'auth'],
    ['429', { status: 429, type: 'rate_limit_error', message: 'slow down' }, 'rate-limit'],
    ['529', { status: 529, type: 'overloaded_error', message: 'Overloaded' }, 'overloaded'],
    ['overloaded in a stream', { type: 'overloaded_error', message: 'Overloaded' }, 'overloaded'],
    [
      '400 prompt is too long',
      {
        status: 400,
        type: 'invalid_request_error',
        message: 'prompt is too long: 219898 tokens > 200000 maximum',
      },
      'context-overflow',
    ],
    [
      '400 input + max_tokens over the window',
      {
        status: 400,
        type: 'invalid_request_error',
        message:
          'input length and `max_tokens` exceed context limit: 143653 + 64000 > 200000, decrease input length',
      },
      'context-overflow',
    ],
    [
      '413 request too large',
      { status: 413, type: 'request_too_large', message: 'too big' },
      'context-overflow',
    ],
    ['other 400', { status: 400, type: 'invalid_request_error', message: 'bad effort' }, 'bad-request'],
    ['404', { status: 404, type: 'not_found_error', message: 'model: x' }, 'not-found'],
    ['500', { status: 500, type: 'api_error', message: 'Internal server error' }, 'server'],
    ['api_error in a stream', { type: 'api_error', message: 'Internal server error' }, 'server'],
    ['invalid request in a stream', { type: 'invalid_request_error', message: 'bad' }, 'bad-request'],
  ])('%s', (_name, facts, kind) => {
    expect(classifyAnthropicError(facts)).toBe(kind);
  });
});

describe('mapAnthropicError', () => {
  it('reads type, message, status and retry-after from an HTTP error', () => {
    const error = APIError.generate(
      429,
      { type: 'error', error: { type: 'rate_limit_error', message: 'Rate limited' } },
      undefined,
      new Headers({ 'retry-after': '13' }),
    );
    const mapped = mapAnthropicError(error);
    expect(mapped).toMatchObject({
      api: 'anthropic-messages',
      kind: 'rate-limit',
      statusCode: 429,
      isRetryable: true,
      retryAfterMs: 13_000,
      code: 'rate_limit_error',
      message: 'Rate limited',
    });
  });

  it('prefers retry-after-ms when sent', () => {
    const error = APIError.generate(
      529,
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      undefined,
      new Headers({ 'retry-after': '13', 'retry-after-ms': '250' }),
    );
    expect(mapAnthropicError(error)).toMatchObject({
      kind: 'overloaded',
      retryAfterMs: 250,
      isRetryable: true,
    });
  });

  it('keeps a non-JSON body (a proxy page) as a short message without the key', () => {
    const key = 'sk-ant-SECRET-123456';
    const error = APIError.generate(502, `<html>${'x'.repeat(2000)} ${key}</html>`, undefined, new Headers());
    const mapped = mapAnthropicError(error, { secret: key });
    expect(mapped.kind).toBe('server');
    expect(mapped.message).not.toContain(key);
    expect(mapped.message.length).toBeLessThanOrEqual(501);
  });

  it.each<[string, unknown, string]>([
    ['a cancelled request', new APIUserAbortError(), 'aborted'],
    [
      'an AbortError',
      Object.assign(new Error('This operation was aborted'), { name: 'AbortError' }),
      'aborted',
    ],
    ['a timeout', new APIConnectionTimeoutError(), 'network'],
    ['a refused connection', new APIConnectionError({ message: 'Connection error.' }), 'network'],
    ['a dropped stream', new TypeError('terminated'), 'network'],
    ['malformed stream JSON', new SyntaxError('Unexpected token'), 'invalid-stream'],
  ])('maps %s', (_name, error, kind) => {
    expect(mapAnthropicError(error).kind).toBe(kind);
  });
});
