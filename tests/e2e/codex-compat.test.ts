/**
 * Codex reads what Cody writes. A conversation with a compaction, a tool call and a provider switch (with
 * Claude's thinking) is made through `bin/cody.js` against the fake provider. Its rollout is checked line
 * by line against what Codex 0.169 needs to parse each line and to list the conversation
 * (codex-rollout-requirements.ts, measured against the real binary). When the real Codex CLI is there
 * (`CODY_CODEX_BIN` or `CODEX_BIN`, or `codex` on PATH; `npm i @openai/codex` ships it), it also resumes the rollout
 * against the same fake provider with zero "failed to parse rollout line" in its trace log, sends the
 * history without Claude's thinking, and lists the conversation with its first message
 * (`codex app-server`, `thread/list`). Without Codex the test says so and checks Cody's side only.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codexLineProblems, codexListProblems } from './codex-rollout-requirements.js';
import { createHarness, FAKE_KEYS, type Harness } from './harness.js';

type Json = Record<string, unknown>;

/** The Codex binary to try: `CODY_CODEX_BIN`, else `codex` on PATH; undefined when there is none. */
function findCodex(): string | undefined {
  const candidates = [
    process.env.CODY_CODEX_BIN,
    process.env.CODEX_BIN,
    ...(process.env.PATH ?? '').split(delimiter).map((dir) => (dir ? join(dir, 'codex') : undefined)),
  ];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], env: Record<string, string>, input?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** `thread/list` over `codex app-server`'s JSON-RPC on stdio. */
function listThreads(codex: string, env: Record<string, string>): Promise<Json[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(codex, ['app-server'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let buffer = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('codex app-server did not answer thread/list'));
    }, 30_000);
    const send = (message: Json): void => {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        const message = JSON.parse(buffer.slice(0, end)) as Json;
        buffer = buffer.slice(end + 1);
        if (message.id === 1) {
          send({ method: 'initialized' });
          send({ id: 2, method: 'thread/list', params: {} });
        } else if (message.id === 2) {
          clearTimeout(timer);
          child.kill();
          resolve(((message.result as Json | undefined)?.data as Json[] | undefined) ?? []);
        }
      }
    });
    child.on('error', reject);
    send({ id: 1, method: 'initialize', params: { clientInfo: { name: 'cody-test', version: '0' } } });
  });
}

describe('Codex reads Cody rollouts', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  it('a conversation with a compaction, a tool call and a provider switch is one Codex parses, lists and resumes', async () => {
    const { server } = harness;
    const cody = async (args: string[]): Promise<void> => {
      const result = await harness.cody(args);
      expect(result.code, result.stderr).toBe(0);
    };
    await writeFile(join(harness.home, 'notes.txt'), 'Buy milk.\n');
    await cody(['set-provider', 'openai', '--api', 'responses', '--model', 'gpt-5']);
    const first = `Plan the database migration. ${'Keep the old columns until the backfill ends. '.repeat(30)}`;
    server.enqueue({ type: 'reply', text: `Step ${'one, then the next step of the plan. '.repeat(200)}` });
    await cody(['chat', first]);
    await cody(['compact', '--focus', 'the migration']);
    server.enqueue(
      {
        type: 'reply',
        reasoning: 'The notes file should say.',
        toolCalls: [{ id: 'call_notes', name: 'read_file', arguments: { path: 'notes.txt' } }],
      },
      { type: 'reply', text: 'The notes say: buy milk.' },
    );
    await cody(['chat', 'What is in notes.txt?']);
    await cody(['set-provider', 'anthropic']);
    server.enqueue({ type: 'reply', reasoning: 'Claude considers it.', text: 'Milk, then.' });
    await cody(['chat', 'And on Claude?']);

    const id = JSON.parse((await harness.cody(['list', '--json'])).stdout)[0].id as string;
    const rolloutLines = await harness.rollout(id);
    const lines = rolloutLines.map((line) => JSON.parse(line) as Json);
    // Everything the conversation needs is there to be checked.
    const kinds = lines.map((line) => `${String(line.type)}:${String((line.payload as Json).type ?? '')}`);
    for (const kind of [
      'compacted:',
      'response_item:function_call',
      'response_item:reasoning',
      'response_item:cody_reasoning',
      'response_item:cody_turn_complete',
      'response_item:cody_context_compacted',
      'event_msg:user_message',
      'event_msg:token_count',
      'turn_context:',
    ])
      expect(kinds).toContain(kind);

    const problems = lines.flatMap((line, index) =>
      codexLineProblems(line).map((problem) => `line ${index + 1}: ${problem}`),
    );
    expect(problems).toEqual([]);
    expect(codexListProblems(lines)).toEqual([]);

    const codex = findCodex();
    if (!codex) {
      console.log(
        'Codex CLI not found (set CODY_CODEX_BIN or put codex on PATH): the rollout was checked against the field requirements measured with Codex 0.169 only.',
      );
      return;
    }

    const codexHome = join(harness.home, '.codex');
    const sessions = join(codexHome, 'sessions', '2026', '01', '01');
    await mkdir(sessions, { recursive: true });
    await copyFile(
      join(harness.env.CODY_HOME ?? '', 'conversations', `${id}.jsonl`),
      join(sessions, `rollout-2026-01-01T00-00-00-${id}.jsonl`),
    );
    await writeFile(
      join(codexHome, 'config.toml'),
      `model = "gpt-5"\nopenai_base_url = "${server.url}/v1"\n`,
    );
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: harness.home,
      CODEX_HOME: codexHome,
      // The same account as Cody's turns: the fake, like OpenAI, binds encrypted reasoning to the account.
      CODEX_API_KEY: FAKE_KEYS.OPENAI_API_KEY,
      RUST_LOG: 'codex_rollout=trace',
    };

    const threads = await listThreads(codex, env);
    expect(threads.map((thread) => thread.id)).toContain(id);
    const thread = threads.find((candidate) => candidate.id === id);
    expect(String(thread?.preview).trim()).toBe(first.trim());

    server.reset();
    const resumed = await run(
      codex,
      ['exec', '--skip-git-repo-check', 'resume', id, 'hello from codex'],
      env,
    );
    expect(resumed.code, `${resumed.stdout.slice(-1500)}\n${resumed.stderr.slice(-3000)}`).toBe(0);
    expect(resumed.stderr).toMatch(/Resumed rollout with \d+ items.*parse errors: 0/);
    expect(resumed.stderr).not.toContain('failed to parse rollout line');
    const request = server
      .modelRequests('openai-responses')
      .find((candidate) => candidate.rejected === undefined);
    const input = JSON.stringify((request?.body as Json | undefined)?.input ?? []);
    expect(input).toContain('hello from codex');
    expect(input).toContain('call_notes');
    expect(input).toContain('Buy milk.');
    expect(input).not.toContain('Claude considers it.');
    // Cody's own reasoning from the Responses API goes back with its id, as Codex sends reasoning.
    expect(input).toContain('The notes file should say.');
    console.log(`Codex (${codex}) listed and resumed the Cody rollout with zero parse errors.`);
  }, 120_000);
});
