/**
 * The ChatGPT sign-in reused from Codex, end to end: bin/cody against the fake Codex backend
 * (`{base}/responses`) and a fake OAuth token endpoint (CODY_OPENAI_TOKEN_URL). Choosing the sign-in
 * before each test and starting conversations run the same commands in process (`setUp`).
 */
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeJwt, FakeTokenEndpoint } from '../fake-provider/token-endpoint.js';
import { type CodyRun, createHarness, type Harness } from './harness.js';
import { codyInProcess } from './in-process.js';
import { recordSecrets, scanForSecrets } from './secret-scan.js';

const hour = 3600;
const now = (): number => Math.floor(Date.now() / 1000);
const ACCOUNT = 'acct-e2e-123';

let harness: Harness;
let tokens: FakeTokenEndpoint;
let tokenUrl: string;
let codexHome: string;
const runs: CodyRun[] = [];

function env(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return { OPENAI_API_KEY: undefined, CODEX_HOME: codexHome, CODY_OPENAI_TOKEN_URL: tokenUrl, ...extra };
}

async function cody(args: string[], extra: Record<string, string | undefined> = {}): Promise<CodyRun> {
  const run = await harness.cody(args, { env: env(extra) });
  runs.push(run);
  return run;
}

/** A set-up step: the same command in this process (its output is scanned for secrets too). */
async function setUp(args: string[]): Promise<CodyRun> {
  const run = await codyInProcess(harness, args, { env: env() });
  runs.push(run);
  return run;
}

async function writeCodexAuth(
  accessExp: number,
  refreshToken = 'rt-initial-SECRET',
): Promise<{ tokens: Record<string, string>; [field: string]: unknown }> {
  const access = fakeJwt({
    exp: accessExp,
    kind: 'initial-access',
    'https://api.openai.com/auth': { chatgpt_account_id: ACCOUNT },
  });
  const document = {
    OPENAI_API_KEY: null,
    tokens: {
      id_token: fakeJwt({ kind: 'initial-id' }),
      access_token: access,
      refresh_token: refreshToken,
      account_id: ACCOUNT,
    },
    last_refresh: '2026-01-01T00:00:00Z',
    keep_me: { nested: [1, 2, 3] },
  };
  recordSecrets(access, refreshToken, document.tokens.id_token);
  await mkdir(codexHome, { recursive: true });
  await writeFile(join(codexHome, 'auth.json'), JSON.stringify(document, null, 2), { mode: 0o600 });
  return document;
}

async function readCodexAuth(): Promise<{
  tokens: Record<string, string>;
  last_refresh: string;
  keep_me: unknown;
  OPENAI_API_KEY: unknown;
}> {
  return JSON.parse(await readFile(join(codexHome, 'auth.json'), 'utf8')) as never;
}

beforeAll(async () => {
  harness = await createHarness();
  codexHome = join(harness.home, '.codex');
  // What the OpenAI endpoint lists: set-provider checks a custom endpoint's model against its own list
  // (issue 33) and caches that list for a day.
  harness.server.models = ['gpt-5', 'gpt-5.1-codex'];
});

beforeEach(async () => {
  harness.server.reset();
  harness.server.authorize = undefined;
  tokens = new FakeTokenEndpoint({
    flavour: 'openai',
    initialRefreshToken: 'rt-initial-SECRET',
    delayMs: 150,
  });
  tokenUrl = await tokens.start();
  const set = await setUp([
    'set-provider',
    'openai',
    '--auth',
    'chatgpt',
    '--base-url',
    `${harness.server.url}/backend-api/codex`,
  ]);
  expect(set.code).toBe(0);
  expect(set.stdout).toMatch(
    /openai \(responses\) · model: gpt-5\.1-codex · base URL: .*\/backend-api\/codex · sign-in: ChatGPT/,
  );
});

afterEach(async () => {
  for (const token of tokens.issued) recordSecrets(token);
  recordSecrets(tokens.validRefreshToken);
  await tokens.stop();
});

afterAll(async () => {
  await scanForSecrets({ codyHome: harness.env.CODY_HOME ?? '', outputs: runs });
  await harness.close();
});

describe('ChatGPT sign-in from Codex', () => {
  it('sends the bearer token, account id and Responses beta header to {base}/responses with Codex’s body constraints', async () => {
    const document = await writeCodexAuth(now() + hour);
    const chat = await cody(['chat', 'hello']);
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stdout).toContain('echo: hello');
    const [request] = harness.server.modelRequests('openai-responses');
    expect(request?.url).toBe('/backend-api/codex/responses');
    expect(request?.headers.authorization).toBe(`Bearer ${document.tokens.access_token}`);
    expect(request?.headers['chatgpt-account-id']).toBe(ACCOUNT);
    expect(request?.headers['openai-beta']).toBe('responses=experimental');
    expect(request?.headers.originator).toBe('cody');
    const body = request?.body as Record<string, unknown>;
    expect(body).toMatchObject({ model: 'gpt-5.1-codex', store: false, stream: true });
    expect(body.instructions).toMatch(/You are Cody/);
    expect(body).not.toHaveProperty('max_output_tokens');
    expect(tokens.requests).toHaveLength(0);
    expect(await readCodexAuth()).toEqual(document);
  });

  it('refreshes an expired token first, exactly as Codex does, and writes auth.json back atomically keeping every other field', async () => {
    const before = await writeCodexAuth(now() - 60);
    const chat = await cody(['chat', 'after expiry']);
    expect(chat.code, chat.stderr).toBe(0);
    expect(tokens.requests).toHaveLength(1);
    expect(tokens.requests[0]?.body).toEqual({
      client_id: 'app_EMoamEEZ73f0CkXaXp7hrann',
      grant_type: 'refresh_token',
      refresh_token: 'rt-initial-SECRET',
    });
    expect(tokens.requests[0]?.headers['content-type']).toBe('application/json');
    const [request] = harness.server.modelRequests('openai-responses');
    expect(request?.headers.authorization).toBe(`Bearer ${tokens.issued[0]}`);
    const after = await readCodexAuth();
    expect(after.tokens).toEqual({
      ...before.tokens,
      access_token: tokens.issued[0],
      refresh_token: tokens.validRefreshToken,
      id_token: expect.stringMatching(/\./) as unknown,
    });
    expect(after.tokens.id_token).not.toBe(before.tokens.id_token);
    expect(after.keep_me).toEqual({ nested: [1, 2, 3] });
    expect(after.OPENAI_API_KEY).toBeNull();
    expect(Date.parse(after.last_refresh)).toBeGreaterThan(Date.now() - 60_000);
    expect((await stat(join(codexHome, 'auth.json'))).mode & 0o777).toBe(0o600);
    expect((await readdir(codexHome)).sort()).toEqual(['auth.json']);
  });

  it('refreshes after a 401 and retries once with the new token', async () => {
    const document = await writeCodexAuth(now() + hour);
    harness.server.authorize = (headers) =>
      headers.authorization !== `Bearer ${document.tokens.access_token}`;
    const chat = await cody(['chat', 'after 401']);
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stdout).toContain('echo: after 401');
    expect(tokens.requests).toHaveLength(1);
    const requests = harness.server.modelRequests('openai-responses');
    expect(requests.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${document.tokens.access_token}`,
      `Bearer ${tokens.issued[0]}`,
    ]);
    expect((await readCodexAuth()).tokens.access_token).toBe(tokens.issued[0]);
  });

  it('two processes refreshing at once make one refresh and leave one valid file', async () => {
    await writeCodexAuth(now() - 60);
    const first = await setUp(['new']);
    const second = await setUp(['new']);
    const [a, b] = await Promise.all([
      cody(['chat', '-c', first.stdout.trim(), 'one']),
      cody(['chat', '-c', second.stdout.trim(), 'two']),
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(tokens.requests).toHaveLength(1);
    const after = await readCodexAuth();
    expect(after.tokens.access_token).toBe(tokens.issued[0]);
    expect(after.tokens.refresh_token).toBe(tokens.validRefreshToken);
    const sent = harness.server
      .modelRequests('openai-responses')
      .map((request) => request.headers.authorization);
    expect(sent).toEqual([`Bearer ${tokens.issued[0]}`, `Bearer ${tokens.issued[0]}`]);
  });

  it('says in one line what to do when the refresh token was already used (exit 4)', async () => {
    await writeCodexAuth(now() - 60, 'rt-stale-SECRET');
    const chat = await cody(['chat', 'refused']);
    expect(chat.code).toBe(4);
    expect(chat.stderr).toMatch(
      /ChatGPT sign-in \(from Codex\) could not be refreshed: its refresh token was already used\. Run `codex login` again\./,
    );
    expect(chat.stderr).not.toMatch(/OPENAI_API_KEY/);
  });

  it.each([
    ['corrupt', '{"tokens": {"access_token": "abc'],
    ['missing', undefined],
  ])('a %s auth.json is a one-line error naming the file (exit 4)', async (_kind, content) => {
    await mkdir(codexHome, { recursive: true });
    if (content === undefined) await rm(join(codexHome, 'auth.json'), { force: true });
    else await writeFile(join(codexHome, 'auth.json'), content, { mode: 0o600 });
    const chat = await cody(['chat', 'nope']);
    expect(chat.code).toBe(4);
    const file = join(codexHome, 'auth.json');
    expect(chat.stderr).toBe(
      `cody: ${file} ${content === undefined ? 'does not exist' : 'is not valid JSON'}. Sign in with \`codex login\`, or use an API key. For a key: cody auth login openai (or its key variable), then cody set-provider openai --auth key\n`,
    );
    expect(harness.server.modelRequests()).toHaveLength(0);
  });

  it('the chosen sign-in wins over an API key in the environment; --auth key goes back to the key (documented precedence)', async () => {
    const document = await writeCodexAuth(now() + hour);
    const chat = await cody(['chat', 'with the sign-in'], { OPENAI_API_KEY: 'sk-env-loses-0042' });
    expect(chat.code, chat.stderr).toBe(0);
    const [signedIn] = harness.server.modelRequests('openai-responses');
    expect(signedIn?.headers.authorization).toBe(`Bearer ${document.tokens.access_token}`);
    expect(signedIn?.headers['chatgpt-account-id']).toBe(ACCOUNT);
    const back = await cody([
      'set-provider',
      'openai',
      '--auth',
      'key',
      '--base-url',
      `${harness.server.url}/v1`,
    ]);
    expect(back.code, back.stderr).toBe(0);
    harness.server.reset();
    const keyed = await cody(['chat', 'with the key'], { OPENAI_API_KEY: 'sk-env-wins-0043' });
    expect(keyed.code, keyed.stderr).toBe(0);
    const [request] = harness.server.modelRequests();
    expect(request?.headers.authorization).toBe('Bearer sk-env-wins-0043');
    expect(request?.headers['chatgpt-account-id']).toBeUndefined();
  });

  it('after `cody auth login openai`, set-provider --auth chatgpt --model gpt-5 moves the active conversation onto the sign-in, not the stored key', async () => {
    const document = await writeCodexAuth(now() + hour);
    const stored = 'sk-stored-key-loses-0077';
    const keyed = await cody([
      'set-provider',
      'openai',
      '--auth',
      'key',
      '--api',
      'chat',
      '--base-url',
      `${harness.server.url}/v1`,
    ]);
    expect(keyed.code, keyed.stderr).toBe(0);
    const login = await harness.cody(['auth', 'login', 'openai'], { input: `${stored}\n`, env: env() });
    expect(login.code, login.stderr).toBe(0);
    try {
      const first = await cody(['chat', 'first on the stored key']);
      expect(first.code, first.stderr).toBe(0);
      expect(harness.server.modelRequests('openai-chat').at(-1)?.headers.authorization).toBe(
        `Bearer ${stored}`,
      );
      const chosen = await cody([
        'set-provider',
        'openai',
        '--auth',
        'chatgpt',
        '--model',
        'gpt-5',
        '--base-url',
        `${harness.server.url}/backend-api/codex`,
      ]);
      expect(chosen.code, chosen.stderr).toBe(0);
      harness.server.reset();
      const second = await cody(['chat', 'then on the sign-in']);
      expect(second.code, second.stderr).toBe(0);
      const requests = harness.server.modelRequests();
      expect(requests.map((request) => request.api)).toEqual(['openai-responses']);
      const [request] = requests;
      expect(request?.url).toBe('/backend-api/codex/responses');
      expect(request?.headers.authorization).toBe(`Bearer ${document.tokens.access_token}`);
      expect(request?.headers['chatgpt-account-id']).toBe(ACCOUNT);
      expect(request?.body).toMatchObject({ model: 'gpt-5' });
      // The same (active) conversation: its history went along.
      expect(JSON.stringify(request?.body)).toContain('first on the stored key');
    } finally {
      await harness.cody(['auth', 'logout', 'openai'], { env: env() });
      // Back to keys, so the next test's `--auth chatgpt` starts over with the sign-in's default model.
      await cody(['set-provider', 'openai', '--auth', 'key']);
    }
  });

  it('after the sign-in, set-provider --api chat switches back to the key and says so in one line', async () => {
    const set = await cody([
      'set-provider',
      'openai',
      '--api',
      'chat',
      '--base-url',
      `${harness.server.url}/v1`,
    ]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toBe('');
    const lines = set.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^✓ Provider set: openai \(chat\) · model: gpt-5\.1-codex · base URL: .*\/v1$/);
    expect(lines[1]).toBe(
      "  The ChatGPT (from Codex) sign-in works only with the Responses API: switched back to openai's API key.",
    );
    const chat = await cody(['chat', 'on the key again'], { OPENAI_API_KEY: 'sk-env-after-0044' });
    expect(chat.code, chat.stderr).toBe(0);
    const requests = harness.server.modelRequests();
    expect(requests.map((request) => request.api)).toEqual(['openai-chat']);
    expect(requests[0]?.headers.authorization).toBe('Bearer sk-env-after-0044');
    expect(requests[0]?.headers['chatgpt-account-id']).toBeUndefined();
  });
});
