/**
 * Claude's adaptive thinking through the real SDK over loopback: an adaptive-only model (Opus 4.7 and
 * later, the 5.x lines, Fable, Mythos) gets `thinking: {type: "adaptive"}` with `output_config.effort` at
 * each level, and `off` as its documentation says; a budget model keeps its budget; the fake refuses what
 * Anthropic refuses, so every body here is one the API takes.
 */
import { describe, expect, it } from 'vitest';
import type { ModelRequest, ReasoningLevel, ResponseItem } from '../../../src/protocol/index.js';
import { createAnthropicClient } from '../../../src/providers/anthropic-messages/client.js';
import { collectEvents } from '../collect-events.js';
import { output, user } from '../item-builders.js';
import { withFakeServer } from '../fake-server.js';

type Json = Record<string, unknown>;
const REQUEST: ModelRequest = { items: [user('hello')], tools: [] };
const TOOLS = [{ name: 'pwd', description: 'Print the directory', parameters: { type: 'object' } }];

const server = withFakeServer();

/** The body and beta header of one request at `level` on `model`, which the fake must have accepted. */
async function sent(
  model: string,
  level: ReasoningLevel,
  request: ModelRequest = REQUEST,
): Promise<{ body: Json; beta: unknown }> {
  server.reset();
  server.enqueue({ type: 'reply', text: 'ok' });
  const client = createAnthropicClient({
    api: 'anthropic-messages',
    model,
    env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
    baseUrl: server.url,
    reasoningEffort: level,
  });
  const collected = await collectEvents(client.stream(request));
  expect(collected.errors).toEqual([]);
  const [wire] = server.modelRequests('anthropic-messages');
  expect(wire?.rejected).toBeUndefined();
  return { body: (wire?.body ?? {}) as Json, beta: wire?.headers['anthropic-beta'] };
}

describe('adaptive thinking on the wire', () => {
  it.each([
    ['minimal', 'low'],
    ['low', 'low'],
    ['medium', 'medium'],
    ['high', 'high'],
  ] as const)(
    'claude-sonnet-5-5 at %s: adaptive, effort %s, no budget and no beta',
    async (level, effort) => {
      const { body, beta } = await sent('claude-sonnet-5-5', level);
      expect(body.thinking).toEqual({ type: 'adaptive' });
      expect(body.output_config).toEqual({ effort });
      expect(beta).toBeUndefined();
    },
  );

  it.each([
    // Thinks only when asked: nothing sent.
    ['claude-opus-4-7', undefined, undefined],
    ['claude-opus-4-8', undefined, undefined],
    // Thinks by default and takes `disabled`.
    ['claude-opus-5', { type: 'disabled' }, undefined],
    ['claude-sonnet-5', { type: 'disabled' }, undefined],
    ['claude-haiku-5-5', { type: 'disabled' }, undefined],
    // Refuses `disabled`; `between_tools` is its lowest setting.
    ['claude-sonnet-5-5', { type: 'between_tools' }, undefined],
    // Cannot turn thinking off: the lowest effort.
    ['claude-opus-5-5', { type: 'adaptive' }, { effort: 'low' }],
    ['claude-fable-5-1', { type: 'adaptive' }, { effort: 'low' }],
    ['claude-mythos-preview', { type: 'adaptive' }, { effort: 'low' }],
  ])('%s at off: thinking %j, output_config %j', async (model, thinking, outputConfig) => {
    const { body } = await sent(model, 'off');
    expect(body.thinking).toEqual(thinking);
    expect(body.output_config).toEqual(outputConfig);
  });

  it('a dated snapshot is its family: claude-opus-4-7-20260416 at high is adaptive', async () => {
    const { body } = await sent('claude-opus-4-7-20260416', 'high');
    expect(body).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'high' } });
  });

  it('a budget model is unchanged: enabled with its budget, the interleaved beta, no output_config', async () => {
    const { body, beta } = await sent('claude-sonnet-4-5', 'high', { ...REQUEST, maxOutputTokens: 64_000 });
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 31_999 });
    expect(body).not.toHaveProperty('output_config');
    expect(beta).toBe('interleaved-thinking-2025-05-14');
    expect((await sent('claude-sonnet-4-5', 'off')).body).not.toHaveProperty('thinking');
  });

  it('the tool loop sends its signed thinking back first, and a loop begun without thinking keeps thinking on', async () => {
    server.reset();
    server.enqueue({
      type: 'reply',
      reasoning: 'Check the directory.',
      toolCalls: [{ id: 'toolu_A', name: 'pwd', arguments: {} }],
    });
    const client = createAnthropicClient({
      api: 'anthropic-messages',
      model: 'claude-sonnet-5-5',
      env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
      baseUrl: server.url,
      reasoningEffort: 'medium',
    });
    const first = await collectEvents(client.stream({ items: [user('where?')], tools: TOOLS }));
    const history: ResponseItem[] = [user('where?'), ...first.items, output('toolu_A', '/home')];
    const { body } = await sent('claude-sonnet-5-5', 'medium', { items: history, tools: TOOLS });
    const signature = first.items[0]?.type === 'reasoning' ? first.items[0].provider_data?.signature : '';
    expect(signature).toMatch(/^[A-Za-z0-9+/=]{8,}$/);
    expect((body.messages as Json[])[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Check the directory.', signature },
        { type: 'tool_use', id: 'toolu_A', name: 'pwd', input: {} },
      ],
    });
    expect(body.thinking).toEqual({ type: 'adaptive' });

    // Calls made without thinking (another model, or thinking off): adaptive thinking may skip a turn's
    // thinking, so the request keeps it (a budget would have to be dropped).
    const bare = [user('where?'), ...first.items.slice(1), output('toolu_A', '/home')];
    const again = await sent('claude-sonnet-5-5', 'high', { items: bare, tools: TOOLS });
    expect(again.body).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'high' } });
  });
});
