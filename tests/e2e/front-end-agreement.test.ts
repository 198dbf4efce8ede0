/**
 * Issue 20's defects between front ends, end to end with the built `cody`: the library and `cody serve`
 * never move the CLI's active conversation; `cody chat --conversation` runs a conversation with what it
 * recorded; every machine-readable `api` is the wire API id; a config.json with `__proto__` or
 * `constructor` is one usage error; `cody serve` on a busy port is one usage error.
 */
import { createServer, type Server } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, linesOfType, REPO_ROOT, type Harness } from './harness.js';
import { startServe, type ServeProcess } from './serve-harness.js';

let harness: Harness;
let served: ServeProcess | undefined;

beforeEach(async () => {
  harness = await createHarness();
});
afterEach(async () => {
  await served?.stop('SIGKILL');
  served = undefined;
  await harness.close();
});

const activeFile = (): string => join(harness.env.CODY_HOME ?? '', 'active');
const readActive = async (): Promise<string> => (await readFile(activeFile(), 'utf8')).trim();

/** The model of every model request so far, in order. */
const models = (): unknown[] =>
  harness.server.modelRequests().map((request) => (request.body as { model?: unknown }).model);

describe('the CLI’s active conversation and a conversation’s own selection', () => {
  it('POST /conversations leaves `active` alone; chat --conversation runs its recorded model; state and PUT say the wire API id', async () => {
    // A configured model other than the served conversation's (Cody's own default changes with the catalogue).
    await harness.writeConfig({ provider: 'openai', model: 'gpt-4.1-mini' });
    const mine = (await harness.cody(['new'])).stdout.trim();
    expect(await readActive()).toBe(mine);
    served = await startServe(harness);
    const { api } = served;
    const created = await api.request('POST', '/conversations', {
      provider: 'openai',
      api: 'chat',
      model: 'gpt-4o-mini',
    });
    expect(created.status).toBe(201);
    const theirs = String(created.json.id);
    expect(await readActive()).toBe(mine);

    const state = await api.request('GET', `/conversations/${theirs}/state`);
    expect(state.json.status).toMatchObject({ provider: 'openai', api: 'openai-chat', model: 'gpt-4o-mini' });
    const selection = await api.request('PUT', `/conversations/${theirs}/selection`, {
      provider: 'openai',
      api: 'chat',
      model: 'gpt-4o-mini',
    });
    expect(selection.status).toBe(200);
    expect(selection.json.status).toMatchObject({ api: 'openai-chat', model: 'gpt-4o-mini' });
    const policy = await api.request('PUT', `/conversations/${theirs}/approval-policy`, {
      policy: 'read-only',
    });
    expect(policy.status).toBe(200);
    expect(policy.json.status).toMatchObject({ api: 'openai-chat' });
    const openapi = await api.request('GET', '/openapi.json');
    const schemas = (
      openapi.json.components as { schemas: Record<string, { properties: Record<string, unknown> }> }
    ).schemas;
    expect(schemas.ConversationStatus?.properties.api).toEqual({ $ref: '#/components/schemas/WireApi' });
    // A wire API id by its shape: the providers' registry decides which exist.
    expect('openai-chat').toMatch(new RegExp(String((schemas.WireApi as { pattern?: string }).pattern)));
    await served.stop('SIGTERM');
    served = undefined;

    const onTheirs = await harness.cody(['chat', '--conversation', theirs, 'to the served one']);
    expect(onTheirs.code, onTheirs.stderr).toBe(0);
    const onMine = await harness.cody(['chat', 'to my own']);
    expect(onMine.code, onMine.stderr).toBe(0);
    // The served conversation ran with what it was created with; mine with the configured default.
    expect(models()).toEqual(['gpt-4o-mini', 'gpt-4.1-mini']);
    expect(await readActive()).toBe(mine);
    const mineText = (await harness.rollout(mine)).join('\n');
    expect(mineText).toContain('to my own');
    expect(mineText).not.toContain('to the served one');
    const contexts = linesOfType(await harness.rollout(theirs), 'turn_context');
    expect(contexts.map((line) => line.payload.model)).toEqual(['gpt-4o-mini']);
  });

  it('the library’s create leaves `active` alone, its status says the wire API id, and chat --conversation keeps its model', async () => {
    const mine = (await harness.cody(['new'])).stdout.trim();
    const script = [
      `const { createCody } = await import(${JSON.stringify(join(REPO_ROOT, 'dist/bundle/index.js'))});`,
      'const cody = createCody({ env: process.env });',
      "const conversation = await cody.create({ provider: 'openai', api: 'chat', model: 'gpt-4o-mini' });",
      'const forked = await cody.fork(conversation.id);',
      'console.log(JSON.stringify({ id: conversation.id, fork: forked.id, status: conversation.status() }));',
      'await cody.close();',
    ].join('\n');
    const run = await harness.shell(`node --input-type=module -e '${script.replace(/'/g, "'\\''")}'`);
    expect(run.code, run.stderr).toBe(0);
    const made = JSON.parse(run.stdout) as { id: string; fork: string; status: Record<string, unknown> };
    expect(made.status).toMatchObject({ provider: 'openai', api: 'openai-chat', model: 'gpt-4o-mini' });
    expect(await readActive()).toBe(mine);

    const chat = await harness.cody(['chat', '--conversation', made.id, 'hello']);
    expect(chat.code, chat.stderr).toBe(0);
    expect(models()).toEqual(['gpt-4o-mini']);
    expect(await readActive()).toBe(mine);
  });
});

describe('a config.json with a prototype key', () => {
  it.each([
    ['{"__proto__": {"provider": "anthropic"}, "provider": "openai"}', '__proto__'],
    ['{"provider": "openai", "constructor": "x"}', 'constructor'],
    ['{"models": {"__proto__": {"contextWindow": 5}}}', 'models.__proto__'],
  ])('%s: every command refuses it in one line naming %s, exit 2', async (text, key) => {
    await harness.writeConfig({});
    await writeFile(join(harness.env.CODY_HOME ?? '', 'config.json'), text);
    for (const args of [['list'], ['chat', 'hello'], ['set-provider', 'openai'], ['list', '--json']]) {
      const run = await harness.cody(args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toBe(
        `cody: ${join(harness.env.CODY_HOME ?? '', 'config.json')}: the key '${key}' is not allowed (it would change how the settings are read). Remove it.\n`,
      );
      expect(run.stdout).toBe('');
    }
    expect(harness.server.modelRequests()).toHaveLength(0);
  });
});

describe('cody serve on a port in use', () => {
  it('says so in one line with the port and exits with the usage code, no stack', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const run = await harness.cody(['serve', '--port', String(port)]);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(`cody: port ${port} is in use; pass --port\n`);
      expect(run.stdout).toBe('');
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});
