/**
 * The approval policy belongs to a conversation (issue 9): a conversation started with `--approval
 * auto-edit` keeps it on the next `cody chat` without a flag (recorded in turn_context), a flag
 * overrides it for that run, another conversation keeps the configured default, and `cody serve`
 * changes it per conversation.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, linesOfType, type Harness } from './harness.js';
import { startServe } from './serve-harness.js';
import { makeRepo } from './tool-fixtures.js';

describe('approval policy per conversation (e2e)', () => {
  let harness: Harness;
  let turn = 0;
  const writeCall = (path: string) => {
    turn += 1;
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [{ id: `call_${turn}`, name: 'write_file', arguments: { path, content: 'x' } }],
      },
      { type: 'reply', text: 'ok' },
    );
  };
  const lastOutput = (): string => {
    const body = harness.server.modelRequests().at(-1)?.body as {
      messages: Array<{ role: string; content: unknown }>;
    };
    return String(body.messages.filter((message) => message.role === 'tool').at(-1)?.content);
  };
  beforeEach(async () => {
    harness = await createHarness();
    await makeRepo(harness.home);
    await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-4o-mini' });
  });
  afterEach(async () => {
    await harness.close();
  });

  it('is kept with the conversation, overridden by a flag, and set over the API', async () => {
    const id = (await harness.cody(['new'])).stdout.trim();
    writeCall('one.txt');
    expect((await harness.cody(['chat', '--approval', 'auto-edit', 'write one'])).code).toBe(0);
    expect(lastOutput()).toBe('Wrote one.txt.');

    // No flag, no terminal to ask: the conversation's own auto-edit applies, so the write runs.
    writeCall('two.txt');
    expect((await harness.cody(['chat', 'write two'])).code).toBe(0);
    expect(lastOutput()).toBe('Wrote two.txt.');
    const contexts = linesOfType(await harness.rollout(id), 'turn_context').map((line) => line.payload);
    expect(contexts.map((context) => context.cody_approval_policy)).toEqual(['auto-edit', 'auto-edit']);

    // --approval full-auto applies to its run only (issue 19): the conversation keeps auto-edit.
    writeCall('free.txt');
    expect((await harness.cody(['chat', '--approval', 'full-auto', 'write free'])).code).toBe(0);
    expect(lastOutput()).toBe('Wrote free.txt.');
    const flagged = linesOfType(await harness.rollout(id), 'turn_context').at(-1)?.payload;
    expect(flagged).toMatchObject({ cody_approval_policy: 'full-auto', cody_approval_kept: 'auto-edit' });
    expect((await harness.cody(['status'])).stdout).toMatch(
      /^Approval: +auto-edit \(kept by this conversation;/m,
    );

    // Another flag wins for its run (and is what the conversation keeps from then on).
    writeCall('three.txt');
    expect((await harness.cody(['chat', '--approval', 'read-only', 'write three'])).code).toBe(0);
    expect(lastOutput()).toMatch(/^Declined by policy: .*read-only/);

    // Another conversation has the configured default (ask): with nobody to ask, declined.
    expect((await harness.cody(['new'])).code).toBe(0);
    writeCall('four.txt');
    expect((await harness.cody(['chat', 'write four'])).code).toBe(0);
    expect(lastOutput()).toMatch(/needs approval .* nobody can approve it here/);

    // Over the API, per conversation.
    const server = await startServe(harness);
    try {
      const bad = await server.api.request('PUT', `/conversations/${id}/approval-policy`, { policy: 'yolo' });
      expect(bad.status).toBe(400);
      const set = await server.api.request('PUT', `/conversations/${id}/approval-policy`, {
        policy: 'full-auto',
      });
      expect(set.status).toBe(200);
      expect(set.json).toMatchObject({ status: { approvalPolicy: 'full-auto' } });
    } finally {
      await server.stop('SIGTERM');
    }
    await expect(readFile(join(harness.home, 'three.txt'), 'utf8')).rejects.toThrow(/ENOENT/);
  }, 60_000);
});
