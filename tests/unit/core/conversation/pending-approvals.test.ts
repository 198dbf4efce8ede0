/**
 * Approvals as conversation state in the library (issue 19 §6): what waits is listed with its tool,
 * arguments and reason; one nobody answers is declined "no answer" after `approvalTimeoutMs` and the
 * turn goes on; abort ends it at once; `cody.respond` finds it by id alone; idle conversations close.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCody, type Cody, type CreateCodyOptions } from '../../../../src/core/engine/cody.js';
import type { SessionEvent } from '../../../../src/core/conversation/session-events.js';
import type { ToolRuntime } from '../../../../src/core/tools/tool-runtime.js';
import type { ModelClient, ModelRequest, StreamEvent } from '../../../../src/protocol/index.js';

/** First a shell call, then a reply that says what the tool output was. */
class ToolThenReply implements ModelClient {
  readonly api = 'openai-chat' as const;
  readonly model = 'gpt-4.1-mini';
  readonly requests: ModelRequest[] = [];
  async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
    this.requests.push(request);
    if (this.requests.length % 2 === 1) {
      yield {
        type: 'item',
        item: {
          type: 'function_call',
          name: 'shell',
          arguments: '{"command":"rm -rf build"}',
          call_id: 'c1',
        },
      };
      yield { type: 'finish', reason: 'tool-calls' };
      return;
    }
    const text = 'done';
    yield { type: 'text-delta', text };
    yield {
      type: 'item',
      item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] },
    };
    yield { type: 'finish', reason: 'stop' };
  }
}

const shell = (ran: string[]): ToolRuntime => ({
  specs: () => [{ name: 'shell', description: 'run', parameters: { type: 'object' } }],
  has: (name) => name === 'shell',
  decide: () => Promise.resolve({ kind: 'ask', reason: 'deletes files', preview: '$ rm -rf build' }),
  rememberApproval: () => undefined,
  isReadOnly: () => false,
  run: (call) => {
    ran.push(call.call_id);
    return Promise.resolve({ output: 'removed', exitCode: 0, status: 'ok' });
  },
});

/** The text of the tool output the model was sent back in its second request. */
function outputSent(request: ModelRequest | undefined): string {
  const item = request?.items.find((entry) => entry.type === 'function_call_output');
  return item?.type === 'function_call_output' ? String(item.output) : '';
}

describe('pending approvals in the library', () => {
  let home: string;
  let client: ToolThenReply;
  let cody: Cody;
  const ran: string[] = [];
  const make = (options: Partial<CreateCodyOptions> = {}): Cody =>
    createCody({
      home,
      env: {},
      cwd: home,
      tools: shell(ran),
      clientFactory: () => Promise.resolve(client),
      ...options,
    });
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'cody-pending-'));
    client = new ToolThenReply();
    ran.length = 0;
  });
  afterEach(async () => {
    await cody.close();
    await rm(home, { recursive: true, force: true });
  });

  it('a loop that ignores approval-requested ends after approvalTimeoutMs: declined "no answer", the turn goes on', async () => {
    cody = make({ approvalTimeoutMs: 200 });
    const conversation = await cody.create();
    const events: SessionEvent[] = [];
    const started = Date.now();
    let listed: ReturnType<typeof conversation.pendingApprovals> = [];
    for await (const event of conversation.submit('clean up')) {
      events.push(event);
      if (event.type === 'approval-requested') listed = conversation.pendingApprovals();
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    const requested = events.find((event) => event.type === 'approval-requested');
    expect(listed).toEqual([
      {
        id: requested?.type === 'approval-requested' ? requested.id : 'missing',
        callId: 'c1',
        tool: 'shell',
        arguments: '{"command":"rm -rf build"}',
        reason: 'deletes files',
        preview: '$ rm -rf build',
        requestedAt: expect.any(String) as string,
        expiresAt: expect.any(String) as string,
        request: requested,
      },
    ]);
    const [first] = listed;
    expect(Date.parse(first?.expiresAt ?? '') - Date.parse(first?.requestedAt ?? '')).toBe(200);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'approval-resolved', decision: 'deny', reason: 'no answer' }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'tool-call',
        approved: false,
        declinedBy: 'no-answer',
        reason: 'no answer',
      }),
    );
    expect(events.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
    expect(ran).toEqual([]);
    expect(conversation.pendingApprovals()).toEqual([]);
    // On the wire: the model's next request carries the reason, in that call's output.
    expect(client.requests).toHaveLength(2);
    expect(outputSent(client.requests[1])).toMatch(/^Declined: no answer\. .*deletes files/);
    // A late answer finds nothing waiting.
    expect(conversation.respond(first?.id ?? '', 'approve')).toBe(false);
  });

  it('reads approvalTimeoutMs from config.json (the option wins over it)', async () => {
    await writeFile(join(home, 'config.json'), JSON.stringify({ approvalTimeoutMs: 150 }));
    cody = make();
    const conversation = await cody.create();
    const events: SessionEvent[] = [];
    for await (const event of conversation.submit('clean up')) events.push(event);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'approval-resolved', reason: 'no answer' }),
    );
    await cody.close();
    cody = make({ approvalTimeoutMs: 0 });
    const waiting = await cody.open(conversation.id);
    const iterator = waiting.submit('again')[Symbol.asyncIterator]();
    for (let step = await iterator.next(); step.done !== true; step = await iterator.next()) {
      if (step.value.type === 'approval-requested') break;
    }
    // 0: no deadline; it waits until answered.
    expect(waiting.pendingApprovals()).toEqual([
      expect.not.objectContaining({ expiresAt: expect.anything() }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(waiting.pendingApprovals()).toHaveLength(1);
    await iterator.return?.(undefined);
  });

  it('cody.respond answers by the approval id alone; abort ends a waiting turn at once', async () => {
    cody = make();
    const conversation = await cody.create();
    const answered: SessionEvent[] = [];
    for await (const event of conversation.submit('clean up')) {
      answered.push(event);
      if (event.type === 'approval-requested')
        expect(cody.respond(event.id, 'approve')).toBe(conversation.id);
    }
    expect(ran).toEqual(['c1']);
    expect(cody.respond('no-such-approval', 'approve')).toBeUndefined();

    const events: SessionEvent[] = [];
    let abortedAt = 0;
    for await (const event of conversation.submit('again')) {
      events.push(event);
      if (event.type === 'approval-requested') {
        abortedAt = Date.now();
        expect(cody.abort(conversation.id)).toBe(true);
      }
    }
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
    expect(events.at(-1)).toMatchObject({ type: 'turn-complete', status: 'interrupted' });
    expect(conversation.pendingApprovals()).toEqual([]);
    const rollout = await readFile(join(home, 'conversations', `${conversation.id}.jsonl`), 'utf8');
    expect(rollout.trim().split('\n').at(-1)).toContain('"cody_turn_aborted"');
  });

  it('delete with abortRunning ends a turn waiting for an approval and removes the conversation', async () => {
    cody = make();
    const conversation = await cody.create();
    const iterator = conversation.submit('clean up')[Symbol.asyncIterator]();
    const events: SessionEvent[] = [];
    const drained = (async () => {
      for (let step = await iterator.next(); step.done !== true; step = await iterator.next())
        events.push(step.value);
    })();
    await vi.waitFor(() => expect(conversation.pendingApprovals()).toHaveLength(1));
    await expect(cody.delete(conversation.id)).rejects.toMatchObject({ kind: 'busy' });
    await cody.delete(conversation.id, { abortRunning: true });
    await drained;
    expect(events.at(-1)).toMatchObject({ type: 'turn-complete', status: 'interrupted' });
    expect(await cody.list()).toEqual([]);
  });

  it('closes a conversation left idle for idleCloseMs, unless held or running; open gives a new one', async () => {
    cody = make({ idleCloseMs: 40 });
    const closed: string[] = [];
    cody.onClose((id) => closed.push(id));
    const idle = await cody.create();
    const held = await cody.create();
    const release = cody.hold(held.id);
    await vi.waitFor(() => expect(closed).toEqual([idle.id]), { timeout: 5_000 });
    expect(() => idle.submit('x')).toThrow(expect.objectContaining({ kind: 'usage' }));
    const reopened = await cody.open(idle.id);
    expect(reopened).not.toBe(idle);
    expect(await cody.open(held.id)).toBe(held);
    release();
    await vi.waitFor(() => expect(closed).toContain(held.id), { timeout: 5_000 });
    // A turn waiting for an answer keeps its conversation open however long it waits.
    await cody.close();
    closed.length = 0;
    cody = make({ idleCloseMs: 40, approvalTimeoutMs: 0 });
    cody.onClose((id) => closed.push(id));
    const running = await cody.create();
    const iterator = running.submit('clean up')[Symbol.asyncIterator]();
    for (let step = await iterator.next(); step.done !== true; step = await iterator.next())
      if (step.value.type === 'approval-requested') break;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(closed).toEqual([]);
    expect(running.busy).toBe(true);
    await iterator.return?.(undefined);
  });
});
