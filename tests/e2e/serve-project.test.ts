/**
 * Issue 22 (parts 1 and 5) over `cody serve`: a message `/review …` posted to the REST API is expanded
 * by the engine exactly as `cody chat` does, after the project's AGENTS.md; an unknown `/x` is never sent.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { startServe, type ServeProcess } from './serve-harness.js';

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('cody serve: instructions and prompt commands', () => {
  let harness: Harness;
  let server: ServeProcess | undefined;
  beforeEach(async () => {
    harness = await createHarness();
    await harness.writeConfig({ provider: 'anthropic', api: 'messages', model: 'claude-sonnet-4-5' });
    const home = harness.env.CODY_HOME ?? '';
    await mkdir(join(home, 'prompts'), { recursive: true });
    await writeFile(join(home, 'prompts', 'review.md'), 'Review $1 please\n');
    await writeFile(join(harness.home, 'AGENTS.md'), 'SERVE-RULE\n');
  });
  afterEach(async () => {
    await server?.stop('SIGKILL');
    await harness.close();
  });

  it('expands /review after the instructions, and refuses /nosuch', async () => {
    server = await startServe(harness);
    const created = await server.api.request('POST', '/conversations', {});
    expect(created.status).toBe(201);
    const id = String(created.json.id);
    const posted = await server.api.request('POST', `/conversations/${id}/messages`, {
      text: '/review x.ts',
    });
    expect(posted.status).toBe(202);
    await until(() => harness.server.modelRequests().length === 1);
    const body = JSON.stringify(harness.server.modelRequests()[0]?.body);
    expect(body.indexOf('SERVE-RULE')).toBeGreaterThan(0);
    expect(body.indexOf('Review x.ts please')).toBeGreaterThan(body.indexOf('SERVE-RULE'));
    expect(body).not.toContain('/review x.ts');

    // The first turn ends (state Idle) before the next message, so a refusal is not a busy conversation.
    let state = '';
    for (let tries = 0; tries < 800 && state !== 'Idle'; tries += 1) {
      if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 25));
      state = String((await server.api.request('GET', `/conversations/${id}/state`)).json.state);
    }
    expect(state).toBe('Idle');
    const unknown = await server.api.request('POST', `/conversations/${id}/messages`, { text: '/nosuch' });
    expect([202, 400]).toContain(unknown.status);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(harness.server.modelRequests()).toHaveLength(1);
  });
});
