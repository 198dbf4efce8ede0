/**
 * Stored keys (`cody auth login|logout|status`), the OpenAI-compatible presets and `cody models`, end to
 * end against the fake provider.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CodyRun, createHarness, type Harness } from './harness.js';
import { recordSecrets, scanForSecrets } from './secret-scan.js';

const STORED = 'sk-stored-openai-SECRET-7788';
const ROUTER = 'sk-or-v1-router-SECRET-4455';
let harness: Harness;
let authFile: string;
const runs: CodyRun[] = [];
const NO_KEYS = { OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined, GEMINI_API_KEY: undefined };

async function cody(
  args: string[],
  options: { input?: string; env?: Record<string, string | undefined> } = {},
) {
  const run = await harness.cody(args, { ...options, env: { ...NO_KEYS, ...options.env } });
  runs.push(run);
  return run;
}

beforeAll(async () => {
  harness = await createHarness();
  authFile = join(harness.env.CODY_HOME ?? '', 'auth.json');
  recordSecrets(STORED, ROUTER, 'sk-vllm-SECRET-1212');
});

beforeEach(() => {
  harness.server.reset();
  harness.server.authorize = undefined;
});

afterAll(async () => {
  await scanForSecrets({ codyHome: harness.env.CODY_HOME ?? '', outputs: runs, allowed: [authFile] });
  await harness.close();
});

describe('cody auth', () => {
  it('login stores the key from stdin in a 0600 auth.json inside the 0700 home, and chat uses it', async () => {
    const login = await cody(['auth', 'login', 'openai'], { input: `${STORED}\n` });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toBe(`✓ Saved the openai key …7788 in ${authFile}\n`);
    expect((await stat(authFile)).mode & 0o777).toBe(0o600);
    expect((await stat(harness.env.CODY_HOME ?? '')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(authFile, 'utf8'))).toEqual({ keys: { openai: STORED } });

    const chat = await cody(['chat', 'stored key']);
    expect(chat.code, chat.stderr).toBe(0);
    expect(harness.server.modelRequests('openai-chat')[0]?.headers.authorization).toBe(`Bearer ${STORED}`);
  });

  it('the environment variable wins over the stored key', async () => {
    const chat = await cody(['chat', 'env key'], { env: { OPENAI_API_KEY: 'sk-env-key-0001' } });
    expect(chat.code, chat.stderr).toBe(0);
    expect(harness.server.modelRequests('openai-chat')[0]?.headers.authorization).toBe(
      'Bearer sk-env-key-0001',
    );
  });

  it('status names each source and the last four characters, and checks each key with one request', async () => {
    harness.server.authorize = (headers) => headers.authorization !== 'Bearer sk-rejected-key-9999';
    const offline = await cody(['auth', 'status', '--offline'], {
      env: { GEMINI_API_KEY: 'gemini-env-SECRET-3003' },
    });
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stdout).toContain(`openai      auth.json (${authFile})  …7788  not checked (offline)`);
    expect(offline.stdout).toContain(
      'google      environment (GEMINI_API_KEY)  …3003  not checked (offline)',
    );
    expect(offline.stdout).toContain(
      'anthropic   none — set ANTHROPIC_API_KEY or run cody auth login anthropic',
    );
    expect(harness.server.requests).toHaveLength(0);

    const online = await cody(['auth', 'status']);
    expect(online.stdout).toMatch(/^openai .*…7788 {2}works$/m);
    expect(harness.server.requests.map((request) => request.url)).toEqual(['/v1/models']);
    const rejected = await cody(['auth', 'status'], { env: { OPENAI_API_KEY: 'sk-rejected-key-9999' } });
    expect(rejected.stdout).toMatch(
      /^openai {6}environment \(OPENAI_API_KEY\) {2}…9999 {2}rejected \(HTTP 401\)$/m,
    );
    for (const run of [offline, online, rejected]) expect(run.stdout).not.toContain(STORED);
  });

  it('logout removes only that key', async () => {
    await cody(['auth', 'login', 'openrouter'], { input: ROUTER });
    const logout = await cody(['auth', 'logout', 'openai']);
    expect(logout.stdout).toBe(`✓ Removed the openai key from ${authFile}\n`);
    expect(JSON.parse(await readFile(authFile, 'utf8'))).toEqual({ keys: { openrouter: ROUTER } });
    expect((await stat(authFile)).mode & 0o777).toBe(0o600);
    expect((await cody(['auth', 'logout', 'openai'])).stdout).toBe(
      `No openai key was saved in ${authFile}\n`,
    );
    const bad = await cody(['auth', 'login', 'mistral'], { input: 'x' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      "cody: Unknown provider 'mistral'. Choose one of: openai, anthropic, google, deepseek, openrouter.\n",
    );
  });
});

describe('presets', () => {
  it('openrouter sends its key (stored) and attribution headers to its Chat Completions endpoint', async () => {
    const set = await cody(['set-provider', 'openrouter', '--base-url', `${harness.server.url}/api/v1`]);
    expect(set.stdout).toContain('openrouter (chat) · model: anthropic/claude-sonnet-4.5');
    const chat = await cody(['chat', 'via router']);
    expect(chat.code, chat.stderr).toBe(0);
    const [request] = harness.server.modelRequests('openai-chat');
    expect(request?.url).toBe('/api/v1/chat/completions');
    expect(request?.headers.authorization).toBe(`Bearer ${ROUTER}`);
    expect(request?.headers['http-referer']).toBe('cody');
    expect(request?.headers['x-title']).toBe('Cody');
    expect(request?.model).toBe('anthropic/claude-sonnet-4.5');
  });

  it('openrouter without any key is a one-line error naming OPENROUTER_API_KEY (exit 4)', async () => {
    await cody(['auth', 'logout', 'openrouter']);
    const chat = await cody(['chat', 'no key']);
    expect(chat.code).toBe(4);
    expect(chat.stderr).toBe(
      'cody: Missing API key for openrouter: set OPENROUTER_API_KEY. Or store one with: cody auth login openrouter\n',
    );
  });

  it.each([
    ['ollama', 'OLLAMA_BASE_URL', 'llama3.1:8b', undefined],
    ['lmstudio', 'LMSTUDIO_BASE_URL', 'qwen2.5-7b-instruct', undefined],
    ['vllm', 'VLLM_BASE_URL', 'Qwen/Qwen2.5-7B-Instruct', 'sk-vllm-SECRET-1212'],
  ])('%s reaches its endpoint (from %s) with its default model', async (provider, variable, model, key) => {
    const set = await cody(['set-provider', provider]);
    expect(set.stderr).toBe('');
    const env = { [variable]: `${harness.server.url}/${provider}/v1`, ...(key ? { VLLM_API_KEY: key } : {}) };
    const chat = await cody(['chat', `hi ${provider}`], { env });
    expect(chat.code, chat.stderr).toBe(0);
    const [request] = harness.server.modelRequests('openai-chat');
    expect(request?.url).toBe(`/${provider}/v1/chat/completions`);
    expect(request?.model).toBe(model);
    expect(request?.headers.authorization).toBe(`Bearer ${key ?? 'no-key-needed'}`);
    expect(request?.headers['x-title']).toBeUndefined();
  });

  it('cody models lists what the local server offers (the list set-provider read, cached; --refresh asks again)', async () => {
    harness.server.models = ['qwen2.5-coder:7b', 'llama3.1:8b', 'gpt-oss:20b'];
    // set-provider reads a custom endpoint's list for its typo check and caches it for a day (issue 33).
    await cody(['set-provider', 'ollama', '--base-url', `${harness.server.url}/v1`]);
    const models = await cody(['models']);
    expect(models.code, models.stderr).toBe(0);
    expect(models.stdout).toBe('gpt-oss:20b\nllama3.1:8b\nqwen2.5-coder:7b\n');
    expect(harness.server.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /v1/models',
    ]);
    harness.server.models = ['llama3.1:8b', 'mistral:7b'];
    const refreshed = await cody(['models', '--refresh']);
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(refreshed.stdout).toBe('llama3.1:8b\nmistral:7b\n');
    expect(harness.server.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /v1/models',
      'GET /v1/models',
    ]);
  });
});
