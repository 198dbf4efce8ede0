/**
 * The Claude sign-in reused from Claude Code, end to end: bin/cody with HOME holding
 * ~/.claude/.credentials.json, the fake Messages API and a fake token endpoint (CODY_CLAUDE_TOKEN_URL).
 */
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeTokenEndpoint } from '../fake-provider/token-endpoint.js';
import { type CodyRun, createHarness, type Harness } from './harness.js';
import { recordSecrets, scanForSecrets } from './secret-scan.js';

let harness: Harness;
let tokens: FakeTokenEndpoint;
let tokenUrl: string;
let claudeDir: string;
const runs: CodyRun[] = [];

async function cody(args: string[], extra: Record<string, string | undefined> = {}): Promise<CodyRun> {
  const run = await harness.cody(args, {
    env: { ANTHROPIC_API_KEY: undefined, CODY_CLAUDE_TOKEN_URL: tokenUrl, ...extra },
  });
  runs.push(run);
  return run;
}

async function writeCredentials(expiresAt: number, refreshToken = 'sk-ant-ort01-initial-SECRET') {
  const document = {
    claudeAiOauth: {
      accessToken: 'sk-ant-oat01-initial-SECRET',
      refreshToken,
      expiresAt,
      scopes: ['user:inference'],
      subscriptionType: 'max',
    },
    mcpOAuth: { someServer: { token: 'unrelated' } },
  };
  recordSecrets(document.claudeAiOauth.accessToken, refreshToken);
  await mkdir(claudeDir, { recursive: true });
  await writeFile(join(claudeDir, '.credentials.json'), JSON.stringify(document), { mode: 0o600 });
  return document;
}

async function readCredentials(): Promise<{ claudeAiOauth: Record<string, unknown>; mcpOAuth: unknown }> {
  return JSON.parse(await readFile(join(claudeDir, '.credentials.json'), 'utf8')) as never;
}

beforeAll(async () => {
  harness = await createHarness();
  claudeDir = join(harness.home, '.claude');
});

beforeEach(async () => {
  harness.server.reset();
  tokens = new FakeTokenEndpoint({ flavour: 'claude', initialRefreshToken: 'sk-ant-ort01-initial-SECRET' });
  tokenUrl = await tokens.start();
  const set = await cody(['set-provider', 'anthropic', '--auth', 'claude']);
  expect(set.code, set.stderr).toBe(0);
  expect(set.stdout).toMatch(/anthropic \(messages\) · model: claude-sonnet-5-5 · sign-in: Claude/);
});

afterEach(async () => {
  recordSecrets(...tokens.issued, tokens.validRefreshToken);
  await tokens.stop();
});

afterAll(async () => {
  await scanForSecrets({ codyHome: harness.env.CODY_HOME ?? '', outputs: runs });
  await harness.close();
});

describe('Claude sign-in from Claude Code', () => {
  it('sends the token as a bearer with the OAuth beta header and no API key', async () => {
    await writeCredentials(Date.now() + 3_600_000);
    const chat = await cody(['chat', 'hello claude']);
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stdout).toContain('echo: hello claude');
    const [request] = harness.server.modelRequests('anthropic-messages');
    expect(request?.headers.authorization).toBe('Bearer sk-ant-oat01-initial-SECRET');
    expect(String(request?.headers['anthropic-beta'])).toContain('oauth-2025-04-20');
    expect(request?.headers['x-api-key']).toBeUndefined();
    expect(JSON.stringify(request?.body)).not.toMatch(/Claude Code/);
    expect(tokens.requests).toHaveLength(0);
  });

  it('refreshes five minutes before expiresAt as Claude Code does and writes the file back atomically', async () => {
    const before = await writeCredentials(Date.now() + 60_000);
    const chat = await cody(['chat', 'refresh me']);
    expect(chat.code, chat.stderr).toBe(0);
    expect(tokens.requests).toHaveLength(1);
    expect(tokens.requests[0]?.body).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'sk-ant-ort01-initial-SECRET',
      client_id: '9d1c250a-e61b-44d9-88ed-5944d1962f5e',
    });
    expect(harness.server.modelRequests('anthropic-messages')[0]?.headers.authorization).toBe(
      `Bearer ${tokens.issued[0]}`,
    );
    const after = await readCredentials();
    expect(after.mcpOAuth).toEqual(before.mcpOAuth);
    expect(after.claudeAiOauth).toMatchObject({
      accessToken: tokens.issued[0],
      refreshToken: tokens.validRefreshToken,
      scopes: ['user:inference', 'user:profile'],
      subscriptionType: 'max',
    });
    expect(after.claudeAiOauth.expiresAt).toBeGreaterThan(Date.now() + 3_000_000);
    expect((await stat(join(claudeDir, '.credentials.json'))).mode & 0o777).toBe(0o600);
    expect(await readdir(claudeDir)).toEqual(['.credentials.json']);
  });

  it('refreshes after a 401 and retries with the new token', async () => {
    await writeCredentials(Date.now() + 3_600_000);
    harness.server.authorize = (headers) => headers.authorization !== 'Bearer sk-ant-oat01-initial-SECRET';
    try {
      const chat = await cody(['chat', 'after 401']);
      expect(chat.code, chat.stderr).toBe(0);
      expect(tokens.requests).toHaveLength(1);
      expect((await readCredentials()).claudeAiOauth.accessToken).toBe(tokens.issued[0]);
    } finally {
      harness.server.authorize = undefined;
    }
  });

  it('says in one line, with exit 4, when Anthropic refuses the token outside its apps', async () => {
    await writeCredentials(Date.now() + 3_600_000);
    harness.server.enqueue({
      type: 'error',
      status: 400,
      body: {
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message:
            'This credential is only authorized for use with Claude Code and cannot be used for other API requests.',
        },
      },
    });
    const chat = await cody(['chat', 'refused']);
    expect(chat.code).toBe(4);
    const lines = chat.stderr.trim().split('\n');
    expect(lines.filter((line) => line.startsWith('cody:'))).toHaveLength(1);
    // The provider's words name no command; the CLI adds how to switch to a key.
    expect(chat.stderr).toMatch(
      /Anthropic refuses Claude sign-in tokens outside its own apps; use an Anthropic API key instead.* For a key: cody auth login anthropic \(or its key variable\), then cody set-provider anthropic --auth key$/m,
    );
    expect(chat.stderr).not.toMatch(/check the key/);
  });

  it.each([
    ['corrupt', 'not json at all'],
    ['missing', undefined],
  ])('a %s credentials file is a one-line error naming it (exit 4)', async (_kind, content) => {
    const file = join(claudeDir, '.credentials.json');
    await mkdir(claudeDir, { recursive: true });
    if (content === undefined) await rm(file, { force: true });
    else await writeFile(file, content, { mode: 0o600 });
    const chat = await cody(['chat', 'nope']);
    expect(chat.code).toBe(4);
    expect(chat.stderr).toBe(
      `cody: ${file} ${content === undefined ? 'does not exist' : 'is not valid JSON'}. Sign in with \`claude\`, or use an API key. For a key: cody auth login anthropic (or its key variable), then cody set-provider anthropic --auth key\n`,
    );
  });
});
