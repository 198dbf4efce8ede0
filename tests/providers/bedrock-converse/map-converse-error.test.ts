/** Bedrock's error names → Cody's error kinds: the table is the specification. */
import { describe, expect, it } from 'vitest';
import {
  classifyBedrockError,
  mapBedrockError,
} from '../../../src/providers/bedrock-converse/map-converse-error.js';

describe('classifyBedrockError', () => {
  it.each([
    ['ThrottlingException', 429, 'rate-limit'],
    ['ServiceQuotaExceededException', 400, 'rate-limit'],
    ['ModelNotReadyException', 429, 'overloaded'],
    ['ServiceUnavailableException', 503, 'overloaded'],
    ['AccessDeniedException', 403, 'auth'],
    ['UnrecognizedClientException', 403, 'auth'],
    ['ExpiredTokenException', 403, 'auth'],
    ['ValidationException', 400, 'bad-request'],
    ['ResourceNotFoundException', 404, 'not-found'],
    ['ModelTimeoutException', 408, 'network'],
    ['ModelStreamErrorException', undefined, 'server'],
    ['ModelErrorException', 424, 'server'],
    ['InternalServerException', 500, 'server'],
    ['SomethingNewException', 502, 'server'],
    ['SomethingNewException', 409, 'bad-request'],
  ] as const)('%s (%s) → %s', (name, status, kind) => {
    expect(classifyBedrockError({ name, ...(status !== undefined ? { status } : {}), message: 'm' })).toBe(
      kind,
    );
  });

  it('reads a ValidationException about the prompt size as a context overflow', () => {
    for (const message of [
      'Input is too long for requested model.',
      'prompt is too long: 210000 tokens > 200000 maximum',
    ])
      expect(classifyBedrockError({ name: 'ValidationException', status: 400, message })).toBe(
        'context-overflow',
      );
  });
});

describe('mapBedrockError', () => {
  it('a missing credential chain is a non-retryable auth error saying what to set', () => {
    const error = Object.assign(new Error('Could not resolve credentials using profile: [default]'), {
      name: 'CredentialsProviderError',
    });
    const mapped = mapBedrockError(error);
    expect([mapped.kind, mapped.isRetryable]).toEqual(['auth', false]);
    expect(mapped.message).toMatch(/AWS_ACCESS_KEY_ID.*AWS_PROFILE/);
  });

  it('never repeats a secret the server echoed', () => {
    const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    const error = Object.assign(new Error(`bad signature for ${secret}`), {
      name: 'InvalidSignatureException',
      $fault: 'client',
      $metadata: { httpStatusCode: 403 },
    });
    expect(mapBedrockError(error, { secrets: [secret] }).message).not.toContain(secret);
  });

  it('a connection failure (no AWS fault, even with the SDK’s $metadata) is a network error', () => {
    const error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
      code: 'ECONNREFUSED',
      $metadata: { attempts: 1 },
    });
    expect(mapBedrockError(error).kind).toBe('network');
  });
});
