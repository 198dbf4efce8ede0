/**
 * A new conversation shown before it exists (the REPL's bare `cody`, `/new`): `Cody.draft` gives
 * its id and a live conversation at once, writes nothing until the first turn, and then writes the
 * rollout under that id with the selection in force and makes it the CLI's active conversation.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCody, type Cody } from '../../../../src/core/engine/cody.js';
import type { ModelClient, ModelRequest, StreamEvent } from '../../../../src/protocol/index.js';

class EchoClient implements ModelClient {
  readonly api = 'openai-chat' as const;
  readonly model = 'gpt-4.1-mini';
  readonly requests: ModelRequest[] = [];
  async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
    this.requests.push(request);
    await Promise.resolve();
    const item = { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hi' }] };
    yield { type: 'item', item } as StreamEvent;
    yield { type: 'finish', reason: 'stop' };
  }
}

describe('a draft conversation', () => {
  let home: string;
  let cody: Cody;
  let client: EchoClient;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'cody-draft-'));
    client = new EchoClient();
    cody = createCody({ home, env: {}, cwd: home, clientFactory: () => Promise.resolve(client) });
  });
  afterEach(async () => {
    await cody.close();
    await rm(home, { recursive: true, force: true });
  });
  const rollouts = async (): Promise<string[]> =>
    (await readdir(join(home, 'conversations')).catch(() => [])).filter((name) => name.endsWith('.jsonl'));

  it('writes nothing until its first turn; status, policy and selection work before it', async () => {
    const draft = cody.draft({ activate: true });
    const conversation = await draft.open();
    expect(conversation.id).toBe(draft.id);
    expect(await draft.open()).toBe(conversation);
    conversation.setSelection({ provider: 'openai', api: 'openai-chat', model: 'gpt-4o-mini' });
    conversation.setApprovalPolicy('auto-edit');
    expect(conversation.status()).toMatchObject({ id: draft.id, model: 'gpt-4o-mini', items: 1 });
    expect(await cody.list()).toEqual([]);
    expect(await rollouts()).toEqual([]);
    await cody.close();
    expect(await rollouts()).toEqual([]);
    expect(await cody.active()).toBeUndefined();
  });

  it('its first turn writes it under its id, with the selection then in force, and makes it active', async () => {
    const draft = cody.draft({ activate: true });
    const conversation = await draft.open();
    conversation.setSelection({ provider: 'openai', api: 'openai-chat', model: 'gpt-4o-mini' });
    const events = [];
    for await (const event of conversation.submit('hello')) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
    expect(await rollouts()).toEqual([`${draft.id}.jsonl`]);
    const lines = (await readFile(join(home, 'conversations', `${draft.id}.jsonl`), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; payload: Record<string, unknown> });
    expect(lines[0]).toMatchObject({ type: 'session_meta', payload: { id: draft.id, model: 'gpt-4o-mini' } });
    // The system message once (from the draft), then the turn.
    expect(
      lines.filter((line) => line.payload.role === 'system' || line.payload.role === 'developer'),
    ).toHaveLength(1);
    expect(JSON.stringify(lines)).toContain('hello');
    expect(await cody.active()).toBe(draft.id);
    // The model got the system message and the question, as a conversation created at once would send.
    expect(client.requests[0]?.items.map((item) => item.type)).toEqual(['message', 'message']);
    expect((await cody.list()).map((summary) => summary.id)).toEqual([draft.id]);
  });

  it("with activate: false it stays out of the CLI's active pointer", async () => {
    const draft = cody.draft({ activate: false });
    const conversation = await draft.open();
    for await (const event of conversation.submit('hello')) void event;
    expect(await rollouts()).toEqual([`${draft.id}.jsonl`]);
    expect(await cody.active()).toBeUndefined();
  });
});
