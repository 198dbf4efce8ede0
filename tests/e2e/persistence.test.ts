/**
 * The save / list / resume / continue cycle through the real binary, over real HTTP, on OpenAI Chat
 * Completions (the default provider). The steps that only set a test up (start a conversation, give it
 * a turn) run the same command in process (`setUp`); the commands a test checks are real processes.
 */
import { appendFile, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireConversationLock } from '../../src/core/rollout/lock.js';
import { CODY_BIN, REPO_ROOT, createHarness, FAKE_KEYS, type Harness, linesOfType } from './harness.js';
import { codyInProcess } from './in-process.js';

/**
 * The providers' modules a listing may run: the registry, the wire APIs' definitions and the data and
 * small helpers they are built from (no SDK, client, converter or stream mapper).
 */
const REGISTRY_MODULE =
  /^src\/providers\/(index|registry|lookup|definition|[^/]+\/definition|[^/]+\/presets|openai-shared\/openai-provider|openai-shared\/openai-tokens|[^/]+\/image-tokens|shared\/check-credential|shared\/model-family|anthropic-messages\/claude-models|gemini\/gemini-models|openai-shared\/openai-models)\.ts$/;

interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: unknown; tool_calls?: unknown }>;
}

function chatBodies(harness: Harness): ChatBody[] {
  return harness.server.modelRequests('openai-chat').map((request) => request.body as ChatBody);
}

function texts(body: ChatBody): string[] {
  return body.messages.map(
    (message) =>
      `${message.role}: ${typeof message.content === 'string' ? message.content : JSON.stringify(message.content)}`,
  );
}

describe('cody persistence and resume (e2e)', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
  });
  afterEach(async () => {
    await harness.close();
  });
  const setUp = (args: string[]) => codyInProcess(harness, args);

  it('remembers Alice across processes: the second request carries the first exchange', async () => {
    const created = await harness.cody(['new']);
    expect(created.code).toBe(0);
    const id = created.stdout.trim();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(created.stdout).toBe(`${id}\n`);

    const first = await harness.cody(['chat', 'my name is Alice']);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('echo: my name is Alice\n');

    const second = await harness.cody(['chat', 'what is my name?']);
    expect(second.code).toBe(0);
    const bodies = chatBodies(harness);
    expect(bodies).toHaveLength(2);
    const sent = texts(bodies[1] as ChatBody);
    expect(sent[0]).toMatch(/^system: You are Cody/);
    expect(sent.slice(1)).toEqual([
      'user: my name is Alice',
      'assistant: echo: my name is Alice',
      'user: what is my name?',
    ]);
    expect(bodies[1]).toMatchObject({ stream: true, stream_options: { include_usage: true } });

    const lines = await harness.rollout(id);
    const first_line = JSON.parse(lines[0] ?? '{}') as { type: string; payload: Record<string, unknown> };
    expect(first_line.type).toBe('session_meta');
    expect(first_line.payload).toMatchObject({
      id,
      originator: 'cody',
      provider: 'openai',
      api: 'openai-chat',
    });
    for (const line of lines) {
      expect(JSON.parse(line)).toMatchObject({
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
    }
    const tokenCounts = linesOfType(lines, 'event_msg').filter((line) => line.payload.type === 'token_count');
    expect(tokenCounts).toHaveLength(2);
  });

  it('survives a 20-iteration shell loop; each request carries the whole history', async () => {
    const result = await harness.shell('for i in $(seq 1 20); do $CODY chat "message $i" || exit 1; done');
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(20);
    const bodies = chatBodies(harness);
    expect(bodies).toHaveLength(20);
    const last = bodies[19] as ChatBody;
    // system + 19 exchanges + the 20th user message
    expect(last.messages).toHaveLength(1 + 19 * 2 + 1);
    expect(texts(last).at(-1)).toBe('user: message 20');
    const conversations = await readdir(join(harness.env.CODY_HOME ?? '', 'conversations'));
    expect(conversations.filter((name) => name.endsWith('.jsonl'))).toHaveLength(1);
    // Twenty processes one after another: on a loaded machine they can outlast the 30 s default.
  }, 90_000);

  it('takes the message from stdin and starts a conversation when there is none (id on stderr)', async () => {
    const result = await harness.cody(['chat'], { input: 'hello from a pipe\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('echo: hello from a pipe\n');
    expect(result.stderr).toMatch(/Started conversation [0-9a-f-]{36}/);
  });

  it('resumes an older conversation by prefix in a fresh process and continues it', async () => {
    const firstId = (await setUp(['new'])).stdout.trim();
    await setUp(['chat', 'first conversation message']);
    const secondId = (await setUp(['new'])).stdout.trim();
    await setUp(['chat', 'second conversation message']);
    expect(firstId).not.toBe(secondId);

    const resumed = await harness.cody(['resume', firstId.slice(0, 13)]);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`✓ Resumed conversation: ${firstId}`);
    expect(resumed.stdout).toMatch(/openai/);
    expect(resumed.stdout).toMatch(/gpt-5\.4/);

    await harness.cody(['chat', 'continuing the first']);
    const last = chatBodies(harness).at(-1) as ChatBody;
    expect(texts(last).slice(1)).toEqual([
      'user: first conversation message',
      'assistant: echo: first conversation message',
      'user: continuing the first',
    ]);
  });

  it('lists conversations newest first, as a table and as JSON, and says so when there are none', async () => {
    const empty = await harness.cody(['list']);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toMatch(/No saved conversations/);
    expect(empty.stdout).toMatch(/cody new/);

    const older = (await setUp(['new'])).stdout.trim();
    await setUp(['chat', 'the older one']);
    const newer = (await setUp(['new'])).stdout.trim();
    await setUp(['chat', 'the newer one']);

    const table = await harness.cody(['list']);
    expect(table.code).toBe(0);
    const rows = table.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/ID\s+UPDATED\s+MODEL\s+MSGS\s+TITLE/);
    // Short unique id prefixes: what `cody resume <prefix>` accepts.
    expect(newer.startsWith(rows[1]?.slice(2).split(' ')[0] ?? 'x')).toBe(true);
    expect(rows[1]).toContain('The newer one');
    expect(older.startsWith(rows[2]?.slice(2).split(' ')[0] ?? 'x')).toBe(true);

    const json = await harness.cody(['list', '--json', '--limit', '1']);
    const listed = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      id: newer,
      provider: 'openai',
      model: 'gpt-5.4',
      messageCount: 2,
      preview: 'the newer one',
    });
  });

  it('names the file and line of a corrupt rollout line and exits non-zero', async () => {
    const id = (await setUp(['new'])).stdout.trim();
    await setUp(['chat', 'one']);
    await setUp(['chat', 'two']);
    const file = join(harness.env.CODY_HOME ?? '', 'conversations', `${id}.jsonl`);
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines[3] = '{"timestamp": "2026-01-01T00:00:00.000Z", "type": "response_item", "payload": {oops';
    await writeFile(file, lines.join('\n'));

    const result = await harness.cody(['chat', 'three']);
    expect(result.code).toBe(6);
    expect(result.stderr).toContain(`${file}:4`);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(harness.server.modelRequests()).toHaveLength(2);
  });

  it('tolerates a torn last line (a crash mid-write) and repairs it on the next append', async () => {
    const id = (await setUp(['new'])).stdout.trim();
    await setUp(['chat', 'before the crash']);
    const file = join(harness.env.CODY_HOME ?? '', 'conversations', `${id}.jsonl`);
    await appendFile(
      file,
      '{"timestamp":"2026-01-01T00:00:00.000Z","type":"response_item","payload":{"type":"mess',
    );

    const result = await harness.cody(['chat', 'after the crash']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warning: .*last line .*incomplete/i);
    const last = chatBodies(harness).at(-1) as ChatBody;
    expect(texts(last).slice(1)).toEqual([
      'user: before the crash',
      'assistant: echo: before the crash',
      'user: after the crash',
    ]);
    const lines = await harness.rollout(id);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    const sidecars = (await readdir(join(harness.env.CODY_HOME ?? '', 'conversations'))).filter((name) =>
      name.includes('.torn'),
    );
    expect(sidecars).toHaveLength(1);
  });

  it('reports an unknown id in one line with exit code 3', async () => {
    const result = await harness.cody(['resume', 'deadbeef']);
    expect(result.code).toBe(3);
    expect(result.stderr.trim()).toBe("cody: Conversation 'deadbeef' not found. List available: cody list");
    const traversal = await harness.cody(['resume', '../../etc/passwd']);
    expect(traversal.code).toBe(2);
    expect(traversal.stderr).toMatch(/not a valid conversation id/);
  });

  it('never interleaves lines when two cody chat processes write one conversation', async () => {
    await harness.close();
    // Slow streaming keeps the first turn holding the lock while the second process starts.
    harness = await createHarness({ chunkDelayMs: 120 });
    const id = (await setUp(['new'])).stdout.trim();
    const [a, b] = await Promise.all([
      harness.cody(['chat', 'from process A']),
      harness.cody(['chat', 'from process B']),
    ]);
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    expect(`${a.stderr}${b.stderr}`).toMatch(/Waiting for another cody process/);
    const items = linesOfType(await harness.rollout(id), 'response_item').map((line) => line.payload);
    const roles = items.filter((item) => item.type === 'message').map((item) => item.role);
    expect(roles).toEqual(['system', 'user', 'assistant', 'user', 'assistant']);
    // The second turn saw the first one complete.
    const second = chatBodies(harness)[1] as ChatBody;
    expect(second.messages).toHaveLength(4);
  });

  it('gives up on a conversation another process keeps locked, with exit code 7', async () => {
    await harness.writeConfig({ lockTimeoutMs: 300 });
    const id = (await setUp(['new'])).stdout.trim();
    const release = await acquireConversationLock(
      join(harness.env.CODY_HOME ?? '', 'conversations', `${id}.jsonl`),
    );
    try {
      const result = await harness.cody(['chat', 'blocked']);
      expect(result.code).toBe(7);
      expect(result.stderr).toMatch(/Waiting for another cody process/);
      expect(result.stderr).toMatch(/is busy: another cody process is writing to it/);
      expect(harness.server.modelRequests()).toHaveLength(0);
    } finally {
      await release();
    }
    expect((await harness.cody(['chat', 'unblocked'])).code).toBe(0);
  });

  it('lists without loading any SDK, zod or the tokenizer', async () => {
    await setUp(['new']);
    await setUp(['chat', 'something to list']);
    const loader = join(harness.home, 'module-logger.mjs');
    await writeFile(
      loader,
      "export async function load(url, context, next) { if (url.startsWith('file:')) process.stderr.write(`LOADED ${url}\\n`); return next(url, context); }\n",
    );
    const bundle = join(REPO_ROOT, 'dist', 'bundle');
    const inputs = JSON.parse(await readFile(join(bundle, 'inputs.json'), 'utf8')) as Record<
      string,
      string[]
    >;
    // Bare `cody list` (one unsplit file) and `cody list --json` (the shared chunks) are both checked.
    for (const args of ['list', 'list --json']) {
      const coverage = join(harness.home, `coverage-${args.replace(/\W+/g, '-')}`);
      const result = await harness.shell(
        `NODE_V8_COVERAGE=${coverage} node --no-warnings --experimental-loader ${loader} ${CODY_BIN} ${args}`,
      );
      expect(result.code, result.stderr).toBe(0);
      // Every script the process compiled, from its coverage report: the ES module loader's hook sees
      // only ES modules, and bare `cody list` is CommonJS.
      const files = await coveredFiles(coverage);
      expect(files.some((file) => file.startsWith(bundle))).toBe(true);
      // The CLI runs from its bundle: map each bundle file back to the source modules it holds.
      const present = files.flatMap((file) =>
        file.startsWith(bundle) ? (inputs[relative(bundle, file)] ?? [`unmapped ${file}`]) : [file],
      );
      expect(present).toContain('src/cli/commands/list.ts');
      expect(present.filter((module) => module.startsWith('unmapped'))).toEqual([]);
      // A module the bundler wrapped for a dynamic import is in the file but runs only when imported: its
      // wrapper (a function named after the module's path) was never called. Every other module ran.
      const neverRan = await uncalledModuleWrappers(coverage);
      const ran = present.filter((module) => !neverRan.has(module));
      for (const heavy of [
        'node_modules/openai/',
        'node_modules/@anthropic-ai/',
        'node_modules/@google/genai/',
        'node_modules/zod/',
        'node_modules/gpt-tokenizer/',
        'src/core/conversation/session.ts',
      ]) {
        expect(
          ran.filter((module) => module.includes(heavy)),
          args,
        ).toEqual([]);
      }
      // Of the providers, only the registry runs (the config's provider is checked against it): the
      // definitions and their data, never a client, converter or stream mapper.
      expect(
        ran.filter((module) => module.startsWith('src/providers/') && !REGISTRY_MODULE.test(module)),
        args,
      ).toEqual([]);
      expect(ran.filter((module) => /src\/providers\/[^/]+\/client\.ts$/.test(module))).toEqual([]);
    }
    // The config set-provider writes is checked without zod; any other config by the full schema (zod),
    // loaded from its own file beside the listing's (dist/bundle/bare-list-config.js).
    const configLoader = `LOADED file://${join(bundle, 'bare-list-config.js')}`;
    await setUp(['set-provider', 'anthropic']);
    const plain = await harness.shell(`node --no-warnings --experimental-loader ${loader} ${CODY_BIN} list`);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('Something to list');
    expect(plain.stderr).not.toContain(configLoader);
    const configFile = join(harness.env.CODY_HOME ?? '', 'config.json');
    const config = JSON.parse(await readFile(configFile, 'utf8')) as Record<string, unknown>;
    await writeFile(configFile, JSON.stringify({ ...config, compact: { threshold: 0.7 } }));
    const tuned = await harness.shell(`node --no-warnings --experimental-loader ${loader} ${CODY_BIN} list`);
    expect(tuned.code, tuned.stderr).toBe(0);
    expect(tuned.stdout).toContain('Something to list');
    // That file holds the schema and zod unwrapped: loading it runs them.
    expect(tuned.stderr).toContain(configLoader);
    expect(inputs['bare-list-config.js']).toEqual(
      expect.arrayContaining(['src/core/config/config-schema.ts', 'node_modules/zod/v3/types.js']),
    );
    // And a bad value there is still refused in one line, exit 2.
    await writeFile(configFile, JSON.stringify({ ...config, compact: { threshold: 7 } }));
    const refused = await harness.shell(`${CODY_BIN} list`);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^cody: .*config\.json: invalid setting 'compact\.threshold'/);
  });

  it('keeps API keys off disk and uses private file modes', async () => {
    const id = (await harness.cody(['new'])).stdout.trim();
    await harness.cody(['chat', 'secret check']);
    await harness.cody(['set-provider', 'anthropic']);
    const home = harness.env.CODY_HOME ?? '';
    expect((await stat(home)).mode & 0o777).toBe(0o700);
    expect((await stat(join(home, 'conversations'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(home, 'conversations', `${id}.jsonl`))).mode & 0o777).toBe(0o600);
    expect((await stat(join(home, 'config.json'))).mode & 0o777).toBe(0o600);
    const files = await readdir(home, { recursive: true });
    for (const file of files) {
      const path = join(home, file);
      if (!(await stat(path)).isFile()) continue;
      const content = await readFile(path, 'utf8');
      for (const key of Object.values(FAKE_KEYS)) expect(content).not.toContain(key);
    }
  });

  it('fails a turn without a key before recording anything, naming the variable', async () => {
    const id = (await setUp(['new'])).stdout.trim();
    const result = await harness.cody(['chat', 'no key'], {
      env: { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined },
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/OPENAI_API_KEY/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    const items = linesOfType(await harness.rollout(id), 'response_item');
    expect(items).toHaveLength(1);
  });

  it('shows, deletes (only with confirmation in scripts) and imports', async () => {
    const id = (await setUp(['new'])).stdout.trim();
    await setUp(['chat', 'show me']);
    const shown = await harness.cody(['show', id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('you › show me');
    expect(shown.stdout).toContain('echo: show me');

    const refused = await harness.cody(['delete', id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--yes/);
    const deleted = await harness.cody(['delete', id, '--yes']);
    expect(deleted.code).toBe(0);
    expect((await harness.cody(['show', id])).code).toBe(3);
  });
});

/** The modules whose bundler wrapper (`"path/of/module.js"() {…}`) V8's coverage saw never called. */
/** The files whose scripts a process with NODE_V8_COVERAGE=coverageDir compiled. */
async function coveredFiles(coverageDir: string): Promise<string[]> {
  const files = new Set<string>();
  for (const file of await readdir(coverageDir)) {
    const report = JSON.parse(await readFile(join(coverageDir, file), 'utf8')) as {
      result: { url: string }[];
    };
    for (const script of report.result) {
      if (script.url.startsWith('file:')) files.add(fileURLToPath(script.url));
    }
  }
  return [...files];
}

async function uncalledModuleWrappers(coverageDir: string): Promise<Set<string>> {
  const uncalled = new Set<string>();
  for (const file of await readdir(coverageDir)) {
    const report = JSON.parse(await readFile(join(coverageDir, file), 'utf8')) as {
      result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[];
    };
    for (const script of report.result) {
      for (const fn of script.functions) {
        if (/^(src|node_modules)\//.test(fn.functionName) && fn.ranges[0]?.count === 0) {
          uncalled.add(fn.functionName);
        }
      }
    }
  }
  return uncalled;
}
