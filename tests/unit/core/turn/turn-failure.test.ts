/** A provider failure becomes one line with a kind and, where there is a way out, a hint for the front end. */
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../../src/protocol/index.js';
import { CLAUDE_REFUSAL_MESSAGE } from '../../../../src/providers/anthropic-messages/claude-oauth-refusal.js';
import { SIGN_IN_REFUSED_CODE } from '../../../../src/providers/index.js';
import { failureFromProvider } from '../../../../src/core/turn/turn-failure.js';

describe('failureFromProvider', () => {
  it('turns a refused sign-in token into an auth failure with the use-api-key hint, naming no command', () => {
    const refused = new ProviderError({
      api: 'anthropic-messages',
      kind: 'auth',
      statusCode: 403,
      code: SIGN_IN_REFUSED_CODE,
      message: CLAUDE_REFUSAL_MESSAGE,
    });
    const failure = failureFromProvider(refused, 0);
    expect(failure.kind).toBe('auth');
    expect(failure.hint).toBe('use-api-key');
    expect(failure.hintSubject).toBe('anthropic');
    expect(failure.message).toContain('Anthropic refuses Claude sign-in tokens');
    // Core and provider words name no `cody` command (the CLI adds its own), and no key-check advice.
    expect(failure.message).not.toMatch(/\bcody [a-z]/);
    expect(failure.message).not.toMatch(/check the key/);
  });

  it('keeps the key check for an ordinary 401 and gives no hint', () => {
    const failure = failureFromProvider(
      new ProviderError({ api: 'openai-chat', kind: 'auth', statusCode: 401, message: 'Incorrect API key' }),
      0,
    );
    expect(failure.hint).toBeUndefined();
    expect(failure.message).toMatch(/check the key in OPENAI_API_KEY/);
  });

  it('names what the provider’s definition says to check when its credentials are more than a key (Bedrock)', () => {
    const failure = failureFromProvider(
      new ProviderError({
        api: 'bedrock-converse',
        kind: 'auth',
        statusCode: 403,
        message: 'The security token included in the request is invalid.',
      }),
      0,
    );
    expect(failure.message).toContain('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE');
    expect(failure.message).not.toMatch(/check the key in AWS_BEARER_TOKEN_BEDROCK$/);
  });
});
