/**
 * The parity matrix (issue 20): one row per config feature, one column per front end. Each row's
 * config.json and scripted turn run through `cody chat` (spawned; on a tmux terminal where the row
 * answers approvals), the library (in process, answering with `respond`) and `cody serve` (spawned
 * once per row since it reads config.json once, answering through `POST /approvals/{id}` from an
 * attached event stream); every column must send the same requests (so the model sees the same tool
 * outputs, denial text included) with the same credentials, and record the same rollout lines, up to
 * ids, times and durations. Rows: approval auto-edit (one call approved, one denied with a reason),
 * read-only refusing a write, the sandbox on (bubblewrap; a write outside the workspace fails), the
 * sign-in chosen in config.json over a stored key (bearer and account id headers). Redaction, MCP
 * tools, dangerous commands, the shell timeout and the model override are the row of
 * engine-parity.test.ts. The REPL column (tmux, keys) covers only the row that answers approvals (a
 * pty run costs seconds); tests/pty/repl-engine.test.ts compares it with the library on full-auto.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCody } from '../../src/index.js';
import { CLI_VERSION } from '../../src/cli/version.js';
import type { ApprovalDecision } from '../../src/core/conversation/session-events.js';
import { mkdir, writeFile } from 'node:fs/promises';
import { fakeJwt } from '../fake-provider/token-endpoint.js';
import type { FakeApi } from '../fake-provider/types.js';
import { startTmux, type TmuxSession } from '../pty/tmux.js';
import { eventsOf } from '../server/sse-client.js';
import { createHarness, type Harness } from './harness.js';
import { collectRun, type Run } from './parity-helpers.js';
import { startServe } from './serve-harness.js';

const MESSAGE = 'please run the parity row';
const ACCOUNT = 'acct-parity-1';
const ACCESS = fakeJwt({
  exp: Math.floor(Date.now() / 1000) + 3600,
  'https://api.openai.com/auth': { chatgpt_account_id: ACCOUNT },
});
const STORED_KEY = 'sk-stored-parity-key-0099';
const BASE = { provider: 'openai', api: 'chat', model: 'gpt-4.1-mini', sandbox: { enabled: false } };

interface Call {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}
interface Answer {
  decision: ApprovalDecision;
  reason?: string;
  /** What the terminal's question shows for this call (to know which one is being asked). */
  shown: string;
}
interface Row {
  feature: string;
  /** The config.json (given the fake provider's address). */
  config: Record<string, unknown> | ((url: string) => Record<string, unknown>);
  /** Done once before the columns run (a stored key, a sign-in). */
  setup?(harness: Harness): Promise<void>;
  /** The wire API the requests go to (default openai-chat). */
  api?: FakeApi;
  calls: Call[];
  /** Answers by call id; a row with answers is asked (a terminal, a listening client, a library caller). */
  answers?: Record<string, Answer>;
  /** What must have reached the model at all (else parity proves nothing): the tool outputs by call id. */
  check(outputs: Record<string, string>, run: Run): void;
}

const ROWS: Row[] = [
  {
    feature: 'approval policy auto-edit: one call approved, one denied with a reason',
    config: { ...BASE, approval: 'auto-edit' },
    calls: [
      { id: 'call_yes', name: 'shell', arguments: { command: 'touch parity-yes.txt && echo made yes' } },
      { id: 'call_no', name: 'shell', arguments: { command: 'touch parity-no.txt && echo made no' } },
    ],
    answers: {
      call_yes: { decision: 'approve', shown: 'parity-yes.txt' },
      call_no: { decision: 'deny', reason: 'not that one', shown: 'parity-no.txt' },
    },
    check: (outputs) => {
      expect(outputs.call_yes).toMatch(/^Exit code: 0\n[^]*made yes\n$/);
      expect(outputs.call_no).toBe('The user declined to run this tool call and said: not that one');
    },
  },
  {
    feature: 'approval policy read-only: a write is refused',
    config: { ...BASE, approval: 'read-only' },
    calls: [
      { id: 'call_write', name: 'write_file', arguments: { path: 'parity-ro.txt', content: 'no\n' } },
      { id: 'call_touch', name: 'shell', arguments: { command: 'touch parity-ro2.txt && echo touched' } },
    ],
    check: (outputs) => {
      expect(outputs.call_write).toMatch(/^Declined by policy: the read-only approval policy refuses this/);
      expect(outputs.call_touch).toMatch(/^Declined by policy: the read-only approval policy refuses this/);
    },
  },
  {
    feature: 'sandbox on: a write outside the workspace fails inside bubblewrap',
    config: { ...BASE, approval: 'full-auto', sandbox: { enabled: true } },
    calls: [
      {
        id: 'call_out',
        name: 'shell',
        // Through a variable: the analysis cannot check it, so only a sandbox lets it run unasked.
        arguments: { command: 'd=/usr; echo inside > "$d/parity-outside.txt"; echo status $?' },
      },
    ],
    check: (outputs) => {
      expect(outputs.call_out).toMatch(/Read-only file system[^]*status 1\n$/);
    },
  },
  {
    feature: 'sign-in choice: config.json chooses the ChatGPT sign-in over a stored API key',
    config: (url) => ({
      provider: 'openai',
      api: 'responses',
      model: 'gpt-5',
      auth: { openai: 'chatgpt' },
      baseUrls: { openai: `${url}/backend-api/codex` },
      approval: 'full-auto',
      sandbox: { enabled: false },
    }),
    setup: async (harness) => {
      // No key in the environment (it would be an explicit source of its own); one in Cody's key store.
      delete harness.env.OPENAI_API_KEY;
      harness.env.CODEX_HOME = join(harness.home, '.codex');
      // Never reached (the access token is valid for an hour); kept off the real network anyway.
      harness.env.CODY_OPENAI_TOKEN_URL = `${harness.server.url}/no-token-endpoint`;
      await mkdir(harness.env.CODEX_HOME, { recursive: true });
      const document = {
        OPENAI_API_KEY: null,
        tokens: {
          id_token: fakeJwt({}),
          access_token: ACCESS,
          refresh_token: 'rt-parity',
          account_id: ACCOUNT,
        },
      };
      await writeFile(join(harness.env.CODEX_HOME, 'auth.json'), JSON.stringify(document), { mode: 0o600 });
      const login = await harness.cody(['auth', 'login', 'openai'], { input: `${STORED_KEY}\n` });
      expect(login.code, login.stderr).toBe(0);
    },
    api: 'openai-responses',
    calls: [],
    check: (_outputs, run) => {
      expect(run.credentials).toEqual([{ authorization: `Bearer ${ACCESS}`, account: ACCOUNT }]);
      expect(JSON.stringify(run)).not.toContain(STORED_KEY);
    },
  },
];

function script(harness: Harness, row: Row): void {
  if (row.calls.length > 0) harness.server.enqueue({ type: 'reply', toolCalls: row.calls });
  harness.server.enqueue({ type: 'reply', text: 'Row done.' });
}

/** The tool outputs a request carries, by call id (Chat Completions `tool` messages, Responses items). */
function toolOutputs(request: unknown): Record<string, string> {
  const body = request as {
    messages?: Array<{ role: string; tool_call_id?: string; content: string }>;
    input?: Array<{ type?: string; call_id?: string; output?: string }>;
  };
  const chat = (body.messages ?? []).filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content]);
  const responses = (body.input ?? [])
    .filter((item) => item.type === 'function_call_output')
    .map((item) => [item.call_id, item.output]);
  return Object.fromEntries([...chat, ...responses].map(([id, text]) => [id ?? '', text ?? '']));
}

/** Requests one scripted turn makes: one per model reply. */
const requestCount = (row: Row): number => (row.calls.length > 0 ? 2 : 1);

/** The conversation a spawned `cody chat` made: the one rollout file that was not there before. */
async function newestConversation(harness: Harness): Promise<string> {
  const dir = join(harness.env.CODY_HOME ?? '', 'conversations');
  const files = (await readdir(dir)).filter((name) => name.endsWith('.jsonl'));
  const times = await Promise.all(files.map(async (name) => (await stat(join(dir, name))).mtimeMs));
  const newest = files[times.indexOf(Math.max(...times))] ?? '';
  return newest.replace(/\.jsonl$/, '');
}

/** Answers the row's approval questions on a terminal, in the order the calls come. */
async function answerOnTerminal(tmux: TmuxSession, row: Row): Promise<void> {
  for (const answer of Object.values(row.answers ?? {})) {
    await tmux.waitFor(new RegExp(`Allow .*${answer.shown}[^]*\\[n\\] no`), 20_000);
    // The question ignores keys within its guard time.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await tmux.send(answer.decision === 'approve' ? 'y' : 'n', { literal: true });
    if (answer.decision === 'deny') {
      await tmux.waitFor('Why not?');
      await tmux.send(answer.reason ?? '', { literal: true });
      await tmux.send('Enter');
    }
    await tmux.waitFor(answer.decision === 'approve' ? '→ yes' : '→ no');
  }
}

async function runCli(harness: Harness, row: Row): Promise<Run> {
  script(harness, row);
  if (row.answers === undefined) {
    const chat = await harness.cody(['chat', '--json', MESSAGE]);
    expect(chat.code, chat.stderr).toBe(0);
    return collectRun(
      harness,
      String((JSON.parse(chat.stdout) as { conversationId: string }).conversationId),
      row.api,
    );
  }
  const tmux = await startTmux({
    args: ['chat', MESSAGE],
    env: { ...harness.env, TERM: 'xterm-256color' },
    cwd: harness.home,
  });
  try {
    await answerOnTerminal(tmux, row);
    expect(await tmux.waitForExit(30_000)).toBe(0);
  } finally {
    await tmux.kill();
  }
  return collectRun(harness, await newestConversation(harness), row.api);
}

/** The REPL on a tmux terminal: the message typed at its prompt, the row's questions answered with keys. */
async function runRepl(harness: Harness, row: Row): Promise<Run> {
  script(harness, row);
  const tmux = await startTmux({
    args: [],
    env: { ...harness.env, TERM: 'xterm-256color' },
    cwd: harness.home,
  });
  try {
    const banner = await tmux.waitFor(/conversation ([0-9a-f-]{36})/);
    const id = /conversation ([0-9a-f-]{36})/.exec(banner)?.[1] ?? '';
    await tmux.waitFor('› ');
    await tmux.send(MESSAGE, { literal: true });
    await tmux.send('Enter');
    await answerOnTerminal(tmux, row);
    await tmux.waitFor('Row done.', 20_000);
    // The status line: the turn no longer reads keys (its type-ahead would take Ctrl-D as text).
    await tmux.waitFor(/\$0\.\d{4}/, 20_000);
    await tmux.send('C-d');
    await tmux.waitForExit();
    return await collectRun(harness, id, row.api);
  } finally {
    await tmux.kill();
  }
}

async function runLibrary(harness: Harness, row: Row): Promise<Run> {
  script(harness, row);
  const cody = createCody({
    home: harness.env.CODY_HOME,
    env: harness.env,
    cwd: harness.home,
    canAsk: row.answers !== undefined,
    version: CLI_VERSION,
  });
  const conversation = await cody.create();
  const events = [];
  for await (const event of conversation.submit(MESSAGE)) {
    events.push(event);
    if (event.type !== 'approval-requested') continue;
    const answer = row.answers?.[event.call.call_id];
    cody.respond(event.id, answer?.decision ?? 'abort', answer?.reason);
  }
  expect(events.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
  await cody.close();
  return collectRun(harness, conversation.id, row.api);
}

async function runServe(harness: Harness, row: Row): Promise<Run> {
  script(harness, row);
  const served = await startServe(harness);
  try {
    const { api } = served;
    const id = String((await api.request('POST', '/conversations', {})).json.id);
    // A row that answers listens as a client would; one that does not leaves nobody to ask.
    const stream = row.answers !== undefined ? await api.events(`/conversations/${id}/events`) : undefined;
    const accepted = await api.request('POST', `/conversations/${id}/messages`, { text: MESSAGE });
    expect(accepted.status, accepted.text).toBe(202);
    if (stream !== undefined) {
      for (;;) {
        const seen = eventsOf(
          await stream.until((e) => e.type === 'approval-requested' || e.type === 'turn-complete', 20_000),
        );
        const last = seen.at(-1) ?? {};
        if (last.type === 'turn-complete') break;
        const call = last.call as { call_id: string };
        const answer = row.answers?.[call.call_id];
        const body = {
          decision: answer?.decision ?? 'abort',
          ...(answer?.reason ? { reason: answer.reason } : {}),
        };
        const answered = await api.request('POST', `/approvals/${String(last.id)}`, body);
        expect(answered.status, answered.text).toBe(200);
      }
      stream.close();
    }
    const started = Date.now();
    while (Date.now() - started < 30_000) {
      const state = await api.request('GET', `/conversations/${id}/state`);
      if (state.json.state === 'Idle' && harness.server.modelRequests(row.api).length === requestCount(row))
        break;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    return await collectRun(harness, id, row.api);
  } finally {
    await served.stop();
  }
}

describe('the parity matrix: each config feature the same on cody chat, the library and cody serve', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  it.each(ROWS.map((row) => [row.feature, row] as const))(
    '%s',
    async (_feature, row) => {
      await harness.writeConfig(
        typeof row.config === 'function' ? row.config(harness.server.url) : row.config,
      );
      await row.setup?.(harness);
      const cli = await runCli(harness, row);
      const library = await runLibrary(harness, row);
      const server = await runServe(harness, row);

      expect(cli.requests).toHaveLength(requestCount(row));
      row.check(toolOutputs(cli.requests.at(-1)), cli);
      expect(library.requests).toEqual(cli.requests);
      expect(server.requests).toEqual(cli.requests);
      expect(library.rollout).toEqual(cli.rollout);
      expect(server.rollout).toEqual(cli.rollout);
      expect(library.credentials).toEqual(cli.credentials);
      if (row.answers !== undefined) {
        // The REPL column, for the rows that answer approvals (a pty run costs seconds).
        const repl = await runRepl(harness, row);
        expect(repl.requests).toEqual(cli.requests);
        expect(repl.rollout).toEqual(cli.rollout);
      }
      expect(server.credentials).toEqual(cli.credentials);
    },
    90_000,
  );
});
