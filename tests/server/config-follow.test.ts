/**
 * A running server follows config.json (issue 34): after `cody set-provider --base-url …` in another
 * terminal, the next turn of a conversation the server already has open calls the new address, and so
 * does a conversation made afterwards — what a new `cody chat` would call. In process: createCody on the
 * fake provider behind the real HTTP server; set-provider is the CLI's own command.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCody, type Cody } from '../../src/index.js';
import { startCodyServer, type CodyServer } from '../../src/server/http-server.js';
import { codyInProcess } from '../e2e/in-process.js';
import { createHarness, type Harness } from '../e2e/harness.js';
import { FakeProviderServer } from '../fake-provider/server.js';
import { apiClient, type ApiClient } from './sse-client.js';

let harness: Harness;
let other: FakeProviderServer;
let engine: Cody;
let server: CodyServer;
let api: ApiClient;

beforeEach(async () => {
  harness = await createHarness();
  other = new FakeProviderServer();
  await other.start();
  await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-4.1-mini' });
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
  await other.stop();
  await harness.close();
});

/** One turn over HTTP, to its end; the event that ended it. */
async function turn(id: string, text: string): Promise<Record<string, unknown>> {
  const stream = await api.events(`/conversations/${id}/events`);
  const posted = await api.request('POST', `/conversations/${id}/messages`, { text });
  expect(posted.status, posted.text).toBe(202);
  const seen = await stream.until((event) => event.type === 'turn-complete' || event.type === 'turn-failed');
  stream.close();
  return JSON.parse(seen.at(-1)?.data ?? '{}') as Record<string, unknown>;
}

describe('cody serve follows config.json', () => {
  it("the next turn (an open conversation's, a new one's) calls the base URL set-provider saved", async () => {
    const id = String((await api.request('POST', '/conversations', {})).json.id);
    expect(await turn(id, 'before')).toMatchObject({ type: 'turn-complete' });
    expect(harness.server.modelRequests()).toHaveLength(1);

    const set = await codyInProcess(harness, ['set-provider', 'openai', '--base-url', `${other.url}/v1`]);
    expect(set.code, set.stderr).toBe(0);

    expect(await turn(id, 'after')).toMatchObject({ type: 'turn-complete' });
    const fresh = String((await api.request('POST', '/conversations', {})).json.id);
    expect(await turn(fresh, 'new one')).toMatchObject({ type: 'turn-complete' });
    // Both later turns went to the new address; the old one heard nothing more.
    expect(other.modelRequests()).toHaveLength(2);
    expect(harness.server.modelRequests()).toHaveLength(1);
  }, 30_000);
});
