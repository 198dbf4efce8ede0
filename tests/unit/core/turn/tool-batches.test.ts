/**
 * Several calls in one response through the session's turn loop: consecutive read-only calls run at the
 * same time, the rest one after another, and every call gets exactly one output, in call order; a ghost
 * snapshot is recorded before the first call that may change files; tool events carry durations.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationManager } from '../../../../src/core/store/conversation-manager.js';
import { ensureCodyHome, resolveCodyPaths } from '../../../../src/core/config/paths.js';
import { Session } from '../../../../src/core/conversation/session.js';
import type { SessionEvent } from '../../../../src/core/conversation/session-events.js';
import { startConversation } from '../../../../src/core/conversation/start-conversation.js';
import type { ToolRuntime } from '../../../../src/core/tools/tool-runtime.js';
import type {
  FunctionCallItem,
  ModelClient,
  ModelRequest,
  StreamEvent,
} from '../../../../src/protocol/index.js';

const call = (name: string, id: string): FunctionCallItem => ({
  type: 'function_call',
  name,
  arguments: '{}',
  call_id: id,
});

class TwoStepClient implements ModelClient {
  readonly api = 'openai-chat' as const;
  readonly model = 'gpt-4.1-mini';
  readonly requests: ModelRequest[] = [];
  constructor(private readonly calls: FunctionCallItem[]) {}
  async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
    this.requests.push({ ...request, items: [...request.items] });
    if (this.requests.length === 1) {
      for (const item of this.calls) yield { type: 'item', item };
      yield { type: 'finish', reason: 'tool-calls' };
      return;
    }
    yield {
      type: 'item',
      item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] },
    };
    yield { type: 'finish', reason: 'stop' };
  }
}

describe('tool calls in one response', () => {
  let home: string;
  let manager: ConversationManager;
  let id: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'cody-batches-'));
    const paths = resolveCodyPaths({ CODY_HOME: home });
    await ensureCodyHome(paths);
    manager = new ConversationManager(paths, { cliVersion: 'test' });
    id = await startConversation(manager, {}, { cwd: '/work' });
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('runs consecutive reads together, the rest in order, one output per call in call order', async () => {
    const log: string[] = [];
    let readsRunning = 0;
    let maxReadsTogether = 0;
    const tools: ToolRuntime = {
      specs: () =>
        ['read', 'write'].map((name) => ({ name, description: name, parameters: { type: 'object' } })),
      has: () => true,
      decide: () => Promise.resolve({ kind: 'allow' }),
      rememberApproval: () => undefined,
      isReadOnly: (item) => item.name === 'read',
      snapshot: () => {
        log.push('snapshot');
        return Promise.resolve({
          type: 'ghost_snapshot',
          ghost_commit: {
            id: 'a'.repeat(40),
            parent: null,
            preexisting_untracked_files: [],
            preexisting_untracked_dirs: [],
          },
        });
      },
      run: async (item, context) => {
        log.push(`start ${item.call_id}`);
        if (item.name === 'read') {
          readsRunning += 1;
          maxReadsTogether = Math.max(maxReadsTogether, readsRunning);
          // The first read finishes last: outputs must still come in call order.
          await new Promise((resolve) => setTimeout(resolve, item.call_id === 'r1' ? 80 : 10));
          readsRunning -= 1;
        } else {
          context.onOutput?.(`progress of ${item.call_id}\n`);
        }
        log.push(`end ${item.call_id}`);
        return {
          output: `output of ${item.call_id}`,
          status: 'ok',
          ...(item.name === 'write' ? { exitCode: 0 } : {}),
        };
      },
    };
    const client = new TwoStepClient([
      call('read', 'r1'),
      call('read', 'r2'),
      call('write', 'w1'),
      call('read', 'r3'),
      call('write', 'w2'),
    ]);
    const session = await Session.open({
      manager,
      conversationId: id,
      config: {},
      env: {},
      cwd: '/work',
      clientFactory: () => Promise.resolve(client),
      tools,
    });
    const events: SessionEvent[] = [];
    for await (const event of session.submit('go')) events.push(event);

    expect(maxReadsTogether).toBe(2);
    expect(log.slice(0, 2).sort()).toEqual(['start r1', 'start r2']);
    // One snapshot, before the first change; writes run alone, in order.
    expect(log.slice(4)).toEqual([
      'snapshot',
      'start w1',
      'end w1',
      'start r3',
      'end r3',
      'start w2',
      'end w2',
    ]);
    const outputs = client.requests[1]?.items.filter((item) => item.type === 'function_call_output');
    expect(outputs?.map((item) => (item.type === 'function_call_output' ? item.call_id : ''))).toEqual([
      'r1',
      'r2',
      'w1',
      'r3',
      'w2',
    ]);
    // Never sent to the model.
    expect(client.requests[1]?.items.some((item) => item.type === 'ghost_snapshot')).toBe(false);
    expect(events.filter((event) => event.type === 'tool-output')).toEqual([
      { type: 'tool-output', callId: 'w1', chunk: 'progress of w1\n' },
      { type: 'tool-output', callId: 'w2', chunk: 'progress of w2\n' },
    ]);
    const finished = events.filter((event) => event.type === 'tool-finished');
    expect(finished.map((event) => (event.type === 'tool-finished' ? event.callId : ''))).toEqual([
      'r1',
      'r2',
      'w1',
      'r3',
      'w2',
    ]);
    expect(finished.find((event) => event.type === 'tool-finished' && event.callId === 'w1')).toMatchObject({
      status: 'ok',
      exitCode: 0,
    });
    for (const event of finished)
      if (event.type === 'tool-finished') expect(event.durationMs).toBeGreaterThanOrEqual(0);
    const recorded = (await readFile(manager.rolloutPath(id), 'utf8'))
      .split('\n')
      .filter((line) => line.includes('"ghost_snapshot"'));
    expect(recorded).toHaveLength(1);
  });
});
