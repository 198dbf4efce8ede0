/**
 * The library's turn is the caller's to stop: one that breaks out of `submit`'s events releases the turn
 * (aborted, recorded as interrupted) and the next `submit` runs at once (issue 20: it failed 15 of 15
 * times with "turn state StreamingLLMResponse cannot change to ProcessingUserMessage").
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCody, type Cody } from '../../../../src/core/engine/cody.js';
import type { SessionEvent } from '../../../../src/core/conversation/session-events.js';
import type { ModelClient, ModelRequest, StreamEvent } from '../../../../src/protocol/index.js';

/** Streams a reply in several deltas, so a caller can stop in the middle of it. */
class StreamingClient implements ModelClient {
  readonly api = 'openai-chat' as const;
  readonly model = 'gpt-4.1-mini';
  readonly requests: ModelRequest[] = [];
  async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
    this.requests.push(request);
    const words = ['one ', 'two ', 'three ', 'four'];
    for (const word of words) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      yield { type: 'text-delta', text: word };
    }
    const text = words.join('');
    yield {
      type: 'item',
      item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] },
    };
    yield { type: 'finish', reason: 'stop' };
  }
}

interface Line {
  type: string;
  payload: { type?: string; reason?: string; role?: string; content?: Array<{ text?: string }> };
}

describe('a library caller that stops iterating a turn', () => {
  let home: string;
  let cody: Cody;
  let client: StreamingClient;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'cody-release-'));
    client = new StreamingClient();
    cody = createCody({
      home,
      env: {},
      cwd: home,
      tools: false,
      clientFactory: () => Promise.resolve(client),
    });
  });
  afterEach(async () => {
    await cody.close();
    await rm(home, { recursive: true, force: true });
  });

  it('releases it: break then submit works 15 times out of 15, and the rollout records each interrupted turn', async () => {
    const conversation = await cody.create();
    for (let attempt = 0; attempt < 15; attempt += 1) {
      for await (const event of conversation.submit(`stop me ${attempt}`)) {
        if (event.type === 'text-delta') break;
      }
      expect(conversation.busy).toBe(false);
      expect(conversation.status().state).toBe('Idle');
      const events: SessionEvent[] = [];
      for await (const event of conversation.submit(`answer me ${attempt}`)) events.push(event);
      expect(events.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
    }
    const lines = (await readFile(join(home, 'conversations', `${conversation.id}.jsonl`), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Line);
    const ends = lines
      .filter(
        (line) => line.payload.type === 'cody_turn_complete' || line.payload.type === 'cody_turn_aborted',
      )
      .map((line) =>
        line.payload.type === 'cody_turn_aborted' ? `aborted:${line.payload.reason}` : 'complete',
      );
    expect(ends).toEqual(Array.from({ length: 15 }, () => ['aborted:interrupted', 'complete']).flat());
    const users = lines
      .filter((line) => line.payload.type === 'message' && line.payload.role === 'user')
      .map((line) => line.payload.content?.[0]?.text);
    expect(users).toEqual(Array.from({ length: 15 }, (_, i) => [`stop me ${i}`, `answer me ${i}`]).flat());
    // Every `answer me` reached the model: none was lost.
    expect(client.requests).toHaveLength(30);
  });
});
