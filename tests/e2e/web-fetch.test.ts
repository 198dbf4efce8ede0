/**
 * web_fetch (issue 22, part 4) through createCody on the fake provider, against a loopback page server
 * (so `webFetch.allowPrivate` is on): it asks under ask and auto-edit, runs unasked for a host in
 * `webFetch.allowedHosts`, is refused under read-only (nothing is fetched), and the model gets the page as
 * Markdown; then the built `cody chat` does the same from config.json.
 */
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCody } from '../../src/index.js';
import type { SessionEvent } from '../../src/core/conversation/session-events.js';
import type { ReplyStep } from '../fake-provider/types.js';
import { CODY_BIN, createHarness, type Harness, linesOfType } from './harness.js';
import { startPageServer, type PageServer } from './page-server.js';

const SECTION =
  '<section><h2>A heading</h2><p>A paragraph with <a href="/next">a link</a> and <em>some emphasis</em>, long enough to read as text.</p><ul><li>one</li><li>two</li></ul></section>';
/** Within web_fetch's limits, and seconds of work to convert (issue 36, item 7). */
const PAGES = {
  '/deep': `<html><body>${'<div>x'.repeat(5_000)}</body></html>`,
  '/slow': `<html><body><article>${SECTION.repeat(Math.floor((1.9 * 1024 * 1024) / SECTION.length))}</article></body></html>`,
};

describe('web_fetch', () => {
  let harness: Harness;
  let page: PageServer;
  beforeEach(async () => {
    harness = await createHarness();
    page = await startPageServer(PAGES);
  });
  afterEach(async () => {
    await page.close();
    await harness.close();
  });

  const script = (): void => {
    harness.server.enqueue(
      { type: 'reply', toolCalls: [{ id: 'fetch_1', name: 'web_fetch', arguments: { url: page.url } }] },
      { type: 'reply', text: 'It says forty-two.' },
    );
  };

  /** One turn in process; approval questions are approved. Returns the events and the second request's text. */
  const turn = async (config: Record<string, unknown>): Promise<{ events: SessionEvent[]; sent: string }> => {
    await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-4.1-mini', ...config });
    harness.server.reset();
    script();
    const cody = createCody({ home: harness.env.CODY_HOME, env: harness.env, cwd: harness.home });
    try {
      const conversation = await cody.create();
      const events: SessionEvent[] = [];
      for await (const event of conversation.submit('what does the page say?')) {
        events.push(event);
        if (event.type === 'approval-requested') conversation.respond(event.id, 'approve');
      }
      expect(events.at(-1)).toMatchObject({ type: 'turn-complete' });
      const second = harness.server.modelRequests('openai-chat')[1];
      return { events, sent: JSON.stringify(second?.body ?? null) };
    } finally {
      await cody.close();
    }
  };

  it.each(['ask', 'auto-edit'])(
    'asks under %s (network access), then gives the model Markdown',
    async (approval) => {
      const { events, sent } = await turn({ approval, webFetch: { allowPrivate: true } });
      const asked = events.filter((event) => event.type === 'approval-requested');
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ reason: `fetch ${page.url} (network access)` });
      expect(asked[0]?.alwaysScope).toEqual({ kind: 'call', label: 'fetches from 127.0.0.1' });
      expect(page.hits()).toBe(1);
      expect(sent).toContain('# Cody page');
      expect(sent).toContain('The answer is _forty-two_');
    },
    60_000,
  );

  it('runs without asking for a host in webFetch.allowedHosts', async () => {
    const { events, sent } = await turn({
      approval: 'ask',
      webFetch: { allowPrivate: true, allowedHosts: ['127.0.0.1'] },
    });
    expect(events.filter((event) => event.type === 'approval-requested')).toEqual([]);
    expect(page.hits()).toBe(1);
    expect(sent).toContain('The answer is _forty-two_');
  }, 60_000);

  it('is refused under read-only, and nothing is fetched', async () => {
    const { events, sent } = await turn({
      approval: 'read-only',
      webFetch: { allowPrivate: true, allowedHosts: ['127.0.0.1'] },
    });
    expect(events.find((event) => event.type === 'tool-call')).toMatchObject({
      approved: false,
      declinedBy: 'policy',
    });
    expect(page.hits()).toBe(0);
    expect(sent).toContain('Declined by policy: the read-only approval policy refuses this');
  }, 60_000);

  it('refuses the loopback page without webFetch.allowPrivate, even for an allowed host', async () => {
    const { sent } = await turn({ approval: 'ask', webFetch: { allowedHosts: ['127.0.0.1'] } });
    expect(page.hits()).toBe(0);
    expect(sent).toContain('127.0.0.1 is a loopback address');
  }, 60_000);

  it('rejects a malformed webFetch setting in config.json', async () => {
    await harness.writeConfig({
      provider: 'openai',
      api: 'chat',
      model: 'gpt-4.1-mini',
      webFetch: { allowedHosts: ['https://x.com/'] },
    });
    const run = await harness.cody(['chat', 'hi']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/webFetch\.allowedHosts/);
  }, 60_000);

  it('the built cody chat fetches an allowed page and sends the model its Markdown', async () => {
    await harness.writeConfig({
      provider: 'openai',
      api: 'chat',
      model: 'gpt-4.1-mini',
      webFetch: { allowPrivate: true, allowedHosts: ['127.0.0.1'] },
    });
    script();
    const run = await harness.cody(['chat', '--json', 'what does the page say?']);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { conversationId: string; reply: string; toolCalls: unknown[] };
    expect(result.reply).toBe('It says forty-two.');
    expect(result.toolCalls).toEqual([
      { callId: 'fetch_1', name: 'web_fetch', arguments: JSON.stringify({ url: page.url }), approved: true },
    ]);
    expect(JSON.stringify(harness.server.modelRequests('openai-chat')[1]?.body)).toContain(
      'The answer is _forty-two_',
    );
    const outputs = (await harness.rollout(result.conversationId))
      .map((line) => (JSON.parse(line) as { payload: Record<string, unknown> }).payload)
      .filter((payload) => payload.type === 'function_call_output' && payload.call_id === 'fetch_1');
    expect(String(outputs[0]?.output)).toContain('# Cody page');
  }, 60_000);

  it('the built cody chat: a page too deeply nested is a short error; SIGTERM mid-conversion ends it at once', async () => {
    await harness.writeConfig({
      provider: 'openai',
      api: 'chat',
      model: 'gpt-4.1-mini',
      webFetch: { allowPrivate: true, allowedHosts: ['127.0.0.1'] },
    });
    const id = (await harness.cody(['new'])).stdout.trim();
    const fetchOf = (callId: string, path: string): ReplyStep => ({
      type: 'reply',
      toolCalls: [{ id: callId, name: 'web_fetch', arguments: { url: page.urlOf(path) } }],
    });
    harness.server.enqueue(fetchOf('fetch_deep', '/deep'), fetchOf('fetch_slow', '/slow'));
    const child = spawn(process.execPath, [CODY_BIN, 'chat', 'read both pages'], {
      cwd: harness.home,
      env: harness.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      // The slow page has been served: its conversion is under way half a second later.
      await expect
        .poll(() => page.requested().includes('/slow'), { timeout: 20_000, interval: 20 })
        .toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const signalledAt = Date.now();
      child.kill('SIGTERM');
      const code = await exited;
      expect(Date.now() - signalledAt).toBeLessThan(2_500);
      expect(code, stderr).toBe(143);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }

    const lines = await harness.rollout(id);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    const deep = linesOfType(lines, 'response_item').find(
      (line) => line.payload.type === 'function_call_output' && line.payload.call_id === 'fetch_deep',
    );
    expect(String(deep?.payload.output)).toBe(
      `Error: the page at ${page.urlOf('/deep')} is too deeply nested to convert (over 256 levels)`,
    );
    expect(lines.some((line) => line.includes('turn_aborted'))).toBe(true);
    const next = await harness.cody(['chat', 'again']);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toBe('echo: again\n');
  }, 60_000);
});
