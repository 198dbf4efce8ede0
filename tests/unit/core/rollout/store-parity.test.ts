/**
 * Every reader of the RolloutStore (the listing's summary, resume, the transcript, the recap's tail and the
 * Codex import) fed the same rollouts says the same message count, preview and title: the definitions in
 * src/core/rollout/definitions.ts are the only ones (DECISIONS.md, "One definition of count, preview,
 * title"). The files: the Codex and Cody fixtures, and compacted, forked and undone conversations.
 */
import { copyFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUMMARY_PREFIX } from '../../../../src/core/rollout/summary-prefix.js';
import { countMessages, firstUserPreview } from '../../../../src/core/store/conversation-stats.js';
import {
  generateTitle,
  isCountedMessage,
  previewText,
  typedUserText,
} from '../../../../src/core/rollout/definitions.js';
import { importCodexRollout } from '../../../../src/core/rollout/codex-import.js';
import { RolloutStore } from '../../../../src/core/rollout/store.js';
import { recapMessages, type Transcript } from '../../../../src/core/rollout/transcript.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures');
const T = '2026-01-01T00:00:00.000Z';
/** The Cody fixture, written by an older build: its recorded count predates the one definition. */
const OLD_COUNT = '01a20573-a5ca-7225-b716-11f3eb52db29';

interface Reading {
  count?: number;
  preview?: string;
  title?: string;
}

const line = (type: string, payload: unknown): string => JSON.stringify({ timestamp: T, type, payload });
const meta = (id: string, extra: Record<string, unknown> = {}): string =>
  line('session_meta', {
    id,
    timestamp: T,
    provider: 'openai',
    api: 'openai-responses',
    model: 'gpt-5',
    ...extra,
  });
const say = (role: string, ...parts: unknown[]): string =>
  line('response_item', {
    type: 'message',
    role,
    content: parts.map((part) =>
      typeof part === 'string'
        ? { type: role === 'assistant' ? 'output_text' : 'input_text', text: part }
        : part,
    ),
  });
const turnComplete = (messageCount: number, first: string, extra: Record<string, unknown> = {}): string =>
  line('event_msg', {
    type: 'turn_complete',
    turn_id: 't',
    provider: 'openai',
    api: 'openai-responses',
    model: 'gpt-5',
    message_count: messageCount,
    first_user_message: first,
    ...extra,
  });
const CONTEXT = '<environment_context>\n  <cwd>/tmp</cwd>\n</environment_context>';
const LONG = `Please, could you refactor the **rollout readers** so that   every one of them\nagrees on counts and previews`;

/** Synthetic rollouts in Cody's shape: id → lines. */
function synthetic(): Record<string, string[]> {
  const plain = [
    say('system', 'You are Cody.'),
    say('user', CONTEXT),
    say('user', LONG),
    say('assistant', 'Done.'),
  ];
  return {
    '01a20573-a5ca-7225-b716-000000000001': [
      meta('01a20573-a5ca-7225-b716-000000000001'),
      ...plain,
      turnComplete(2, previewText(LONG)),
    ],
    // compacted: the summary enters the history as a user message; two more messages after it
    '01a20573-a5ca-7225-b716-000000000002': [
      meta('01a20573-a5ca-7225-b716-000000000002'),
      ...plain,
      turnComplete(2, previewText(LONG)),
      line('compacted', {
        message: 'summary',
        replacement_history: [
          { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'You are Cody.' }] },
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: LONG }] },
          {
            type: 'message',
            role: 'user',
            content: [{ type: 'input_text', text: `${SUMMARY_PREFIX}\nsummary` }],
          },
        ],
      }),
      say('user', 'and now the tests'),
      say('assistant', 'Tests written.'),
      turnComplete(4, previewText(LONG), { compaction_count: 1 }),
    ],
    // forked: the parent's history copied, then a turn of its own
    '01a20573-a5ca-7225-b716-000000000003': [
      meta('01a20573-a5ca-7225-b716-000000000003', {
        forked_from_id: '01a20573-a5ca-7225-b716-000000000001',
      }),
      ...plain,
      say('user', 'a fork of it'),
      say('assistant', 'Forked.'),
      turnComplete(4, previewText(LONG)),
    ],
    // undone: the second turn taken back by `cody undo`
    '01a20573-a5ca-7225-b716-000000000004': [
      meta('01a20573-a5ca-7225-b716-000000000004'),
      ...plain,
      turnComplete(2, previewText(LONG)),
      say('user', 'break everything'),
      say('assistant', 'Broken.'),
      turnComplete(4, previewText(LONG)),
      line('event_msg', { type: 'thread_rolled_back', num_turns: 1 }),
    ],
    // an image first: its preview is `[image]` and its words
    '01a20573-a5ca-7225-b716-000000000005': [
      meta('01a20573-a5ca-7225-b716-000000000005'),
      say('user', { type: 'input_image', image_url: 'data:image/png;base64,AAAA' }, 'what is this?'),
      say('assistant', 'A pixel.'),
      turnComplete(2, previewText('[image] what is this?')),
    ],
  };
}

let directory: string;
let store: RolloutStore;
const ids: string[] = [];

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'cody-store-parity-'));
  store = new RolloutStore(directory);
  for (const folder of ['codex-rollouts', 'cody-rollouts']) {
    for (const name of await readdir(join(FIXTURES, folder))) {
      const id = name.replace(/\.jsonl$/, '');
      await copyFile(join(FIXTURES, folder, name), store.path(id));
      ids.push(id);
    }
  }
  for (const [id, lines] of Object.entries(synthetic())) {
    await writeFile(store.path(id), `${lines.join('\n')}\n`);
    ids.push(id);
  }
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const withTitle = (count: number | undefined, preview: string | undefined): Reading => ({
  ...(count !== undefined ? { count } : {}),
  ...(preview !== undefined ? { preview, title: generateTitle(preview) } : {}),
});

function fromTranscript(transcript: Transcript): Reading {
  let count = 0;
  let first: string | undefined;
  for (const entry of transcript.entries) {
    if (entry.kind !== 'item' || entry.item.type !== 'message') continue;
    if (isCountedMessage(entry.item)) count += 1;
    first ??= typedUserText(entry.item);
  }
  return withTitle(count, first === undefined ? undefined : previewText(first));
}

async function readings(id: string): Promise<Record<string, Reading>> {
  const summary = store.summary(id);
  const resumed = await store.readForResume(id);
  const recap = recapMessages(await store.recentTranscript(id));
  const firstRecap = recap.find((message) => message.role === 'user');
  return {
    summary: withTitle(summary.messageCount, summary.preview),
    summaryTitle: withTitle(summary.messageCount, summary.title === undefined ? undefined : summary.preview),
    resume: withTitle(
      resumed.messageCount ?? countMessages(resumed.history),
      resumed.firstUserMessage !== undefined
        ? previewText(resumed.firstUserMessage)
        : firstUserPreview(resumed.history),
    ),
    transcript: fromTranscript(await store.transcript(id)),
    recap: withTitle(recap.length, firstRecap === undefined ? undefined : previewText(firstRecap.text)),
  };
}

/** The messages of the whole transcript, as the recap shows them. */
async function transcriptMessages(id: string): Promise<string[]> {
  return recapMessages(await store.transcript(id)).map((message) => `${message.role}: ${message.text}`);
}

describe('every reader of the store', () => {
  it('agrees on the message count, the preview and the title of every file', async () => {
    expect(ids.length).toBe(8);
    for (const id of ids) {
      const read = await readings(id);
      // The listing reads the head and the tail only: a file without any `turn_complete` (Codex's) has
      // no count there, and a preview past its head (256 KiB) is not looked for.
      const summaryHasCount = read.summary!.count !== undefined;
      const expected = { ...read.transcript! };
      // Written before this change: its last turn_complete missed the interrupted turn's message (below).
      if (id === OLD_COUNT) expected.count = 8;
      expect({ id, ...read.resume }).toEqual({ id, ...expected });
      expect({ id, ...read.summary }).toEqual({
        id,
        ...(summaryHasCount ? { count: expected.count } : {}),
        ...(read.summary!.preview !== undefined ? { preview: expected.preview, title: expected.title } : {}),
      });
      expect(read.summaryTitle).toEqual(read.summary);
    }
  });

  it('reads no preview past the listing head only where the file has none there', () => {
    const listed = ids.map((id) => store.summary(id)).filter((summary) => summary.preview !== undefined);
    // Every Cody-shaped file and the first Codex one show a preview in the listing.
    expect(listed.length).toBe(ids.length - 1);
  });

  it('shows in the recap the tail of the messages the transcript holds', async () => {
    for (const id of ids) {
      const recap = recapMessages(await store.recentTranscript(id)).map(
        (message) => `${message.role}: ${message.text}`,
      );
      const whole = await transcriptMessages(id);
      expect(recap.length).toBeGreaterThan(0);
      expect(whole.slice(whole.length - recap.length)).toEqual(recap);
    }
  });

  it('counts the turn an abort cut short, and keeps counting undone and compacted-away messages', async () => {
    // The Cody fixture: a resume after the interrupted turn counted from the turn_complete before it
    // (6) and missed its message; the file says 8, its transcript holds 9 (rollout-store-counts.test.ts beside
    // this file checks that a conversation recorded now says 9).
    const cody = await readings(OLD_COUNT);
    expect(cody.transcript!.count).toBe(9);
    expect(cody.summary!.count).toBe(8);
    // A message recorded after the last turn_complete (a turn cut short, the process gone) is counted.
    const cut = '01a20573-a5ca-7225-b716-000000000006';
    await writeFile(
      store.path(cut),
      `${[...synthetic()['01a20573-a5ca-7225-b716-000000000001']!, say('user', 'cut short')].join('\n')}\n`,
    );
    const counts = await readings(cut);
    expect([counts.summary!.count, counts.resume!.count, counts.transcript!.count]).toEqual([3, 3, 3]);
    await rm(store.path(cut));
    // Undone: two turns recorded, one taken back.
    expect((await readings('01a20573-a5ca-7225-b716-000000000004')).summary!.count).toBe(4);
    // Compacted: the summary message is no message of the conversation.
    expect((await readings('01a20573-a5ca-7225-b716-000000000002')).resume!.count).toBe(4);
  });

  it('never takes harness context or a compaction summary for what the person typed', async () => {
    for (const id of ids) {
      for (const text of await transcriptMessages(id)) {
        expect(text.startsWith(`user: ${SUMMARY_PREFIX}`)).toBe(false);
        expect(text).not.toMatch(/^user: \s*<environment_context>/);
      }
    }
    const image = await readings('01a20573-a5ca-7225-b716-000000000005');
    expect(image.summary).toEqual({
      count: 2,
      preview: '[image] what is this?',
      title: 'Image what is this',
    });
  });

  it('gives the Codex import the count and preview every reader gives', async () => {
    for (const folder of ['codex-rollouts']) {
      for (const [index, name] of (await readdir(join(FIXTURES, folder))).entries()) {
        const id = `01a20573-a5ca-7225-b716-00000000010${index}`;
        const converted = await importCodexRollout(join(FIXTURES, folder, name), store.path(id), {
          id,
          cliVersion: '0.0.0',
        });
        const read = await readings(id);
        expect(read.transcript!.count).toBe(converted.messageCount);
        expect(read.summary!.count).toBe(converted.messageCount);
        expect(read.resume!.count).toBe(converted.messageCount);
        expect(read.transcript!.preview).toBe(converted.firstUserMessage);
        expect(read.summary!.preview).toBe(converted.firstUserMessage);
        await rm(store.path(id));
      }
    }
  });
});
