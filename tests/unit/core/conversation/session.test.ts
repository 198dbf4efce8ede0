/**
 * The session turn loop against a scripted model client, on a real temporary CODY_HOME: what lands on
 * disk, when, and what the model is sent.
 */
import { mkdtemp, open as openFile, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CodyConfig } from '../../../../src/core/config/config.js';
import { ConversationManager } from '../../../../src/core/store/conversation-manager.js';
import { ensureCodyHome, resolveCodyPaths } from '../../../../src/core/config/paths.js';
import type { RecorderFileSystem } from '../../../../src/core/rollout/index.js';
import {
  MAX_TOOL_ROUNDS_PER_TURN,
  Session,
  TurnFailedError,
  UnsentMessageError,
} from '../../../../src/core/conversation/session.js';
import type { SessionEvent } from '../../../../src/core/conversation/session-events.js';
import { startConversation } from '../../../../src/core/conversation/start-conversation.js';
import type { ToolRuntime } from '../../../../src/core/tools/tool-runtime.js';
import {
  MissingApiKeyError,
  ProviderError,
  type ClientOptions,
  type ModelClient,
  type ModelRequest,
  type StreamEvent,
} from '../../../../src/protocol/index.js';

type Script = (request: ModelRequest, index: number) => StreamEvent[] | Promise<StreamEvent[]>;

function reply(text: string): StreamEvent[] {
  return [
    { type: 'text-delta', text },
    { type: 'item', item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] } },
    { type: 'usage', usage: { inputTokens: 100, outputTokens: 10 } },
    { type: 'finish', reason: 'stop' },
  ];
}

function failure(kind: ProviderError['kind'], message: string = kind, statusCode?: number): StreamEvent[] {
  return [
    {
      type: 'error',
      error: new ProviderError({ api: 'openai-chat', kind, message, ...(statusCode ? { statusCode } : {}) }),
    },
    { type: 'finish', reason: 'error' },
  ];
}

class FakeClient implements ModelClient {
  readonly api = 'openai-chat' as const;
  readonly model = 'gpt-4.1-mini';
  readonly requests: ModelRequest[] = [];
  constructor(private readonly script: Script) {}
  async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
    this.requests.push({ ...request, items: [...request.items] });
    for (const event of await this.script(request, this.requests.length - 1)) yield event;
  }
}

function textsOf(request: ModelRequest | undefined): string[] {
  return (request?.items ?? []).map((item) => {
    if (item.type === 'message')
      return `${item.role}: ${item.content.map((part) => (part.type === 'input_image' ? '' : part.text)).join('')}`;
    if (item.type === 'function_call') return `call ${item.name} ${item.arguments}`;
    if (item.type === 'function_call_output')
      return `output ${typeof item.output === 'string' ? item.output : '[parts]'}`;
    return item.type;
  });
}

async function collect(generator: AsyncGenerator<SessionEvent>): Promise<SessionEvent[]> {
  const events: SessionEvent[] = [];
  for await (const event of generator) events.push(event);
  return events;
}

describe('Session (scripted model client, real files)', () => {
  let home: string;
  let manager: ConversationManager;
  let id: string;
  const config: CodyConfig = { retry: { baseDelayMs: 1, maxDelayMs: 5 } };

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'cody-session-'));
    const paths = resolveCodyPaths({ CODY_HOME: home });
    await ensureCodyHome(paths);
    manager = new ConversationManager(paths, { cliVersion: 'test' });
    id = await startConversation(manager, config, { cwd: '/work', now: new Date('2026-01-02T03:04:05Z') });
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  const open = (
    client: ModelClient,
    extra: { tools?: ToolRuntime; config?: CodyConfig; canAsk?: boolean } = {},
  ): Promise<Session> =>
    Session.open({
      manager,
      conversationId: id,
      config: extra.config ?? config,
      env: {},
      cwd: '/work',
      clientFactory: (_options: ClientOptions) => Promise.resolve(client),
      ...(extra.tools ? { tools: extra.tools } : {}),
      ...(extra.canAsk !== undefined ? { canAsk: extra.canAsk } : {}),
    });

  const lines = async (): Promise<Array<{ type: string; payload: Record<string, unknown> }>> =>
    (await readFile(manager.rolloutPath(id), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; payload: Record<string, unknown> });

  it('makes the user message durable before the request is sent, and the reply when it completes', async () => {
    let onDiskAtRequest: string[] = [];
    const client = new FakeClient(async () => {
      onDiskAtRequest = (await lines())
        .filter((line) => line.type === 'response_item')
        .map((line) => String(line.payload.role));
      return reply('hello back');
    });
    const session = await open(client);
    const events = await collect(session.submit('hello'));
    expect(onDiskAtRequest).toEqual(['system', 'user']);
    const written = await lines();
    expect(written[0]).toMatchObject({
      type: 'session_meta',
      payload: {
        id,
        cwd: '/work',
        originator: 'cody',
        cli_version: 'test',
        provider: 'openai',
        api: 'openai-chat',
      },
    });
    expect(written.filter((line) => line.type === 'turn_context')[0]?.payload).toMatchObject({
      provider: 'openai',
      api: 'openai-chat',
      model: 'gpt-5.4',
    });
    expect(
      written.filter((line) => line.payload.type === 'message').map((line) => line.payload.role),
    ).toEqual(['system', 'user', 'assistant']);
    expect(written.find((line) => line.payload.type === 'token_count')?.payload).toMatchObject({
      info: { last_token_usage: { input_tokens: 100, output_tokens: 10, total_tokens: 110 } },
    });
    expect(written.at(-1)?.payload).toMatchObject({ type: 'cody_turn_complete', message_count: 2 });
    expect(events.map((event) => (event.type === 'state' ? `state ${event.state}` : event.type))).toEqual([
      'turn-started',
      'state ProcessingUserMessage',
      'item-recorded',
      'state AwaitingLLMResponse',
      'state StreamingLLMResponse',
      'text-delta',
      'state ProcessingLLMResponse',
      'item-recorded',
      'usage',
      'state Idle',
      'turn-complete',
    ]);
    expect(session.status().state).toBe('Idle');
  });

  /** A file system whose writes fail (half the line reaches the disk first) from write number `failFrom` on. */
  const fullFrom = (failFrom: number): RecorderFileSystem => {
    let writes = 0;
    return {
      open: async (path, flags, mode) => {
        const handle = await openFile(path, flags, mode);
        return {
          write: async (buffer, offset, length, position) => {
            writes += 1;
            if (writes < failFrom) return handle.write(buffer, offset, length, position);
            await handle.write(buffer, offset, Math.floor(length / 2), position);
            throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
          },
          read: (target, offset, length, position) => handle.read(target, offset, length, position),
          sync: () => handle.sync(),
          truncate: (length) => handle.truncate(length),
          stat: () => handle.stat(),
          close: () => handle.close(),
        };
      },
      writeFile: (path, data, options) => writeFile(path, data, options),
    };
  };
  const openWith = (client: FakeClient, fileSystem: RecorderFileSystem): Promise<Session> =>
    Session.open({
      manager,
      conversationId: id,
      config,
      env: {},
      cwd: '/work',
      clientFactory: () => Promise.resolve(client),
      recorderOptions: { fileSystem },
    });

  it('sends nothing when the user message cannot be saved, and gives its text back (storage)', async () => {
    const before = await readFile(manager.rolloutPath(id), 'utf8');
    const client = new FakeClient(() => reply('never asked'));
    const error = await collect(
      (await openWith(client, fullFrom(1))).submit('a message worth keeping'),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnsentMessageError);
    expect(error).toMatchObject({ kind: 'storage', unsentText: 'a message worth keeping' });
    expect((error as Error).message).toMatch(/disk is full.*Nothing was sent\.$/);
    expect(client.requests).toHaveLength(0);
    expect(await readFile(manager.rolloutPath(id), 'utf8')).toBe(before);
  });

  it('still shows the reply when a later write fails, ends with a storage error, and never saves an answer without its question', async () => {
    // Write 1: turn_context; 2: the user message; 3 (the reply) fails.
    const client = new FakeClient(() => reply('still answered'));
    const events: SessionEvent[] = [];
    const error = await (async () => {
      for await (const event of (await openWith(client, fullFrom(3))).submit('hello')) events.push(event);
    })().catch((caught: unknown) => caught);
    expect(events.filter((event) => event.type === 'text-delta').map((event) => event.text)).toEqual([
      'still answered',
    ]);
    expect(events.filter((event) => event.type === 'warning')).toMatchObject([
      { message: expect.stringMatching(/disk is full.*The reply is still shown/) },
    ]);
    expect(error).toMatchObject({ kind: 'storage', message: expect.stringMatching(/shown but not saved/) });
    expect(client.requests).toHaveLength(1);
    const text = await readFile(manager.rolloutPath(id), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const roles = (await lines())
      .filter((line) => line.payload.type === 'message')
      .map((line) => line.payload.role);
    expect(roles).toEqual(['system', 'user']);
    // The next open (the disk has room again) closes the unfinished turn as interrupted before the new one.
    await collect((await open(new FakeClient(() => reply('next')))).submit('again'));
    const after = (await lines()).map((line) =>
      line.payload.type === 'message' ? `${String(line.payload.role)}` : String(line.payload.type),
    );
    const aborted = after.indexOf('cody_turn_aborted');
    expect(aborted).toBeGreaterThan(after.indexOf('user'));
    expect(aborted).toBeLessThan(after.lastIndexOf('user'));
    expect((await lines())[aborted]?.payload).toMatchObject({ reason: 'interrupted' });
    expect(after.filter((kind) => kind === 'assistant')).toHaveLength(1);
  });

  it('rebuilds the history on resume and continues it', async () => {
    await collect((await open(new FakeClient(() => reply('noted, Alice')))).submit('my name is Alice'));
    const client = new FakeClient(() => reply('Alice'));
    const resumed = await open(client);
    expect(textsOf({ items: [...resumed.history], tools: [] })).toEqual([
      expect.stringMatching(/^system: You are Cody/),
      'user: my name is Alice',
      'assistant: noted, Alice',
    ]);
    await collect(resumed.submit('what is my name?'));
    expect(textsOf(client.requests[0]).slice(1)).toEqual([
      'user: my name is Alice',
      'assistant: noted, Alice',
      'user: what is my name?',
    ]);
  });

  it('retries a retryable failure, says the partial reply is void, and records the reply once', async () => {
    const client = new FakeClient((_request, index) =>
      index === 0
        ? [{ type: 'text-delta', text: 'partial…' }, ...failure('network', 'socket hang up')]
        : reply('complete'),
    );
    const events = await collect((await open(client)).submit('flaky'));
    expect(events.find((event) => event.type === 'retry')).toMatchObject({
      attempt: 1,
      discardedPartial: true,
      reason: 'socket hang up',
    });
    const assistants = (await lines()).filter((line) => line.payload.role === 'assistant');
    expect(assistants.map((line) => line.payload.content)).toEqual([
      [{ type: 'output_text', text: 'complete' }],
    ]);
    expect(client.requests).toHaveLength(2);
  });

  it('stops a turn on a non-retryable error with the right exit code and records why', async () => {
    const client = new FakeClient(() => failure('auth', 'Incorrect API key provided', 401));
    const session = await open(client);
    const error = await collect(session.submit('hi')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TurnFailedError);
    expect((error as TurnFailedError).kind).toBe('auth');
    expect((error as TurnFailedError).message).toMatch(/HTTP 401.*OPENAI_API_KEY/);
    expect(client.requests).toHaveLength(1);
    const written = await lines();
    expect(written.find((line) => line.payload.type === 'cody_turn_aborted')?.payload).toMatchObject({
      reason: 'auth',
    });
    expect(written.filter((line) => line.payload.role === 'user')).toHaveLength(1);
  });

  it('records nothing when the client cannot be built (missing key)', async () => {
    const before = await readFile(manager.rolloutPath(id), 'utf8');
    const session = await Session.open({
      manager,
      conversationId: id,
      config,
      env: {},
      cwd: '/work',
      clientFactory: () => Promise.reject(new MissingApiKeyError('OPENAI_API_KEY', 'openai-chat')),
    });
    await expect(collect(session.submit('hi'))).rejects.toThrow(/OPENAI_API_KEY/);
    expect(await readFile(manager.rolloutPath(id), 'utf8')).toBe(before);
  });

  it('runs approved tool calls, records call and output, and sends them back', async () => {
    const client = new FakeClient((_request, index) =>
      index === 0
        ? [
            {
              type: 'item',
              item: { type: 'function_call', name: 'lookup', arguments: '{"q":"x"}', call_id: 'call_1' },
            },
            { type: 'finish', reason: 'tool-calls' },
          ]
        : reply('found it'),
    );
    const ran: string[] = [];
    const tools: ToolRuntime = {
      specs: () => [{ name: 'lookup', description: 'look something up', parameters: { type: 'object' } }],
      has: (name) => name === 'lookup',
      decide: () => Promise.resolve({ kind: 'allow' }),
      rememberApproval: () => undefined,
      isReadOnly: () => false,
      run: (call) => {
        ran.push(call.arguments);
        return Promise.resolve({ output: 'result for x', status: 'ok' });
      },
    };
    const events = await collect((await open(client, { tools })).submit('find x'));
    expect(ran).toEqual(['{"q":"x"}']);
    expect(events.find((event) => event.type === 'tool-call')).toMatchObject({ approved: true });
    expect(client.requests[0]?.tools.map((tool) => tool.name)).toEqual(['lookup']);
    expect(textsOf(client.requests[1]).slice(-2)).toEqual(['call lookup {"q":"x"}', 'output result for x']);
    const items = (await lines())
      .filter((line) => line.type === 'response_item')
      .map((line) => line.payload.type);
    expect(items).toEqual([
      'message',
      'message',
      'function_call',
      'function_call_output',
      'message',
      'cody_turn_complete',
    ]);
  });

  describe('approval as events', () => {
    const twoCalls = (): FakeClient =>
      new FakeClient((_request, index) =>
        index === 0
          ? [
              {
                type: 'item',
                item: { type: 'function_call', name: 'shell', arguments: '{"n":1}', call_id: 'c1' },
              },
              {
                type: 'item',
                item: { type: 'function_call', name: 'shell', arguments: '{"n":2}', call_id: 'c2' },
              },
              { type: 'finish', reason: 'tool-calls' },
            ]
          : reply('done'),
      );
    const askingTools = (ran: string[]): ToolRuntime => ({
      specs: () => [{ name: 'shell', description: 'run', parameters: { type: 'object' } }],
      has: (name) => name === 'shell',
      decide: (call) => Promise.resolve({ kind: 'ask', reason: `run ${call.arguments}` }),
      rememberApproval: () => undefined,
      isReadOnly: () => false,
      run: (call) => {
        ran.push(call.call_id);
        return Promise.resolve({ output: `ran ${call.call_id}`, exitCode: 0, status: 'ok' });
      },
    });

    it('waits for respond(): an approved call runs, a denied one tells the model', async () => {
      const ran: string[] = [];
      const client = twoCalls();
      const session = await open(client, { tools: askingTools(ran), canAsk: true });
      const events: SessionEvent[] = [];
      for await (const event of session.submit('go')) {
        events.push(event);
        if (event.type === 'approval-requested')
          expect(session.respond(event.id, event.call.call_id === 'c1' ? 'approve' : 'deny')).toBe(true);
      }
      expect(ran).toEqual(['c1']);
      const requested = events.filter((event) => event.type === 'approval-requested');
      expect(requested.map((event) => event.type === 'approval-requested' && event.reason)).toEqual([
        'run {"n":1}',
        'run {"n":2}',
      ]);
      expect(events.filter((event) => event.type === 'tool-finished')).toMatchObject([
        { callId: 'c1', status: 'ok', exitCode: 0 },
        { callId: 'c2', status: 'denied' },
      ]);
      expect(textsOf(client.requests[1]).slice(-4)).toEqual([
        'call shell {"n":1}',
        'call shell {"n":2}',
        'output ran c1',
        'output The user declined to run this tool call. Ask them how to proceed.',
      ]);
    });

    it('denies with a reason, without waiting, when nobody can answer', async () => {
      const ran: string[] = [];
      const client = twoCalls();
      const events = await collect(
        (await open(client, { tools: askingTools(ran), canAsk: false })).submit('go'),
      );
      expect(ran).toEqual([]);
      expect(events.some((event) => event.type === 'approval-requested')).toBe(false);
      expect(textsOf(client.requests[1]).at(-1)).toMatch(
        /^output Declined: this call needs approval \(run \{"n":2\}\)/,
      );
      expect(events.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
    });
  });

  it('stops a turn whose model never stops calling tools', async () => {
    const client = new FakeClient((_request, index) => [
      {
        type: 'item',
        item: { type: 'function_call', name: 'lookup', arguments: '{}', call_id: `call_${index}` },
      },
      { type: 'finish', reason: 'tool-calls' },
    ]);
    const tools: ToolRuntime = {
      specs: () => [{ name: 'lookup', description: 'look something up', parameters: { type: 'object' } }],
      has: () => true,
      decide: () => Promise.resolve({ kind: 'allow' }),
      rememberApproval: () => undefined,
      isReadOnly: () => false,
      run: () => Promise.resolve({ output: 'nothing found', status: 'ok' }),
    };
    const error = await collect((await open(client, { tools })).submit('loop forever')).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(TurnFailedError);
    expect((error as TurnFailedError).message).toMatch(/Stopped after 100 rounds of tool calls/);
    expect(client.requests).toHaveLength(MAX_TOOL_ROUNDS_PER_TURN);
    const written = await lines();
    expect(written.at(-1)?.payload).toMatchObject({ type: 'cody_turn_aborted', reason: 'tool-round-limit' });
    expect(written.filter((line) => line.payload.type === 'function_call_output')).toHaveLength(
      MAX_TOOL_ROUNDS_PER_TURN,
    );
  });

  it('compacts after a context-overflow error and retries the request once', async () => {
    const long = 'a long explanation of the build failure with stack traces and logs '.repeat(60);
    const first = await open(new FakeClient(() => reply(long)));
    for (let turn = 0; turn < 3; turn += 1) await collect(first.submit(`warm-up ${turn}`));
    const client = new FakeClient((request, index) => {
      if (index === 0) return failure('context-overflow', 'maximum context length exceeded');
      if (index === 1) return reply('SUMMARY: the user warmed up three times.');
      return reply('after compaction');
    });
    const events = await collect((await open(client)).submit('overflowing turn'));
    expect(events.find((event) => event.type === 'compaction-started')).toMatchObject({
      trigger: 'overflow',
    });
    expect(events.find((event) => event.type === 'compaction-finished')).toMatchObject({
      status: 'compacted',
    });
    expect(client.requests[1]?.tools).toEqual([]);
    expect(textsOf(client.requests[2]).join('\n')).toContain('SUMMARY: the user warmed up three times.');
    const written = await lines();
    const compacted = written.find((line) => line.type === 'compacted');
    expect(compacted?.payload.message).toBe('SUMMARY: the user warmed up three times.');
    expect(Array.isArray(compacted?.payload.replacement_history)).toBe(true);
    // A fresh resume starts from the compacted history.
    const resumed = await open(new FakeClient(() => reply('x')));
    expect(textsOf({ items: [...resumed.history], tools: [] }).join('\n')).toContain(
      'SUMMARY: the user warmed up three times.',
    );
    expect(resumed.status().compactions).toBe(1);
  });
});
