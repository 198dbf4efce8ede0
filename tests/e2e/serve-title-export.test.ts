/**
 * Renaming and exporting a conversation over `cody serve` (the web page's Rename and Export): in process,
 * createCody on the fake provider behind the real HTTP server. The title is what GET and the list show;
 * the export is what `cody export` writes, with the config's `redact` patterns applied and HTML escaped.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCody, type Cody } from '../../src/index.js';
import { startCodyServer, type CodyServer } from '../../src/server/http-server.js';
import { apiClient, type ApiClient } from '../server/sse-client.js';
import { createHarness, type Harness } from './harness.js';

let harness: Harness;
let engine: Cody;
let server: CodyServer;
let api: ApiClient;

beforeEach(async () => {
  harness = await createHarness();
  await harness.writeConfig({
    provider: 'openai',
    api: 'chat',
    model: 'gpt-4.1-mini',
    redact: ['hunter2-[0-9]+'],
  });
  engine = createCody({ home: harness.env.CODY_HOME, env: harness.env, cwd: harness.home });
  server = await startCodyServer({
    engine,
    token: 'web-token',
    host: '127.0.0.1',
    port: 0,
    env: harness.env,
  });
  api = apiClient(server.url, 'web-token');
});
afterEach(async () => {
  await server.close();
  await engine.close();
  await harness.close();
});

/** A conversation with one finished turn: the user's message and the model's reply. */
async function conversationWithTurn(text: string, reply: string): Promise<string> {
  const id = String((await api.request('POST', '/conversations', {})).json.id);
  const stream = await api.events(`/conversations/${id}/events`);
  harness.server.enqueue({ type: 'reply', text: reply });
  expect((await api.request('POST', `/conversations/${id}/messages`, { text })).status).toBe(202);
  await stream.until((event) => event.type === 'turn-complete', 20_000);
  stream.close();
  return id;
}

describe('cody serve: rename and export', () => {
  it('PUT …/title sets the title GET and the list show; a bad title is a 400 and changes nothing', async () => {
    const id = await conversationWithTurn('first question', 'an answer');
    const renamed = await api.request('PUT', `/conversations/${id}/title`, { title: 'Bug hunt' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json).toMatchObject({ id, title: 'Bug hunt' });
    expect((await api.request('GET', `/conversations/${id}`)).json).toMatchObject({ title: 'Bug hunt' });
    const list = (await api.request('GET', '/conversations')).json.conversations as Array<
      Record<string, unknown>
    >;
    expect(list.find((entry) => entry.id === id)).toMatchObject({ title: 'Bug hunt' });

    for (const body of [{ title: 'bell\u0007' }, { title: 'x'.repeat(201) }, { name: 'x' }, {}]) {
      const refused = await api.request('PUT', `/conversations/${id}/title`, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
    expect((await api.request('GET', `/conversations/${id}`)).json).toMatchObject({ title: 'Bug hunt' });
    expect(
      (await api.request('PUT', '/conversations/00000000-0000-4000-8000-000000000000/title', { title: 'x' }))
        .status,
    ).toBe(404);
  }, 40_000);

  it('GET …/export gives md, json and html as cody export writes them, redacted and escaped', async () => {
    const id = await conversationWithTurn('my key is hunter2-42', 'Try <script>window.x=1</script> here');
    await api.request('PUT', `/conversations/${id}/title`, { title: 'Keys' });

    const md = await api.request('GET', `/conversations/${id}/export?format=md`);
    expect(md.status, md.text).toBe(200);
    expect(md.json).toMatchObject({ id, format: 'md', fileName: `cody-${id.slice(0, 8)}.md` });
    const markdown = String(md.json.text);
    expect(markdown).toMatch(/^# Keys\n/);
    expect(markdown).toContain('## You');
    expect(markdown).toContain('Try <script>window.x=1</script> here');
    expect(markdown).not.toContain('hunter2-42');

    const json = await api.request('GET', `/conversations/${id}/export?format=json`);
    const document = JSON.parse(String(json.json.text)) as { id: string; title: string; entries: unknown[] };
    expect(document).toMatchObject({ id, title: 'Keys' });
    expect(JSON.stringify(document.entries)).toContain('Try <script>');
    expect(String(json.json.text)).not.toContain('hunter2-42');

    const html = String((await api.request('GET', `/conversations/${id}/export?format=html`)).json.text);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('&#60;script&#62;window.x=1&#60;/script&#62;');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('hunter2-42');

    expect((await api.request('GET', `/conversations/${id}/export?format=pdf`)).status).toBe(400);
  }, 40_000);
});
