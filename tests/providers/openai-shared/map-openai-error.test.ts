import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
} from 'openai';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/protocol/index.js';
import {
  classifyOpenAIError,
  type OpenAIErrorFacts,
  mapOpenAIError,
  mapOpenAIErrorPayload,
} from '../../../src/providers/openai-shared/map-openai-error.js';
import {
  isOfficialOpenAIEndpoint,
  resolveOpenAIBaseUrl,
} from '../../../src/providers/openai-shared/create-openai-sdk.js';

describe('classifyOpenAIError', () => {
  const cases: Array<[string, OpenAIErrorFacts, ReturnType<typeof classifyOpenAIError>]> = [
    ['401', { status: 401, code: 'invalid_api_key', message: 'Incorrect API key' }, { kind: 'auth' }],
    ['403', { status: 403, message: 'Country, region, or territory not supported' }, { kind: 'auth' }],
    [
      '429',
      { status: 429, code: 'rate_limit_exceeded', message: 'Rate limit reached' },
      { kind: 'rate-limit' },
    ],
    [
      '429 insufficient_quota',
      {
        status: 429,
        code: 'insufficient_quota',
        type: 'insufficient_quota',
        message: 'You exceeded your current quota',
      },
      { kind: 'rate-limit', isRetryable: false },
    ],
    [
      '400 context_length_exceeded',
      { status: 400, code: 'context_length_exceeded', message: 'too long' },
      { kind: 'context-overflow' },
    ],
    [
      '400 "maximum context length" without a code (vLLM)',
      { status: 400, message: "This model's maximum context length is 32768 tokens." },
      { kind: 'context-overflow' },
    ],
    [
      '400 "context window"',
      { status: 400, message: 'Your input exceeds the context window of this model.' },
      { kind: 'context-overflow' },
    ],
    [
      '400 other',
      { status: 400, code: 'unsupported_value', message: 'Unsupported value' },
      { kind: 'bad-request' },
    ],
    ['422', { status: 422, message: 'Unprocessable' }, { kind: 'bad-request' }],
    [
      '404',
      { status: 404, code: 'model_not_found', message: 'The model does not exist' },
      { kind: 'not-found' },
    ],
    [
      '400 model_not_found (Responses)',
      { status: 400, code: 'model_not_found', message: 'no model' },
      { kind: 'not-found' },
    ],
    ['408', { status: 408, message: 'Request timeout' }, { kind: 'network' }],
    ['409', { status: 409, message: 'Conflict' }, { kind: 'server', isRetryable: true }],
    ['500', { status: 500, message: 'The server had an error' }, { kind: 'server' }],
    ['503', { status: 503, message: 'overloaded' }, { kind: 'server' }],
    [
      '429 whose message mentions tokens is still a rate limit',
      { status: 429, message: 'Request too large for gpt-4o on tokens per min (TPM): Limit 30000' },
      { kind: 'rate-limit' },
    ],
    ['in-stream server_error', { code: 'server_error', message: 'oops' }, { kind: 'server' }],
    ['in-stream unknown code', { code: 'something_new', message: 'oops' }, { kind: 'server' }],
    ['in-stream invalid request', { type: 'invalid_request_error', message: 'bad' }, { kind: 'bad-request' }],
  ];

  it.each(cases)('%s', (_name, facts, expected) => {
    expect(classifyOpenAIError(facts)).toEqual(expected);
  });
});

describe('mapOpenAIError', () => {
  const headers = (values: Record<string, string>): Headers => new Headers(values);

  it('reads the server-requested delay from retry-after-ms, then retry-after (seconds or a date)', () => {
    const body = { message: 'slow down', code: 'rate_limit_exceeded' };
    const fromMs = mapOpenAIError(
      new RateLimitError(429, body, undefined, headers({ 'retry-after-ms': '250', 'retry-after': '9' })),
      'openai-chat',
    );
    expect(fromMs).toMatchObject({
      kind: 'rate-limit',
      retryAfterMs: 250,
      statusCode: 429,
      code: 'rate_limit_exceeded',
    });
    expect(
      mapOpenAIError(new RateLimitError(429, body, undefined, headers({ 'retry-after': '3' })), 'openai-chat')
        .retryAfterMs,
    ).toBe(3000);
    const date = new Date(Date.now() + 60_000).toUTCString();
    const fromDate = mapOpenAIError(
      new RateLimitError(429, body, undefined, headers({ 'retry-after': date })),
      'openai-chat',
    ).retryAfterMs;
    expect(fromDate).toBeGreaterThan(50_000);
    expect(fromDate).toBeLessThanOrEqual(60_000);
    expect(
      mapOpenAIError(new RateLimitError(429, body, undefined, headers({})), 'openai-chat').retryAfterMs,
    ).toBeUndefined();
  });

  it('keeps the API message and code, and tags the API', () => {
    const error = mapOpenAIError(
      new NotFoundError(
        404,
        { message: 'The model `x` does not exist', code: 'model_not_found' },
        undefined,
        headers({}),
      ),
      'openai-responses',
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      api: 'openai-responses',
      kind: 'not-found',
      message: 'The model `x` does not exist',
      code: 'model_not_found',
    });
  });

  it('reads the plain-string error bodies of Ollama and proxies', () => {
    const error = mapOpenAIError(
      new NotFoundError(404, 'model "llama9" not found, try pulling it first', undefined, headers({})),
      'openai-chat',
    );
    expect(error).toMatchObject({
      kind: 'not-found',
      message: 'model "llama9" not found, try pulling it first',
    });
  });

  it('truncates huge bodies (an HTML error page) and scrubs the key from every message', () => {
    const secret = 'sk-test-very-SECRET-key';
    const huge = mapOpenAIError(
      new InternalServerError(502, undefined, `<html>${'x'.repeat(5000)}</html>`, headers({})),
      'openai-chat',
    );
    expect(huge.kind).toBe('server');
    expect(huge.message.length).toBeLessThan(600);
    const leaky = mapOpenAIError(
      new APIError(401, { message: `Incorrect API key provided: ${secret}` }, undefined, headers({})),
      'openai-chat',
      { secret },
    );
    expect(leaky.message).not.toContain(secret);
    expect(leaky.message).toContain('[redacted]');
  });

  it('maps transport failures: timeout and refused connection → network, abort → aborted, anything else → network', () => {
    expect(mapOpenAIError(new APIConnectionTimeoutError(), 'openai-chat')).toMatchObject({
      kind: 'network',
      isRetryable: true,
    });
    expect(
      mapOpenAIError(
        new APIConnectionError({ message: 'Connection error.', cause: new Error('ECONNREFUSED') }),
        'openai-chat',
      ).message,
    ).toContain('ECONNREFUSED');
    expect(mapOpenAIError(new APIUserAbortError(), 'openai-chat')).toMatchObject({
      kind: 'aborted',
      isRetryable: false,
    });
    expect(
      mapOpenAIError(new TypeError('terminated', { cause: new Error('other side closed') }), 'openai-chat'),
    ).toMatchObject({
      kind: 'network',
      message: 'The connection to the server was lost: terminated (other side closed)',
    });
    expect(mapOpenAIError(new SyntaxError('Unexpected token <'), 'openai-chat').kind).toBe('invalid-stream');
  });

  it('classifies an in-stream error the SDK threw (no status) by its code', () => {
    const inStream = new APIError(
      undefined,
      { type: 'insufficient_quota', code: 'insufficient_quota', message: 'quota' },
      undefined,
      headers({}),
    );
    expect(mapOpenAIError(inStream, 'openai-responses')).toMatchObject({
      kind: 'rate-limit',
      isRetryable: false,
      statusCode: undefined,
    });
  });
});

describe('mapOpenAIErrorPayload', () => {
  it('accepts any shape, reading an HTTP status from a numeric code (OpenRouter)', () => {
    expect(
      mapOpenAIErrorPayload({ code: 502, message: 'Provider returned error' }, 'openai-chat', 'failed'),
    ).toMatchObject({
      kind: 'server',
      statusCode: 502,
      message: 'Provider returned error',
    });
    expect(mapOpenAIErrorPayload(undefined, 'openai-responses', 'The response failed.')).toMatchObject({
      kind: 'server',
      message: 'The response failed.',
    });
  });
});

describe('endpoint resolution', () => {
  it('prefers config, then OPENAI_BASE_URL, then OpenAI', () => {
    expect(resolveOpenAIBaseUrl({ baseUrl: 'http://a/v1', env: { OPENAI_BASE_URL: 'http://b/v1' } })).toBe(
      'http://a/v1',
    );
    expect(resolveOpenAIBaseUrl({ env: { OPENAI_BASE_URL: ' http://b/v1 ' } })).toBe('http://b/v1');
    expect(resolveOpenAIBaseUrl({ env: { OPENAI_BASE_URL: '' } })).toBe('https://api.openai.com/v1');
  });

  it.each([
    ['https://api.openai.com/v1', true],
    ['https://eu.api.openai.com/v1', true],
    ['not a url', true],
    ['http://localhost:11434/v1', false],
    ['https://openrouter.ai/api/v1', false],
    ['https://notopenai.com/v1', false],
  ])('isOfficialOpenAIEndpoint(%s) is %s', (url, expected) => {
    expect(isOfficialOpenAIEndpoint(url)).toBe(expected);
  });
});
