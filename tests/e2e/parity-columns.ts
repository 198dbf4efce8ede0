/**
 * The columns of the parity matrix (tests/e2e/parity-matrix.test.ts): one scripted turn of a row run
 * through one front end — `cody chat` (spawned; on a tmux terminal where the row answers approvals), the
 * REPL (in tmux, the message typed at its prompt), `cody serve` (spawned, answering through
 * `POST /approvals/{id}` from an attached event stream), the library (in process, `respond`) and
 * `cody acp` (spawned, started here; its column is parity-acp.ts) — and
 * what it left behind (see parity-helpers.ts).
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createCody, type ApprovalDecision } from '../../src/index.js';
import { CLI_VERSION } from '../../src/cli/version.js';
import type { FakeApi } from '../fake-provider/types.js';
import { startTmux, type TmuxSession } from '../pty/tmux.js';
import { eventsOf } from '../server/sse-client.js';
import type { AcpAgent } from './acp-client.js';
import type { Harness } from './harness.js';
import { startAcp } from './parity-acp.js';
import { collectRun, type Run } from './parity-helpers.js';
import { startServe, type ServeProcess } from './serve-harness.js';

export interface Call {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}
export interface Answer {
  decision: ApprovalDecision;
  reason?: string;
  /** What the terminal's question shows for this call (to know which one is being asked). */
  shown: string;
}
export interface Row {
  feature: string;
  /** The row's config.json (given the fake provider's address). */
  config: Record<string, unknown> | ((url: string) => Record<string, unknown>);
  /** Done once before the columns run (a stored key, a sign-in). */
  setup?(harness: Harness): Promise<void>;
  /** The wire API the requests go to (default openai-chat). */
  api?: FakeApi;
  /** The user's message (default MESSAGE). */
  message?: string;
  /** The tool calls of the model's first reply (none: the turn is one reply). */
  calls: Call[];
  /** The model's last reply (default "Row done."). */
  reply?: string;
  /** Answers by call id, in the order asked; a row with answers is asked (a terminal, a listening client, a caller). */
  answers?: Record<string, Answer>;
  /** What must have reached the wire and the rollout at all (else parity proves nothing), on the first column's run. */
  check(run: Run): void;
}

/**
 * One row's run through the front ends. `cody serve` and the REPL start when the row begins (each reads
 * config.json once, at start), so their start-up overlaps the columns before theirs.
 */
export interface RowRun {
  harness: Harness;
  row: Row;
  serve: Promise<ServeProcess>;
  repl: Promise<TmuxSession>;
  acp: Promise<AcpAgent>;
}

const terminal = (harness: Harness, args: string[]): Promise<TmuxSession> =>
  startTmux({ args, env: { ...harness.env, TERM: 'xterm-256color' }, cwd: harness.home });

/** Starts the row's `cody serve` and REPL (after its config.json and setup); `stop` ends both. */
export function startRow(harness: Harness, row: Row): RowRun & { stop(): Promise<void> } {
  const serve = startServe(harness);
  const repl = terminal(harness, []);
  const acp = startAcp(harness);
  // Awaited by their columns; a start-up that fails before then is reported there, not as unhandled.
  serve.catch(() => undefined);
  repl.catch(() => undefined);
  acp.catch(() => undefined);
  return {
    harness,
    row,
    serve,
    repl,
    acp,
    stop: async () => {
      await Promise.all([
        serve.then((served) => served.stop()).catch(() => undefined),
        repl.then((tmux) => tmux.kill()).catch(() => undefined),
        acp.then((agent) => agent.close()).catch(() => undefined),
      ]);
    },
  };
}

export const MESSAGE = 'please run the parity row';
export const REPLY = 'Row done.';

function script({ harness, row }: RowRun): void {
  if (row.calls.length > 0) harness.server.enqueue({ type: 'reply', toolCalls: row.calls });
  harness.server.enqueue({ type: 'reply', text: row.reply ?? REPLY });
}

/** Requests one scripted turn makes: one per model reply. */
export const requestCount = (row: Row): number => (row.calls.length > 0 ? 2 : 1);

/** The conversation a `cody chat` on a terminal made: the newest rollout file (the CLI column runs first). */
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

export async function runCli(run: RowRun): Promise<Run> {
  const { harness, row } = run;
  script(run);
  const message = row.message ?? MESSAGE;
  if (row.answers === undefined) {
    const chat = await harness.cody(['chat', '--json', message]);
    expect(chat.code, chat.stderr).toBe(0);
    const id = String((JSON.parse(chat.stdout) as { conversationId: string }).conversationId);
    return collectRun(harness, id, row.api);
  }
  const tmux = await terminal(harness, ['chat', message]);
  try {
    await answerOnTerminal(tmux, row);
    expect(await tmux.waitForExit(30_000)).toBe(0);
  } finally {
    await tmux.kill();
  }
  return collectRun(harness, await newestConversation(harness), row.api);
}

/** The REPL on a tmux terminal (started with the row): the message typed at its prompt, questions answered with keys. */
export async function runRepl(run: RowRun): Promise<Run> {
  const { harness, row } = run;
  script(run);
  const tmux = await run.repl;
  const banner = await tmux.waitFor(/conversation ([0-9a-f-]{36})/);
  const id = /conversation ([0-9a-f-]{36})/.exec(banner)?.[1] ?? '';
  await tmux.waitFor('› ');
  await tmux.send(row.message ?? MESSAGE, { literal: true });
  await tmux.send('Enter');
  await answerOnTerminal(tmux, row);
  // The status line after the turn (the reply itself may be redacted on screen): the turn no longer
  // reads keys (its type-ahead would take Ctrl-D as text).
  await tmux.waitFor(/ \d+ in · \d+ out/, 20_000);
  await tmux.send('C-d');
  await tmux.waitForExit();
  return await collectRun(harness, id, row.api);
}

export async function runLibrary(run: RowRun): Promise<Run> {
  const { harness, row } = run;
  script(run);
  const cody = createCody({
    home: harness.env.CODY_HOME,
    env: harness.env,
    cwd: harness.home,
    canAsk: row.answers !== undefined,
    version: CLI_VERSION,
  });
  try {
    const conversation = await cody.create();
    const events = [];
    for await (const event of conversation.submit(row.message ?? MESSAGE)) {
      events.push(event);
      if (event.type !== 'approval-requested') continue;
      const answer = row.answers?.[event.call.call_id];
      cody.respond(event.id, answer?.decision ?? 'abort', answer?.reason);
    }
    expect(events.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
    return await collectRun(harness, conversation.id, row.api);
  } finally {
    await cody.close();
  }
}

/** Answers approvals from an attached event stream until the turn completes. */
async function answerOverHttp(served: ServeProcess, id: string, row: Row): Promise<void> {
  const stream = await served.api.events(`/conversations/${id}/events`);
  try {
    const accepted = await served.api.request('POST', `/conversations/${id}/messages`, {
      text: row.message ?? MESSAGE,
    });
    expect(accepted.status, accepted.text).toBe(202);
    for (;;) {
      const seen = eventsOf(
        await stream.until((e) => e.type === 'approval-requested' || e.type === 'turn-complete', 20_000),
      );
      const last = seen.at(-1) ?? {};
      if (last.type === 'turn-complete') return;
      const answer = row.answers?.[(last.call as { call_id: string }).call_id];
      const body = {
        decision: answer?.decision ?? 'abort',
        ...(answer?.reason ? { reason: answer.reason } : {}),
      };
      const answered = await served.api.request('POST', `/approvals/${String(last.id)}`, body);
      expect(answered.status, answered.text).toBe(200);
    }
  } finally {
    stream.close();
  }
}

export async function runServe(run: RowRun): Promise<Run> {
  const { harness, row } = run;
  script(run);
  const served = await run.serve;
  const { api } = served;
  const created = await api.request('POST', '/conversations', {});
  expect(created.status, created.text).toBe(201);
  const id = String(created.json.id);
  if (row.answers !== undefined) {
    await answerOverHttp(served, id, row);
  } else {
    // Nobody listens, so nobody can be asked.
    const accepted = await api.request('POST', `/conversations/${id}/messages`, {
      text: row.message ?? MESSAGE,
    });
    expect(accepted.status, accepted.text).toBe(202);
  }
  const started = Date.now();
  while (Date.now() - started < 30_000) {
    const state = await api.request('GET', `/conversations/${id}/state`);
    if (state.json.state === 'Idle' && harness.server.modelRequests(row.api).length === requestCount(row))
      break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return collectRun(harness, id, row.api);
}
