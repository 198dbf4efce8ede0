/**
 * The real recorded thinking streams (tests/fixtures/provider-recordings) through the whole turn loop:
 * each is served byte for byte as a turn's reply; the thinking streams as `reasoning-delta`, is recorded
 * with its opaque data (signature, thought signature, id and encrypted content), and the next request
 * sends it back the way its API requires.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCody, type Cody } from '../../../../src/core/engine/cody.js';
import type { SelectionChoice } from '../../../../src/core/conversation/session-surface.js';
import type { SessionEvent } from '../../../../src/core/conversation/session-events.js';
import type { ToolRuntime } from '../../../../src/core/tools/tool-runtime.js';
import { FakeProviderServer } from '../../../fake-provider/server.js';
import { loadRecording, rawStep } from '../../../providers/recordings.js';
import { readLines } from '../mocked-service.js';

type Json = Record<string, unknown>;

/** Answers any call (the recordings call their own tools: get_country, final_result). */
const anyTool: ToolRuntime = {
  specs: () => [
    { name: 'get_country', description: 'country', parameters: { type: 'object' } },
    { name: 'final_result', description: 'result', parameters: { type: 'object' } },
  ],
  has: () => true,
  decide: () => Promise.resolve({ kind: 'allow' }),
  rememberApproval: () => undefined,
  isReadOnly: () => true,
  run: () => Promise.resolve({ output: 'done', status: 'ok' }),
};

const server = new FakeProviderServer();
let home: string;
let cody: Cody;

beforeAll(async () => {
  await server.start();
});
afterAll(async () => {
  await server.stop();
});
beforeEach(async () => {
  server.reset();
  home = await mkdtemp(join(tmpdir(), 'cody-reasoning-rec-'));
  await writeFile(join(home, 'config.json'), JSON.stringify({ reasoning: 'medium' }));
  cody = createCody({
    home,
    cwd: home,
    tools: anyTool,
    env: {
      OPENAI_API_KEY: 'sk-test-recordings',
      OPENAI_BASE_URL: `${server.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: server.url,
      GEMINI_API_KEY: 'gemini-test',
      GOOGLE_GEMINI_BASE_URL: server.url,
    },
  });
});
afterEach(async () => {
  await cody.close();
  await rm(home, { recursive: true, force: true });
});

interface Replayed {
  events: SessionEvent[];
  reasoning: Json[];
  bodies: Json[];
}

/** A turn whose first reply is the recording, then one more turn; what streamed, what was recorded and sent. */
async function replay(selection: SelectionChoice, dir: string, file: string): Promise<Replayed> {
  server.enqueue(rawStep(loadRecording(dir, file)));
  const conversation = await cody.create(selection);
  const events: SessionEvent[] = [];
  for await (const event of conversation.submit('first')) events.push(event);
  expect(events.at(-1), JSON.stringify(events.at(-1))).toMatchObject({ type: 'turn-complete' });
  for await (const event of conversation.submit('second')) events.push(event);
  expect(events.at(-1), JSON.stringify(events.at(-1))).toMatchObject({ type: 'turn-complete' });
  const lines = await readLines(join(home, 'conversations', `${conversation.id}.jsonl`));
  const reasoning = lines
    .filter((line) => line.type === 'response_item')
    .map((line) => line.payload)
    .filter((item) => item.type === 'reasoning' || item.type === 'cody_reasoning');
  return { events, reasoning, bodies: server.requests.map((request) => request.body as Json) };
}

function thinkingText(events: SessionEvent[]): string {
  return events
    .filter((event) => event.type === 'reasoning-delta')
    .map((event) => event.text)
    .join('');
}

describe('recorded thinking streams through the turn loop', () => {
  for (const [model, file] of [
    ['claude-haiku-4-5', 'stream-thinking.claude-haiku-4-5.sse'],
    ['claude-sonnet-4-6', 'stream-thinking-then-long-text.claude-sonnet-4.sse'],
  ] as const) {
    it(`Anthropic ${file}: thinking recorded with its signature and sent back first in its turn`, async () => {
      const { events, reasoning, bodies } = await replay(
        { provider: 'anthropic', model },
        'anthropic-messages',
        file,
      );
      expect(thinkingText(events)).not.toBe('');
      expect(reasoning).toHaveLength(1);
      const signature = (reasoning[0]?.provider_data as Json | undefined)?.signature;
      expect(typeof signature).toBe('string');
      const messages = bodies[1]?.messages as { role: string; content: Json[] }[];
      const assistant = messages.find((message) => message.role === 'assistant');
      expect(assistant?.content[0]).toMatchObject({ type: 'thinking', signature });
      const recordedText = (reasoning[0]?.content as { text: string }[]).map((part) => part.text).join('');
      expect(assistant?.content[0]?.thinking).toBe(recordedText);
      expect(thinkingText(events).startsWith(recordedText)).toBe(true);
      expect(server.requests.map((request) => request.rejected)).toEqual([undefined, undefined]);
    });
  }

  it('Gemini 3 function call: the recorded thought signature comes back on the same functionCall part', async () => {
    const { bodies } = await replay(
      { provider: 'google', model: 'gemini-3-pro-preview' },
      'gemini',
      'stream-function-call-thought-signature.gemini-3-pro-preview.sse',
    );
    const recorded = loadRecording(
      'gemini',
      'stream-function-call-thought-signature.gemini-3-pro-preview.sse',
    );
    const signature = /"thoughtSignature": "([^"]+)"/.exec(recorded.body)?.[1];
    expect(signature).toBeDefined();
    const contents = bodies[1]?.contents as { role: string; parts: Json[] }[];
    const call = contents.flatMap((content) => content.parts).find((part) => part.functionCall !== undefined);
    expect(call).toMatchObject({ functionCall: { name: 'get_country' }, thoughtSignature: signature });
    expect(server.requests.every((request) => request.rejected === undefined)).toBe(true);
  });

  it('Gemini 2.5 Pro thought summaries stream as reasoning and are recorded as Cody reasoning', async () => {
    const { events, reasoning } = await replay(
      { provider: 'google', model: 'gemini-2.5-pro' },
      'gemini',
      'stream-thought-summaries-then-text.gemini-2.5-pro.sse',
    );
    expect(thinkingText(events)).not.toBe('');
    expect(reasoning[0]).toMatchObject({ type: 'cody_reasoning', origin: { api: 'gemini' } });
  });

  it('Responses o3-mini reasoning summary streams and is recorded as Codex reasoning', async () => {
    const { events, reasoning } = await replay(
      { provider: 'openai', api: 'responses', model: 'o3-mini' },
      'openai-responses',
      'stream-reasoning-summary-then-text.o3-mini.sse',
    );
    expect(thinkingText(events)).not.toBe('');
    expect(reasoning[0]).toMatchObject({ type: 'reasoning', id: expect.stringMatching(/^rs_/) });
  });

  it('Responses gpt-5 reasoning before a call: replayed with its id and encrypted content', async () => {
    const { reasoning, bodies } = await replay(
      { provider: 'openai', api: 'responses', model: 'gpt-5' },
      'openai-responses',
      'stream-reasoning-item-function-call-usage.gpt-5.sse',
    );
    const first = reasoning[0];
    expect(first).toMatchObject({ id: expect.stringMatching(/^rs_/), encrypted_content: expect.any(String) });
    const input = bodies[1]?.input as Json[];
    expect(input.find((item) => item.type === 'reasoning')).toMatchObject({
      id: first?.id,
      encrypted_content: first?.encrypted_content,
    });
    expect(bodies[1]?.reasoning).toEqual({ effort: 'medium', summary: 'auto' });
  });
});
