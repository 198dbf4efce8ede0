/**
 * What the fork tests share: an engine whose model answers `answer N` at once, with a 2,400-token window
 * (each compaction keeps ~400 tokens of the newest messages: two or three), and numbered questions of
 * ~150 tokens each.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCody, type Cody } from '../../../../src/core/engine/cody.js';
import type { TranscriptPage } from '../../../../src/core/rollout/transcript-page.js';
import type { ModelClient, ModelRequest, StreamEvent } from '../../../../src/protocol/index.js';

const MODEL = 'tiny-model';

class ReplyClient implements ModelClient {
  readonly api = 'openai-chat' as const;
  readonly model = MODEL;
  private count = 0;
  async *stream(_request: ModelRequest): AsyncGenerator<StreamEvent> {
    const text = `answer ${(this.count += 1)}`;
    yield { type: 'text-delta', text };
    yield {
      type: 'item',
      item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] },
    };
    yield { type: 'finish', reason: 'stop' };
  }
}

export type Entry = TranscriptPage['entries'][number];

/** A message of ~150 tokens, numbered so each is told apart by its start. */
export const question = (n: number): string =>
  `question ${n}: ${'the compiler reports seventeen warnings about unused imports again. '.repeat(12)}`;

/** The text of a user message entry (undefined for every other entry). */
export function userMessageText(entry: Entry): string | undefined {
  if (entry.kind !== 'item' || entry.item.type !== 'message' || entry.item.role !== 'user') return undefined;
  return entry.item.content.map((part) => ('text' in part ? part.text : '')).join('');
}

/** A new home with the tiny window in its config.json, and an engine on it; `close` removes both. */
export async function tinyWindowCody(
  prefix: string,
): Promise<{ home: string; cody: Cody; close(): Promise<void> }> {
  const home = await mkdtemp(join(tmpdir(), prefix));
  await writeFile(
    join(home, 'config.json'),
    JSON.stringify({
      provider: 'openai',
      api: 'chat',
      model: MODEL,
      models: { [MODEL]: { contextWindow: 2_400, maxOutputTokens: 200 } },
      compact: { auto: false },
    }),
  );
  const cody = createCody({
    home,
    env: {},
    cwd: home,
    tools: false,
    clientFactory: () => Promise.resolve(new ReplyClient()),
  });
  return {
    home,
    cody,
    close: async () => {
      await cody.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}
