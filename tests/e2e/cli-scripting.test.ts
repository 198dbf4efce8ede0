/**
 * The CLI as scripts and people meet it: typos, prompts as arguments, piped stdin, the --json and
 * stream-json contract (checked against schema/stream-json.schema.json), list, rename, export, redaction,
 * --ephemeral and --continue, through the real binary against the fake provider. Steps that only set a
 * test up run the same command in process (`setUp`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, REPO_ROOT } from './harness.js';
import { codyInProcess } from './in-process.js';

const schema = JSON.parse(readFileSync(join(REPO_ROOT, 'schema/stream-json.schema.json'), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function expectValid(events: ReadonlyArray<Record<string, unknown>>): void {
  for (const event of events) {
    const ok = validate(event);
    expect(ok, `${JSON.stringify(event)}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
  }
}

/** Built by concatenation so this file holds no literal key shape. */
const OPENAI_SHAPED = `sk-proj-${'Zx9_Yw8-Vu'.repeat(5)}`;

describe('cody CLI scripting (e2e)', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
  });
  afterEach(async () => {
    await harness.close();
  });
  const setUp = (args: string[]) => codyInProcess(harness, args);

  it('answers mistyped commands with a suggestion and sends nothing', async () => {
    for (const [args, suggestion] of [
      [['lsit'], "'cody list'"],
      [['chta', 'hi'], "'cody chat'"],
      [['version'], "'cody --version'"],
    ] as const) {
      const run = await harness.cody([...args]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`unknown command '${args[0]}'. Did you mean ${suggestion}?`);
      expect(run.stderr).not.toContain('too many arguments');
    }
    expect(harness.server.modelRequests()).toHaveLength(0);
    // Nothing was created either.
    expect(existsSync(harness.env.CODY_HOME ?? '')).toBe(false);
  });

  it('takes cody "a question" as a prompt, with piped stdin appended as a quoted block', async () => {
    const run = await harness.cody(['summarize this:'], { input: 'line one\nline two\n' });
    expect(run.code).toBe(0);
    const body = harness.server.modelRequests('openai-chat')[0]?.body as {
      messages: Array<{ role: string; content: unknown }>;
    };
    const user = body.messages.at(-1);
    expect(user?.role).toBe('user');
    expect(JSON.stringify(user?.content)).toContain('summarize this:\\n\\n```\\nline one\\nline two\\n```');
    expect(run.stdout).toContain('echo: summarize this:');
  });

  it('cody chat "msg" with piped stdin sends both', async () => {
    const run = await harness.cody(['chat', 'count the lines:'], { input: 'a\nb\n' });
    expect(run.code).toBe(0);
    const sent = JSON.stringify(harness.server.modelRequests('openai-chat')[0]?.body);
    expect(sent).toContain('count the lines:\\n\\n```\\na\\nb\\n```');
  });

  it('--json prints one object at the end with the conversation id, reply, usage and status', async () => {
    const run = await harness.cody(['chat', '--json', 'hello']);
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines).toHaveLength(1);
    const [result] = lines;
    expectValid(lines);
    expect(result).toMatchObject({
      type: 'result',
      status: 'completed',
      reply: 'echo: hello',
      error: null,
      conversationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(result?.usage).toMatchObject({ inputTokens: expect.any(Number) });
  });

  it('stream-json: the first event carries the conversation id, every line fits the schema, the last is the result', async () => {
    const run = await harness.cody(['chat', '--output-format', 'stream-json', 'hello']);
    expect(run.code).toBe(0);
    const events = jsonLines(run.stdout);
    expectValid(events);
    const id = events[0]?.conversationId;
    expect(events[0]).toMatchObject({ type: 'init', api: 'openai-chat', provider: 'openai' });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    for (const event of events) expect(event.conversationId).toBe(id);
    expect(events.some((event) => event.type === 'text-delta')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'result', reply: 'echo: hello' });
  });

  it('stream-json after exhausted retries ends with an error event (and --json with one error object)', async () => {
    await harness.writeConfig({ retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1 } });
    harness.server.enqueue({ type: 'error', status: 500 }, { type: 'error', status: 500 });
    const run = await harness.cody(['chat', '--output-format', 'stream-json', 'hello']);
    expect(run.code).toBe(5);
    const events = jsonLines(run.stdout);
    expectValid(events);
    expect(events.some((event) => event.type === 'retry')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'error', status: 'failed', error: { kind: 'provider' } });

    harness.server.enqueue({ type: 'error', status: 500 }, { type: 'error', status: 500 });
    const json = await harness.cody(['chat', '--json', 'again']);
    expect(json.code).toBe(5);
    const lines = jsonLines(json.stdout);
    expect(lines).toHaveLength(1);
    expectValid(lines);
    expect(lines[0]).toMatchObject({ type: 'error', conversationId: events[0]?.conversationId });
  });

  it('an error before any conversation still ends with an error event', async () => {
    const run = await harness.cody([
      'chat',
      '--output-format',
      'stream-json',
      '--conversation',
      'ffff',
      'hi',
    ]);
    expect(run.code).toBe(3);
    const events = jsonLines(run.stdout);
    expectValid(events);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'error',
        conversationId: null,
        error: expect.objectContaining({ kind: 'not-found' }),
      }),
    ]);
  });

  it('spells api one way: status --json and list --json agree', async () => {
    await setUp(['chat', 'hi']);
    const status = JSON.parse((await harness.cody(['status', '--json'])).stdout) as {
      api: string;
      id: string;
    };
    const list = JSON.parse((await harness.cody(['list', '--json'])).stdout) as Array<{ api: string }>;
    expect(status.api).toBe('openai-chat');
    expect(list[0]?.api).toBe('openai-chat');
    // status takes the id as an argument, like show.
    const byId = await harness.cody(['status', status.id.slice(0, 13)]);
    expect(byId.code).toBe(0);
    expect(byId.stdout).toContain(status.id);
  });

  it('list fits the width, with short ids, relative times and generated or given titles; --search filters', async () => {
    await setUp(['chat', 'please explain the rollout format in detail with many words to fill the row']);
    await setUp(['new']);
    await setUp(['chat', 'second conversation about tmux']);
    const list = await harness.cody(['list'], { env: { COLUMNS: '60' } });
    expect(list.code).toBe(0);
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
    expect(lines[1]).toMatch(/^\* [0-9a-f]{8}\S*\s+just now\s/);
    expect(lines[1]).toContain('Second conversation about');
    expect(lines[2]).toContain('Explain the rollout');

    const ids = JSON.parse((await harness.cody(['list', '--json'])).stdout) as Array<{ id: string }>;
    const renamed = await harness.cody(['rename', ids[1]?.id.slice(0, 13) ?? '', 'Rollout', 'notes']);
    expect(renamed.code).toBe(0);
    const found = await harness.cody(['list', '--search', 'rollout NOTES'.toLowerCase()]);
    expect(found.stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(found.stdout).toContain('Rollout notes');
    const json = JSON.parse((await harness.cody(['list', '--json', '--search', 'tmux'])).stdout) as Array<{
      title: string;
    }>;
    expect(json.map((entry) => entry.title)).toEqual(['Second conversation about tmux']);
  });

  it('cody list and cody status do not create CODY_HOME; import of a missing file is a usage error', async () => {
    expect((await harness.cody(['list'])).code).toBe(0);
    expect(existsSync(harness.env.CODY_HOME ?? '')).toBe(false);
    const imported = await harness.cody(['import', '/nonexistent.jsonl']);
    expect(imported.code).toBe(2);
    expect(imported.stderr).toBe('cody: Cannot read /nonexistent.jsonl: no such file.\n');
  });

  it('redacts key shapes and config patterns from the rollout, and export --redact from the export', async () => {
    await harness.writeConfig({ redact: ['corp-[0-9]{6}'] });
    const run = await harness.cody(['chat', `my key is ${OPENAI_SHAPED} and badge corp-123456`]);
    expect(run.code).toBe(0);
    // The model got the message as typed (it is the person's to send); the rollout did not keep it.
    expect(JSON.stringify(harness.server.modelRequests()[0]?.body)).toContain(OPENAI_SHAPED);
    const [file] = (await readdir(join(harness.env.CODY_HOME ?? '', 'conversations'))).filter((name) =>
      name.endsWith('.jsonl'),
    );
    const text = readFileSync(join(harness.env.CODY_HOME ?? '', 'conversations', file ?? ''), 'utf8');
    expect(text).not.toContain(OPENAI_SHAPED);
    expect(text).not.toContain('corp-123456');
    expect(text).toContain('my key is [REDACTED] and badge [REDACTED]');

    for (const format of ['md', 'json', 'html']) {
      const exported = await harness.cody(['export', '--format', format, '--redact']);
      expect(exported.code).toBe(0);
      expect(exported.stdout).toContain('[REDACTED]');
      expect(exported.stdout).not.toContain('corp-123456');
    }
    const md = (await harness.cody(['export', '--format', 'md'])).stdout;
    expect(md).toMatch(/^# Conversation [0-9a-f-]{36}\n/);
    expect(md).toContain('## You\n\nmy key is [REDACTED]');
    const html = (await harness.cody(['export', '--format', 'html'])).stdout;
    expect(html).toMatch(/^<!doctype html>/);
  });

  it('--ephemeral writes no rollout; -c continues the most recently used conversation', async () => {
    const eph = await harness.cody(['chat', '--ephemeral', 'nothing saved']);
    expect(eph.code).toBe(0);
    expect(eph.stdout).toContain('echo: nothing saved');
    const listed = JSON.parse((await harness.cody(['list', '--json'])).stdout) as unknown[];
    expect(listed).toEqual([]);

    const first = (await setUp(['new'])).stdout.trim();
    await setUp(['chat', 'in the first']);
    await setUp(['new']);
    await setUp(['chat', '--conversation', first.slice(0, 13), 'touch the first again']);
    // The active conversation is the second one, but the first was used last.
    const cont = await harness.cody(['chat', '-c', '--json', 'continue']);
    expect(JSON.parse(cont.stdout)).toMatchObject({ conversationId: first });
  });

  it('prints completion scripts the shells accept', async () => {
    const bash = await harness.cody(['completion', 'bash']);
    expect(bash.code).toBe(0);
    expect(bash.stdout).toContain('complete -F _cody cody');
    const checked = await harness.shell(`cat > s.bash <<'X'\n${bash.stdout}\nX\nbash -n s.bash`);
    expect(checked.code).toBe(0);
    expect((await harness.cody(['completion', 'zsh'])).stdout).toContain('compdef _cody cody');
    expect((await harness.cody(['completion', 'fish'])).stdout).toContain(
      "complete -c cody -f -n '__fish_use_subcommand'",
    );
    expect((await harness.cody(['completion', 'tcsh'])).code).toBe(2);
  });

  it('a refused connection fails at once and names the address', async () => {
    const { createServer } = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    const run = await harness.cody(['chat', 'hi'], {
      env: { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
    });
    expect(run.code).toBe(5);
    expect(run.stderr).not.toContain('Retrying');
    // The server and its address, not the wire API's failed request (issue 29).
    expect(run.stderr).toContain(`cannot reach openai at http://127.0.0.1:${port} (connection refused)`);
    expect(run.stderr).not.toContain('openai-chat request failed');
  });

  it('cody fork --at N starts a new conversation with forked_from_id and the history up to user turn N', async () => {
    const source = (await setUp(['new'])).stdout.trim();
    await setUp(['chat', 'first question']);
    await setUp(['chat', 'second question']);
    const forked = await harness.cody(['fork', source.slice(0, 13), '--at', '1']);
    expect(forked.code).toBe(0);
    const id = forked.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(id).not.toBe(source);
    const lines = await harness.rollout(id);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      type: 'session_meta',
      payload: { id, forked_from_id: source },
    });
    expect(lines.slice(1).join('\n')).toContain('first question');
    expect(lines.slice(1).join('\n')).not.toContain('second question');
    // The fork is active; its next request carries only the first exchange.
    await harness.cody(['chat', 'in the fork']);
    const sent = JSON.stringify(harness.server.modelRequests('openai-chat').at(-1)?.body);
    expect(sent).toContain('first question');
    expect(sent).not.toContain('second question');
    // The source is untouched; a whole fork copies everything; a turn past the end is a usage error.
    expect((await harness.rollout(source)).join('\n')).toContain('second question');
    const whole = (await harness.cody(['fork', source])).stdout.trim();
    expect((await harness.rollout(whole)).join('\n')).toContain('second question');
    expect((await harness.cody(['fork', source, '--at', '5'])).code).toBe(2);
  });
});
