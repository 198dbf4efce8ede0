/** A provider failure becomes one line with a kind and, where there is a way out, a hint for the front end. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeError } from '../../../../src/cli/report-error.js';
import { createCody } from '../../../../src/index.js';
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

  it('names the server and its address when nothing listens there (Ollama not started)', async () => {
    // A port nobody listens on: taken, then let go.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 9));
      });
    });
    const home = await mkdtemp(join(tmpdir(), 'cody-unreachable-'));
    await writeFile(join(home, 'config.json'), '{}');
    const cody = createCody({
      home,
      cwd: home,
      tools: false,
      env: { OLLAMA_BASE_URL: `http://127.0.0.1:${port}/v1` },
    });
    try {
      const conversation = await cody.create({ provider: 'ollama', model: 'my-finetune:8b' });
      const events = [];
      for await (const event of conversation.submit('hi')) events.push(event);
      // A model the catalogue does not know: said before the request, with the number as a sentence says it.
      expect(events).toContainEqual({
        type: 'warning',
        message: expect.stringContaining(
          "is not in Cody's catalogue: assuming an 8,192-token context window.",
        ),
      });
      const failed = events.find((event) => event.type === 'turn-failed');
      expect(failed).toMatchObject({
        error: {
          kind: 'provider',
          message: `cannot reach ollama at http://127.0.0.1:${port} (connection refused): is it running?`,
        },
      });
    } finally {
      await cody.close();
      await rm(home, { recursive: true, force: true });
    }
  });

  it('front ends print it as it is, not as a failed openai-chat request', () => {
    const refused = new ProviderError({
      api: 'openai-chat',
      kind: 'network',
      message: 'Could not reach the server: Connection error.',
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:11434'), { code: 'ECONNREFUSED' }),
    });
    expect(refused.code).toBe('ECONNREFUSED');
    const failure = failureFromProvider(refused, 0, undefined, {
      server: 'ollama',
      address: 'http://localhost:11434/v1',
    });
    expect(describeError(failure).message).toBe(
      'cannot reach ollama at http://localhost:11434 (connection refused): is it running?',
    );
    // Any other network failure keeps the API's wording.
    const lost = new ProviderError({ api: 'openai-chat', kind: 'network', message: 'socket hang up' });
    expect(failureFromProvider(lost, 2, undefined, { server: 'ollama', address: 'http://x' }).message).toBe(
      'openai-chat request failed after 2 retries: socket hang up',
    );
  });
});
