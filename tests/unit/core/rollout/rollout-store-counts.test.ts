/**
 * The count a live conversation records (`turn_complete`'s message_count) is the count every reader of
 * the RolloutStore gives for the same file, also after a turn that failed with the person's message
 * recorded and no reply (DECISIONS.md, "One definition of count, preview, title").
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCody, type Cody } from '../../../../src/core/engine/cody.js';
import { resolveCodyPaths } from '../../../../src/core/config/paths.js';
import { isCountedMessage } from '../../../../src/core/rollout/definitions.js';
import { RolloutStore } from '../../../../src/core/rollout/store.js';
import type { SessionEvent } from '../../../../src/core/conversation/session-events.js';
import {
  ProviderError,
  type ModelClient,
  type ModelRequest,
  type StreamEvent,
} from '../../../../src/protocol/index.js';

class ScriptClient implements ModelClient {
  readonly api = 'openai-chat' as const;
  readonly model = 'gpt-4.1-mini';
  private turns = 0;
  async *stream(_request: ModelRequest): AsyncGenerator<StreamEvent> {
    await Promise.resolve();
    this.turns += 1;
    if (this.turns === 2) {
      yield {
        type: 'error',
        error: new ProviderError({ api: 'openai-chat', kind: 'bad-request', message: 'no' }),
      };
      return;
    }
    const text = `answer ${this.turns}`;
    yield { type: 'text-delta', text };
    yield {
      type: 'item',
      item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] },
    };
    yield { type: 'finish', reason: 'stop' };
  }
}

async function drain(events: AsyncIterable<SessionEvent>): Promise<SessionEvent[]> {
  const seen: SessionEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe('the recorded message count', () => {
  let home: string;
  let cody: Cody;
  const client = new ScriptClient();
  const open = (): Cody =>
    createCody({ home, env: {}, cwd: home, clientFactory: () => Promise.resolve(client) });
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'cody-store-counts-'));
    cody = open();
  });
  afterEach(async () => {
    await cody.close();
    await rm(home, { recursive: true, force: true });
  });

  it('is what every reader counts, after a failed turn and a resume', async () => {
    const conversation = await cody.create({ provider: 'openai', api: 'chat', model: 'gpt-4.1-mini' });
    await drain(conversation.submit('first question'));
    const failed = await drain(conversation.submit('this one fails'));
    expect(failed.at(-1)).toMatchObject({ type: 'turn-failed' });
    // A new process resumes it: its count starts from the file.
    await cody.close();
    cody = open();
    await drain((await cody.open(conversation.id)).submit('third question'));
    const store = new RolloutStore(resolveCodyPaths({ CODY_HOME: home }).conversationsDir);
    const transcript = await store.transcript(conversation.id);
    const recorded = transcript.entries.filter(
      (entry) => entry.kind === 'item' && isCountedMessage(entry.item),
    ).length;
    // first question, answer, the failed message, third question, answer
    expect(recorded).toBe(5);
    expect(store.summary(conversation.id).messageCount).toBe(recorded);
    expect((await store.readForResume(conversation.id)).messageCount).toBe(recorded);
    expect((await cody.get(conversation.id)).messageCount).toBe(recorded);
    expect(store.summary(conversation.id).preview).toBe('first question');
  });
});
