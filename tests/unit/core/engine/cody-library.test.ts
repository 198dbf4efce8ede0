/**
 * createCody, the engine as a library: the store (create, list, get, fork, transcript, delete) and live
 * conversations (submit's event stream, approval through respond, busy, abort), on a real temporary home.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCody, type Cody } from '../../../../src/core/engine/cody.js';
import { writeTitle } from '../../../../src/core/store/conversation-titles.js';
import type { SessionEvent } from '../../../../src/core/conversation/session-events.js';
import type { ToolRuntime } from '../../../../src/core/tools/tool-runtime.js';
import type { ModelClient, ModelRequest, StreamEvent } from '../../../../src/protocol/index.js';

function reply(text: string): StreamEvent[] {
  return [
    { type: 'text-delta', text },
    { type: 'item', item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] } },
    { type: 'finish', reason: 'stop' },
  ];
}

class ScriptClient implements ModelClient {
  readonly api = 'openai-chat' as const;
  readonly model = 'gpt-4.1-mini';
  readonly requests: ModelRequest[] = [];
  constructor(
    private readonly script: (index: number, request: ModelRequest) => StreamEvent[] | Promise<StreamEvent[]>,
  ) {}
  async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
    this.requests.push(request);
    for (const event of await this.script(this.requests.length - 1, request)) {
      if (request.signal?.aborted) {
        const { ProviderError } = await import('../../../../src/protocol/index.js');
        yield {
          type: 'error',
          error: new ProviderError({ api: 'openai-chat', kind: 'aborted', message: 'aborted' }),
        };
        return;
      }
      yield event;
    }
  }
}

const shellTool = (ran: string[]): ToolRuntime => ({
  specs: () => [{ name: 'shell', description: 'run', parameters: { type: 'object' } }],
  has: (name) => name === 'shell',
  decide: () => Promise.resolve({ kind: 'ask', reason: 'run: ls' }),
  rememberApproval: () => undefined,
  isReadOnly: () => false,
  run: (call) => {
    ran.push(call.call_id);
    return Promise.resolve({ output: 'a.txt', exitCode: 0, status: 'ok' });
  },
});

async function drain(
  events: AsyncIterable<SessionEvent>,
  onEvent?: (event: SessionEvent) => void,
): Promise<SessionEvent[]> {
  const seen: SessionEvent[] = [];
  for await (const event of events) {
    seen.push(event);
    onEvent?.(event);
  }
  return seen;
}

describe('createCody', () => {
  let home: string;
  let cody: Cody;
  let client: ScriptClient;
  const ran: string[] = [];
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'cody-library-'));
    ran.length = 0;
    client = new ScriptClient((index) =>
      index === 0
        ? [
            {
              type: 'item',
              item: { type: 'function_call', name: 'shell', arguments: '{"command":"ls"}', call_id: 'c1' },
            },
            { type: 'finish', reason: 'tool-calls' },
          ]
        : reply(`answer ${index}`),
    );
    cody = createCody({
      home,
      env: {},
      cwd: home,
      tools: shellTool(ran),
      clientFactory: () => Promise.resolve(client),
    });
  });
  afterEach(async () => {
    await cody.close();
    await rm(home, { recursive: true, force: true });
  });

  it('creates a conversation, streams a turn with an approval answered in code, and lists it', async () => {
    const conversation = await cody.create({ provider: 'openai', api: 'chat', model: 'gpt-4.1-mini' });
    const events = await drain(conversation.submit('list the files'), (event) => {
      if (event.type === 'approval-requested') conversation.respond(event.id, 'approve');
    });
    expect(ran).toEqual(['c1']);
    expect(events.filter((event) => event.type === 'approval-requested')).toMatchObject([
      { reason: 'run: ls', call: { call_id: 'c1' } },
    ]);
    expect(
      events
        .filter((event) => event.type === 'text-delta')
        .map((event) => event.text)
        .join(''),
    ).toBe('answer 1');
    const terminal = events.filter((event) => event.type === 'turn-complete' || event.type === 'turn-failed');
    expect(terminal).toEqual([expect.objectContaining({ type: 'turn-complete', status: 'completed' })]);
    expect(events.at(-1)).toBe(terminal[0]);
    expect(conversation.status()).toMatchObject({ state: 'Idle', provider: 'openai', model: 'gpt-4.1-mini' });
    const listed = await cody.list();
    expect(listed.map((summary) => summary.id)).toEqual([conversation.id]);
    expect(await cody.get(conversation.id.slice(0, 13))).toMatchObject({
      id: conversation.id,
      messageCount: 2,
      title: 'List the files',
    });
    // A title set with `cody rename` is what the library lists and gets, as `cody list` shows it.
    await writeTitle(home, conversation.id, 'Files, renamed');
    expect((await cody.list())[0]?.title).toBe('Files, renamed');
    expect((await cody.get(conversation.id)).title).toBe('Files, renamed');
    expect(await cody.open(conversation.id)).toBe(conversation);
  });

  it("refuses a second submit while a turn runs with kind 'busy', and abort() ends the first as interrupted", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    client = new ScriptClient(async () => {
      await gate;
      return reply('late');
    });
    const conversation = await cody.create();
    const first = conversation.submit('slow');
    const firstDone = drain(first);
    expect(() => conversation.submit('second')).toThrow(expect.objectContaining({ kind: 'busy' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(cody.abort(conversation.id)).toBe(true);
    release();
    const events = await firstDone;
    expect(events.at(-1)).toMatchObject({ type: 'turn-complete', status: 'interrupted' });
    // Free again: the next turn runs.
    client = new ScriptClient(() => reply('fine'));
    const again = await drain(conversation.submit('again'));
    expect(again.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
  });

  it('ends a failing turn with one turn-failed event (kind and message), never a throw', async () => {
    client = new ScriptClient(async () => {
      const { ProviderError } = await import('../../../../src/protocol/index.js');
      return [
        {
          type: 'error',
          error: new ProviderError({ api: 'openai-chat', kind: 'auth', message: 'bad key', statusCode: 401 }),
        },
        { type: 'finish', reason: 'error' },
      ];
    });
    const conversation = await cody.create();
    const events = await drain(conversation.submit('hi'));
    expect(events.at(-1)).toMatchObject({
      type: 'turn-failed',
      error: { kind: 'auth', message: expect.stringMatching(/HTTP 401/) },
    });
    expect(
      events.filter((event) => event.type === 'turn-failed' || event.type === 'turn-complete'),
    ).toHaveLength(1);
  });

  it('forks through a user turn, like cody fork --at (parent id and branch message recorded), and pages the transcript', async () => {
    client = new ScriptClient((index) => reply(`answer ${index}`));
    const conversation = await cody.create();
    await drain(conversation.submit('first question'));
    await drain(conversation.submit('second question'));
    // atUserTurn: 1 keeps user turn 1 (and its answer), as `cody fork --at 1` does.
    const fork = await cody.fork(conversation.id, { atUserTurn: 1 });
    expect(fork.id).not.toBe(conversation.id);
    const head = JSON.parse(
      (await readFile(join(home, 'conversations', `${fork.id}.jsonl`), 'utf8')).split('\n')[0] ?? '{}',
    ) as {
      payload: Record<string, unknown>;
    };
    expect(head.payload).toMatchObject({ parent_id: conversation.id, forked_at_message: 'second question' });
    const page1 = await cody.transcript(fork.id, { limit: 2 });
    expect(page1.entries).toHaveLength(2);
    expect(page1.next).toBe('2');
    const page2 = await cody.transcript(fork.id, { after: page1.next, limit: 100 });
    const texts = [...page1.entries, ...page2.entries].map((entry) => JSON.stringify(entry));
    expect(texts.join('\n')).toContain('first question');
    expect(texts.join('\n')).toContain('answer 0');
    expect(texts.join('\n')).not.toContain('second question');
    expect(page2.next).toBeUndefined();
    await expect(cody.fork(conversation.id, { atUserTurn: 3 })).rejects.toMatchObject({ kind: 'usage' });
    await cody.delete(fork.id);
    expect((await cody.list()).map((summary) => summary.id)).toEqual([conversation.id]);
  });

  it('a conversation keeps its own provider and model when opened again; setSelection changes them', async () => {
    const conversation = await cody.create({ provider: 'anthropic', model: 'claude-sonnet-4-6' });
    expect(conversation.status()).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-6' });
    await cody.close();
    // A new process (a new createCody) with config.json's default (openai): the conversation's own wins.
    const again = createCody({
      home,
      env: {},
      cwd: home,
      tools: false,
      clientFactory: () => Promise.resolve(client),
    });
    try {
      const reopened = await again.open(conversation.id);
      expect(reopened.status()).toMatchObject({
        provider: 'anthropic',
        api: 'anthropic-messages',
        model: 'claude-sonnet-4-6',
      });
      reopened.setSelection({ provider: 'google', model: 'gemini-2.5-flash' });
      await drain(reopened.submit('switch'));
      await again.close();
      const third = createCody({
        home,
        env: {},
        cwd: home,
        tools: false,
        clientFactory: () => Promise.resolve(client),
      });
      const last = await third.open(conversation.id);
      expect(last.status()).toMatchObject({ provider: 'google', api: 'gemini', model: 'gemini-2.5-flash' });
      expect(() => last.setSelection({ provider: 'nope' as 'openai' })).toThrow(
        expect.objectContaining({ kind: 'usage' }),
      );
      await third.close();
    } finally {
      await again.close();
    }
  });
});
