/**
 * Every provider through the real binary and the official SDKs over real HTTP: the Alice flow on each,
 * one conversation switched across all four APIs, retries recorded once, and auth failures. Choosing
 * the provider and starting the conversation run the same commands in process (`setUp`); every turn is
 * a real `cody chat`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, linesOfType } from './harness.js';
import { codyInProcess } from './in-process.js';
import { historyLines, systemText } from './wire-history.js';

const PROVIDERS = [
  { api: 'openai-chat', args: ['openai', '--api', 'chat'] },
  { api: 'openai-responses', args: ['openai', '--api', 'responses'] },
  { api: 'anthropic-messages', args: ['anthropic'] },
  { api: 'gemini', args: ['google'] },
] as const;

describe('providers end to end', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
  });
  afterEach(async () => {
    await harness.close();
  });
  const setUp = (args: string[]) => codyInProcess(harness, args);

  for (const provider of PROVIDERS) {
    it(`remembers Alice on ${provider.api}`, async () => {
      expect((await setUp(['set-provider', ...provider.args])).code).toBe(0);
      const id = (await setUp(['new'])).stdout.trim();
      const first = await harness.cody(['chat', 'my name is Alice']);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(first.stdout).toBe('echo: my name is Alice\n');
      const second = await harness.cody(['chat', 'what is my name?']);
      expect(second.code).toBe(0);
      const requests = harness.server.modelRequests();
      expect(requests.map((request) => request.api)).toEqual([provider.api, provider.api]);
      const last = requests[1];
      if (!last) throw new Error('no request');
      expect(last.rejected).toBeUndefined();
      expect(systemText(last)).toMatch(/You are Cody/);
      expect(historyLines(last)).toEqual([
        'user: my name is Alice',
        'assistant: echo: my name is Alice',
        'user: what is my name?',
      ]);
      const turnContexts = linesOfType(await harness.rollout(id), 'turn_context');
      expect(turnContexts.map((line) => line.payload.api)).toEqual([provider.api, provider.api]);
    });
  }

  it('moves one conversation across all four APIs, each request carrying the whole history', async () => {
    const chain = [
      'openai-responses',
      'anthropic-messages',
      'gemini',
      'openai-chat',
      'openai-responses',
    ] as const;
    const id = (await setUp(['new'])).stdout.trim();
    const expected: string[] = [];
    for (const [index, api] of chain.entries()) {
      const provider = PROVIDERS.find((candidate) => candidate.api === api);
      if (!provider) throw new Error(api);
      expect((await setUp(['set-provider', ...provider.args])).code).toBe(0);
      const message = `turn ${index + 1} on ${api}`;
      const result = await harness.cody(['chat', message]);
      expect(result.code, result.stderr).toBe(0);
      expected.push(`user: ${message}`);
      const request = harness.server.modelRequests().at(-1);
      if (!request) throw new Error('no request');
      expect(request.api).toBe(api);
      expect(request.rejected).toBeUndefined();
      expect(systemText(request)).toMatch(/You are Cody/);
      expect(historyLines(request)).toEqual(expected);
      expected.push(`assistant: echo: ${message}`);
    }
    const turnContexts = linesOfType(await harness.rollout(id), 'turn_context');
    expect(turnContexts.map((line) => line.payload.api)).toEqual([...chain]);
  });

  it('retries a 429 and records the reply once', async () => {
    const id = (await setUp(['new'])).stdout.trim();
    harness.server.enqueue(
      { type: 'error', status: 429, headers: { 'retry-after-ms': '50', 'content-type': 'application/json' } },
      { type: 'reply', text: 'made it after a 429' },
    );
    const result = await harness.cody(['chat', 'rate limited']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('made it after a 429\n');
    expect(result.stderr).toMatch(/Retrying \(1\/5\)/);
    expect(harness.server.modelRequests()).toHaveLength(2);
    const assistants = linesOfType(await harness.rollout(id), 'response_item').filter(
      (line) => line.payload.role === 'assistant',
    );
    expect(assistants).toHaveLength(1);
  });

  it('retries a 529 overloaded on Anthropic and records the reply once', async () => {
    await setUp(['set-provider', 'anthropic']);
    const id = (await setUp(['new'])).stdout.trim();
    harness.server.enqueue(
      { type: 'error', status: 529, headers: { 'retry-after': '0', 'content-type': 'application/json' } },
      {
        type: 'reply',
        text: 'made it after a 529',
      },
    );
    const result = await harness.cody(['chat', 'overloaded']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('made it after a 529\n');
    expect(result.stderr).toMatch(/Retrying/);
    const assistants = linesOfType(await harness.rollout(id), 'response_item').filter(
      (line) => line.payload.role === 'assistant',
    );
    expect(assistants).toHaveLength(1);
  });

  it('discards a reply cut off mid-stream and records the retried one once', async () => {
    const id = (await setUp(['new'])).stdout.trim();
    harness.server.enqueue(
      { type: 'reply', text: 'this reply will be cut off in the middle of it', disconnectAfterFrames: 3 },
      { type: 'reply', text: 'complete reply' },
    );
    const result = await harness.cody(['chat', 'flaky network']);
    expect(result.code).toBe(0);
    // stdout is a pipe: the cut-off attempt never reaches it, the retried reply does, once.
    expect(result.stdout).toBe('complete reply\n');
    expect(result.stderr).toMatch(/partial reply is discarded/);
    const assistants = linesOfType(await harness.rollout(id), 'response_item').filter(
      (line) => line.payload.role === 'assistant',
    );
    expect(assistants.map((line) => JSON.stringify(line.payload.content))).toEqual([
      JSON.stringify([{ type: 'output_text', text: 'complete reply' }]),
    ]);
  });

  for (const provider of PROVIDERS) {
    it(`gives one line naming the key variable on a 401 from ${provider.api}`, async () => {
      await setUp(['set-provider', ...provider.args]);
      await setUp(['new']);
      harness.server.enqueue({ type: 'error', status: 401 });
      const result = await harness.cody(['chat', 'bad key']);
      expect(result.code).toBe(4);
      const variable =
        provider.api === 'anthropic-messages'
          ? 'ANTHROPIC_API_KEY'
          : provider.api === 'gemini'
            ? 'GEMINI_API_KEY'
            : 'OPENAI_API_KEY';
      expect(result.stderr).toContain(variable);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(harness.server.modelRequests()).toHaveLength(1);
    });
  }

  it('fails with exit 5 after retries are exhausted on a persistent 500', async () => {
    await harness.writeConfig({ retry: { baseDelayMs: 5 } });
    await setUp(['new']);
    const failing = { type: 'error' as const, status: 500 };
    harness.server.enqueue(failing, failing, failing, failing, failing, failing);
    const result = await harness.cody(['chat', 'server down']);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/HTTP 500/);
    expect(harness.server.modelRequests()).toHaveLength(6);
  });
});
