/**
 * Secrets in streamed text, through the library (in-process `createCody`) against the fake provider on
 * all four wire APIs: the key Cody reads, split at every position across two and three deltas, never
 * comes out of the joined `text-delta` events; nor do sign-in tokens read from Codex's and Claude Code's
 * files; config.json's `redact` patterns reach the rollout.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCody, type Cody } from '../../../../src/core/engine/cody.js';
import { REDACTED } from '../../../../src/core/redact/redact.js';
import type { SessionEvent } from '../../../../src/core/conversation/session-events.js';
import { FakeProviderServer } from '../../../fake-provider/server.js';
import type { FakeApi } from '../../../fake-provider/types.js';
import type { Provider } from '../../../../src/core/config/config.js';

/** The key: too short for the sk- key shape, so only "a key Cody reads" redacts it. */
const KEYS = {
  OPENAI_API_KEY: 'sk-test-123456789',
  ANTHROPIC_API_KEY: 'ant-test-987654321',
  GEMINI_API_KEY: 'gem-test-192837465',
} as const;
const SERVE_TOKEN = 'tok-0123456789abcdefXYZ';
/** Sign-in tokens in Codex's auth.json and Claude Code's credentials file: no key shape matches them. */
const CHATGPT_ACCESS = 'chatgpt-access-0a1b2c3d4e';
const CHATGPT_REFRESH = 'chatgpt-refresh-5f6a7b8c9d';
const CLAUDE_ACCESS = 'claude-oauth-access-9z8y7x';

const APIS: Array<{ api: FakeApi; provider: Provider; apiName?: string; key: string }> = [
  { api: 'openai-responses', provider: 'openai', apiName: 'responses', key: KEYS.OPENAI_API_KEY },
  { api: 'openai-chat', provider: 'openai', apiName: 'chat', key: KEYS.OPENAI_API_KEY },
  { api: 'anthropic-messages', provider: 'anthropic', key: KEYS.ANTHROPIC_API_KEY },
  { api: 'gemini', provider: 'google', key: KEYS.GEMINI_API_KEY },
];

/**
 * One reply holding `before key after` once per way to cut the key into two and three deltas: each copy
 * of the key is cut exactly there, and the copies follow each other in one stream (the redactor carries
 * its state from one to the next, as in a long reply).
 */
function everySplit(before: string, key: string, after: string): { deltas: string[]; copies: number } {
  const text = `${before}${key}${after}`;
  const at = (offset: number): number => before.length + offset;
  const cuts: number[][] = [];
  for (let first = 1; first < key.length; first += 1) {
    cuts.push([at(first)]);
    for (let second = first + 1; second < key.length; second += 1) cuts.push([at(first), at(second)]);
  }
  const deltas: string[] = [];
  for (const points of cuts) {
    const pieces = [0, ...points].map((start, index) => text.slice(start, [...points, text.length][index]));
    // The first piece of a copy joins the last of the one before: the cuts inside the key stay as chosen.
    if (deltas.length > 0) deltas.push(`${deltas.pop() ?? ''}${pieces.shift() ?? ''}`);
    deltas.push(...pieces);
  }
  return { deltas, copies: cuts.length };
}

async function turn(
  cody: Cody,
  id: string,
  message: string,
): Promise<{ text: string; events: SessionEvent[] }> {
  const conversation = await cody.open(id);
  const events: SessionEvent[] = [];
  for await (const event of conversation.submit(message)) events.push(event);
  const text = events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
  return { text, events };
}

describe('secrets in streamed text, over the library', () => {
  let home: string;
  let server: FakeProviderServer;
  let cody: Cody;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'cody-redaction-'));
    server = new FakeProviderServer();
    const url = await server.start();
    await mkdir(home, { recursive: true });
    await writeFile(join(home, 'config.json'), JSON.stringify({ redact: ['corp-[0-9]{6}'] }));
    await writeFile(join(home, 'serve-token'), `${SERVE_TOKEN}\n`, { mode: 0o600 });
    await mkdir(join(home, 'codex'));
    await writeFile(
      join(home, 'codex', 'auth.json'),
      JSON.stringify({ tokens: { access_token: CHATGPT_ACCESS, refresh_token: CHATGPT_REFRESH } }),
    );
    await mkdir(join(home, '.claude'));
    await writeFile(
      join(home, '.claude', '.credentials.json'),
      JSON.stringify({
        claudeAiOauth: { accessToken: CLAUDE_ACCESS, refreshToken: 'claude-refresh-1q2w3e' },
      }),
    );
    cody = createCody({
      home,
      cwd: home,
      tools: false,
      env: {
        ...KEYS,
        HOME: home,
        CODEX_HOME: join(home, 'codex'),
        // Not a key Cody reads: its value is no secret, and no JSON key named like it is renamed.
        SORT_KEY: 'createdAt',
        OPENAI_BASE_URL: `${url}/v1`,
        ANTHROPIC_BASE_URL: url,
        GOOGLE_GEMINI_BASE_URL: url,
      },
    });
  });

  afterAll(async () => {
    await cody.close();
    await server.stop();
    await rm(home, { recursive: true, force: true });
  });

  beforeEach(() => server.reset());

  for (const { api, provider, apiName, key } of APIS) {
    it(`${api}: a key split at every position across two and three deltas never joins back`, async () => {
      const conversation = await cody.create({ provider, ...(apiName ? { api: apiName } : {}) });
      const { deltas, copies } = everySplit('repeat this: ', key, ' done. ');
      server.enqueue({ type: 'reply', textDeltas: deltas });
      const { text, events } = await turn(cody, conversation.id, 'repeat it');
      expect(server.modelRequests(api)).toHaveLength(1);
      expect(copies).toBe(((key.length - 1) * key.length) / 2);
      expect(text).toBe(`repeat this: ${REDACTED} done. `.repeat(copies));
      expect(JSON.stringify(events)).not.toContain(key);
      // The stream came in pieces, and went out in pieces (the redactor does not wait for the end).
      expect(events.filter((event) => event.type === 'text-delta').length).toBeGreaterThan(copies);
      const rollout = await readFile(join(home, 'conversations', `${conversation.id}.jsonl`), 'utf8');
      expect(rollout).not.toContain(key);
      // The summaries keep their field names: an environment value is not a secret.
      expect(Object.keys(await cody.get(conversation.id))).toContain('createdAt');
    });
  }

  it("redacts the serve token file's value, split, on the wire API it streams over", async () => {
    const conversation = await cody.create({ provider: 'anthropic' });
    const { deltas, copies } = everySplit('token ', SERVE_TOKEN, '. ');
    server.enqueue({ type: 'reply', textDeltas: deltas });
    expect((await turn(cody, conversation.id, 'token?')).text).toBe(`token ${REDACTED}. `.repeat(copies));
  });

  it('redacts the sign-in tokens read from Codex and Claude Code files in events and the rollout', async () => {
    const conversation = await cody.create({ provider: 'openai', api: 'chat' });
    const access = everySplit('it is ', CHATGPT_ACCESS, '. ');
    const claude = everySplit('and ', CLAUDE_ACCESS, '. ');
    server.enqueue({ type: 'reply', textDeltas: [...access.deltas, ...claude.deltas] });
    const { text, events } = await turn(cody, conversation.id, `my refresh token is ${CHATGPT_REFRESH}`);
    expect(text).toBe(
      `it is ${REDACTED}. `.repeat(access.copies) + `and ${REDACTED}. `.repeat(claude.copies),
    );
    const rollout = await readFile(join(home, 'conversations', `${conversation.id}.jsonl`), 'utf8');
    for (const token of [CHATGPT_ACCESS, CHATGPT_REFRESH, CLAUDE_ACCESS]) {
      expect(JSON.stringify(events)).not.toContain(token);
      expect(rollout).not.toContain(token);
    }
    expect(rollout).toContain(`my refresh token is ${REDACTED}`);
  });

  it('learns a sign-in token refreshed while the conversation stays open at the next turn', async () => {
    const conversation = await cody.create({ provider: 'openai', api: 'chat' });
    const drain = async (message: string): Promise<string> => {
      let text = '';
      for await (const event of conversation.submit(message))
        if (event.type === 'text-delta') text += event.text;
      return text;
    };
    await drain('hello');
    const refreshed = 'chatgpt-access-REFRESHED-42';
    await writeFile(
      join(home, 'codex', 'auth.json'),
      JSON.stringify({ tokens: { access_token: refreshed, refresh_token: CHATGPT_REFRESH } }),
    );
    server.enqueue({ type: 'reply', textDeltas: ['new one: chatgpt-acc', 'ess-REFRESHED-42.'] });
    expect(await drain('and now?')).toBe(`new one: ${REDACTED}.`);
    const rollout = await readFile(join(home, 'conversations', `${conversation.id}.jsonl`), 'utf8');
    expect(rollout).not.toContain(refreshed);
    await writeFile(
      join(home, 'codex', 'auth.json'),
      JSON.stringify({ tokens: { access_token: CHATGPT_ACCESS, refresh_token: CHATGPT_REFRESH } }),
    );
  });

  it('writes no match of a config redact pattern to the rollout, nor to the events', async () => {
    const conversation = await cody.create({ provider: 'openai', api: 'chat' });
    server.enqueue({ type: 'reply', textDeltas: ['your id corp-65', '4321 is noted'] });
    const { text, events } = await turn(cody, conversation.id, 'my id is corp-123456, remember it');
    expect(text).toBe(`your id ${REDACTED} is noted`);
    expect(JSON.stringify(events)).not.toMatch(/corp-[0-9]{6}/);
    const rollout = await readFile(join(home, 'conversations', `${conversation.id}.jsonl`), 'utf8');
    expect(rollout).not.toMatch(/corp-[0-9]{6}/);
    expect(rollout).toContain(`my id is ${REDACTED}, remember it`);
  });
});
