/**
 * Cost is an engine fact: a turn's `usage` and `turn-complete` events carry `costUsd` (core's `costOf` over
 * the reported usage at the model's list price), and carry none for a model whose price is unknown.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { costOf, createCody, type Cody } from '../../../../src/core/index.js';
import type { SessionEvent } from '../../../../src/core/conversation/session-events.js';
import type { ModelClient, StreamEvent, TokenUsage } from '../../../../src/protocol/index.js';

const USAGE: TokenUsage = { inputTokens: 12_000, cachedInputTokens: 4_000, outputTokens: 900 };

class UsageClient implements ModelClient {
  readonly api = 'openai-chat' as const;
  constructor(readonly model: string) {}
  async *stream(): AsyncGenerator<StreamEvent> {
    const text = 'priced';
    yield { type: 'text-delta', text };
    yield {
      type: 'item',
      item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] },
    };
    yield { type: 'usage', usage: USAGE };
    yield { type: 'finish', reason: 'stop' };
  }
}

async function turnEvents(cody: Cody, model: string): Promise<SessionEvent[]> {
  const conversation = await cody.create({ provider: 'openai', api: 'chat', model });
  const events: SessionEvent[] = [];
  for await (const event of conversation.submit('what does this cost?')) events.push(event);
  return events;
}

describe('the cost of a turn', () => {
  let home: string;
  let cody: Cody;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'cody-cost-'));
    cody = createCody({
      home,
      env: {},
      cwd: home,
      clientFactory: (selection) => Promise.resolve(new UsageClient(selection.model)),
    });
  });
  afterEach(async () => {
    await cody.close();
    await rm(home, { recursive: true, force: true });
  });

  it('is on the usage and turn-complete events for a priced model, equal to costOf over the usage', async () => {
    const events = await turnEvents(cody, 'gpt-4.1-mini');
    const expected = costOf('gpt-4.1-mini', {
      inputTokens: 12_000,
      cachedInputTokens: 4_000,
      outputTokens: 900,
    });
    expect(expected).toBeGreaterThan(0);
    // gpt-4.1-mini lists $0.40 in, $0.10 cached in, $1.60 out per million tokens.
    expect(expected).toBeCloseTo((8_000 * 0.4 + 4_000 * 0.1 + 900 * 1.6) / 1e6, 12);
    expect(events.find((event) => event.type === 'usage')).toMatchObject({ usage: USAGE, costUsd: expected });
    expect(events.at(-1)).toMatchObject({ type: 'turn-complete', usage: USAGE, costUsd: expected });
  });

  it('is absent for a model whose price is unknown (never a guess)', async () => {
    const events = await turnEvents(cody, 'my-private-finetune');
    expect(costOf('my-private-finetune', { inputTokens: 1, cachedInputTokens: 0, outputTokens: 1 })).toBe(
      undefined,
    );
    const usage = events.find((event) => event.type === 'usage');
    const done = events.at(-1);
    expect(usage).toMatchObject({ usage: USAGE });
    expect(done).toMatchObject({ type: 'turn-complete', usage: USAGE });
    expect(usage).not.toHaveProperty('costUsd');
    expect(done).not.toHaveProperty('costUsd');
  });
});
