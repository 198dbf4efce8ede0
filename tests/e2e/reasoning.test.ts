/**
 * Reasoning through the built `cody` against the fake provider (which applies each API's reasoning rules):
 * `--reasoning` and config on each API's wire, recorded in turn_context and shown by `cody status`,
 * Claude's signed thinking and DeepSeek's reasoning_content (in every later request) through tool loops, Gemini's signature on its
 * call, `reasoning-delta` in stream-json and over `cody serve`, and one warning for a model without it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, linesOfType } from './harness.js';
import { startServe } from './serve-harness.js';
import type { ReplyStep } from '../fake-provider/types.js';

type Json = Record<string, unknown>;

describe('reasoning, through bin/cody.js', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  const newConversation = async (args: string[]): Promise<string> => {
    const created = await harness.cody(['new', ...args]);
    expect(created.code, created.stderr).toBe(0);
    return created.stdout.trim();
  };

  /** A reply calling list_directory (read-only: it runs without asking), thinking `reasoning` first. */
  const readCall = (reasoning: string): ReplyStep => ({
    type: 'reply',
    reasoning,
    toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }],
  });

  it('Claude: --reasoning turns thinking on; the tool loop sends the signed thinking back first; kept and shown', async () => {
    const id = await newConversation(['--provider', 'anthropic', '--model', 'claude-sonnet-4-6']);
    harness.server.enqueue(readCall('Let me look at the directory first.'), {
      type: 'reply',
      reasoning: 'The listing answers it.',
      text: 'Here it is.',
    });
    const run = await harness.cody([
      'chat',
      '--reasoning',
      'high',
      '--output-format',
      'stream-json',
      'what is here?',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const events = run.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Json);
    const thought = events
      .filter((event) => event.type === 'reasoning-delta')
      .map((event) => event.text)
      .join('');
    expect(thought).toBe('Let me look at the directory first.The listing answers it.');
    const requests = harness.server.modelRequests('anthropic-messages');
    expect(requests.map((request) => request.rejected)).toEqual([undefined, undefined]);
    const second = requests[1]?.body as { thinking: Json; messages: { role: string; content: Json[] }[] };
    expect(second.thinking).toEqual({ type: 'enabled', budget_tokens: 31999 });
    expect(requests[1]?.headers['anthropic-beta']).toContain('interleaved-thinking-2025-05-14');
    const assistant = second.messages.at(-2);
    expect(assistant?.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    expect(assistant?.content[0]).toMatchObject({
      thinking: 'Let me look at the directory first.',
      signature: expect.any(String),
    });

    const contexts = linesOfType(await harness.rollout(id), 'turn_context').map((line) => line.payload);
    expect(contexts).toEqual([expect.objectContaining({ effort: 'high', summary: 'auto' })]);
    // The next run without the flag keeps the conversation's level.
    expect((await harness.cody(['chat', 'again'])).code).toBe(0);
    expect((harness.server.modelRequests('anthropic-messages')[2]?.body as Json).thinking).toEqual({
      type: 'enabled',
      budget_tokens: 31999,
    });
    const status = await harness.cody(['status']);
    expect(status.stdout).toMatch(/Reasoning: {4}high/);
    const json = JSON.parse((await harness.cody(['status', '--json'])).stdout) as Json;
    expect(json).toMatchObject({ reasoning: 'high' });
  }, 60_000);

  it('DeepSeek: reasoning_content recorded, returned within the tool turn and in the later turn', async () => {
    await newConversation(['--provider', 'openai', '--api', 'chat', '--model', 'deepseek-reasoner']);
    harness.server.enqueue(
      readCall('I must list the files.'),
      { type: 'reply', reasoning: 'Listed.', text: 'Files listed.' },
      { type: 'reply', text: 'Yes.' },
    );
    const first = await harness.cody(['chat', '--output-format', 'stream-json', 'list the files']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('"type":"reasoning-delta"');
    expect((await harness.cody(['chat', 'sure?'])).code).toBe(0);
    const requests = harness.server.modelRequests('openai-chat');
    expect(requests.map((request) => request.rejected)).toEqual([undefined, undefined, undefined]);
    const toolMessage = (index: number): Json | undefined =>
      ((requests[index]?.body as Json).messages as Json[]).find(
        (message) => message.role === 'assistant' && message.tool_calls !== undefined,
      );
    expect(toolMessage(1)).toMatchObject({ reasoning_content: 'I must list the files.' });
    // DeepSeek V4 (deepseek-reasoner is V4 Flash thinking) wants it back in every later request too.
    expect(toolMessage(2)).toMatchObject({ reasoning_content: 'I must list the files.' });
    for (const request of requests) expect(request.body).not.toHaveProperty('reasoning_effort');
  }, 60_000);

  it('Gemini 3: thinkingLevel from config, and the call’s signature comes back on its part', async () => {
    await newConversation(['--provider', 'google', '--model', 'gemini-3-pro-preview']);
    const config = JSON.parse((await harness.shell('cat "$CODY_HOME/config.json"')).stdout) as Json;
    await harness.writeConfig({ ...config, reasoning: 'low' });
    harness.server.enqueue(readCall('Listing helps.'), { type: 'reply', text: 'Done.' });
    const run = await harness.cody(['chat', 'list']);
    expect(run.code, run.stderr).toBe(0);
    const requests = harness.server.modelRequests('gemini');
    expect(requests.map((request) => request.rejected)).toEqual([undefined, undefined]);
    expect((requests[0]?.body as { generationConfig: Json }).generationConfig.thinkingConfig).toEqual({
      thinkingLevel: 'LOW',
      includeThoughts: true,
    });
    const contents = (requests[1]?.body as { contents: { role: string; parts: Json[] }[] }).contents;
    const call = contents.flatMap((content) => content.parts).find((part) => part.functionCall);
    expect(call).toMatchObject({
      functionCall: { name: 'list_directory' },
      thoughtSignature: expect.any(String),
    });
  }, 60_000);

  it('Responses effort per model; a model without reasoning warns once; an unknown level is a usage error', async () => {
    await newConversation(['--provider', 'openai', '--api', 'responses', '--model', 'gpt-5']);
    expect((await harness.cody(['chat', '--reasoning', 'minimal', 'hi'])).code).toBe(0);
    const body = harness.server.modelRequests('openai-responses')[0]?.body as Json;
    expect(body).toMatchObject({
      reasoning: { effort: 'minimal', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
    });

    await newConversation(['--provider', 'openai', '--api', 'chat', '--model', 'gpt-4o']);
    const warned = await harness.cody(['chat', '--reasoning', 'high', 'hi']);
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.stderr.match(/does not reason/g)).toHaveLength(1);
    expect(harness.server.modelRequests('openai-chat')[0]?.body).not.toHaveProperty('reasoning_effort');

    const bad = await harness.cody(['chat', '--reasoning', 'extreme', 'hi']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('off, minimal, low, medium, high');
  }, 60_000);

  it('cody serve: PUT /conversations/:id/reasoning sets it; the turn carries it and streams reasoning-delta', async () => {
    const id = await newConversation(['--provider', 'anthropic', '--model', 'claude-opus-4-5']);
    const server = await startServe(harness);
    try {
      const { api } = server;
      expect((await api.request('PUT', `/conversations/${id}/reasoning`, { level: 'max' })).status).toBe(400);
      const set = await api.request('PUT', `/conversations/${id}/reasoning`, { level: 'low' });
      expect(set.status).toBe(200);
      expect(set.json).toMatchObject({ status: { reasoning: 'low' } });
      harness.server.enqueue({ type: 'reply', reasoning: 'A short thought.', text: 'Hello.' });
      const stream = await api.events(`/conversations/${id}/events`);
      expect((await api.request('POST', `/conversations/${id}/messages`, { text: 'hi' })).status).toBe(202);
      const messages = await stream.until(
        (event) => event.type === 'turn-complete' || event.type === 'turn-failed',
      );
      stream.close();
      const events = messages.map((message) => JSON.parse(message.data) as Json);
      expect(
        events
          .filter((event) => event.type === 'reasoning-delta')
          .map((event) => event.text)
          .join(''),
      ).toBe('A short thought.');
      const body = harness.server.modelRequests('anthropic-messages')[0]?.body as Json;
      expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 4000 });
    } finally {
      await server.stop('SIGTERM');
    }
    const contexts = linesOfType(await harness.rollout(id), 'turn_context').map((line) => line.payload);
    expect(contexts.at(-1)).toMatchObject({ effort: 'low', summary: 'auto' });
  }, 60_000);
});
