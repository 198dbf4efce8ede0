/**
 * The parity matrix (issue 20): the same config.json and the same scripted turn through every front end
 * send the same requests (bodies and credentials) and record the same rollout lines, up to ids, times
 * and durations; each row also checks, on the first column's run, that its feature reached the wire and
 * the rollout at all (else parity proves nothing).
 *
 * Rows (ROWS), each with its own minimal config.json:
 *   redaction · MCP tools · sandbox · dangerous commands · approval policy auto-edit · approval policy
 *   read-only · sign-in choice · model override · shell timeout · hooks
 * Columns (COLUMNS, run in this order by tests/e2e/parity-columns.ts; the first is the reference):
 *   cody chat   spawned: `--json` when the row answers nothing, else on a tmux terminal answered with keys
 *   REPL        `cody` on a tmux terminal, the message typed at its prompt, questions answered with keys
 *   library     createCody in process, questions answered with `respond`
 *   cody serve  spawned, questions answered through `POST /approvals/{id}` from an attached event
 *               stream; in rows that answer nothing, nobody listens
 *   cody acp    spawned, driven by the ACP SDK's client (tests/e2e/parity-acp.ts), questions answered
 *               with permission options; ACP's "Reject" carries no reason, so a denial's reason is
 *               dropped from what it must match
 * `cody serve` and the REPL read config.json once, at start, and every row's config differs; every row
 * also has its own harness (CODY_HOME, fake provider), so `cody acp` too is one process per row: each
 * row starts one of each when it begins (their start-up overlaps the `cody chat` column) and stops them
 * at its end. Cost and the breaks each row was checked to catch: DECISIONS.md, "The parity matrix".
 */
import { join } from 'node:path';
import { mkdir, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeJwt } from '../fake-provider/token-endpoint.js';
import { createHarness, type Harness } from './harness.js';
import {
  runCli,
  runLibrary,
  runRepl,
  runServe,
  requestCount,
  startRow,
  type Row,
  type RowRun,
} from './parity-columns.js';
import { runAcp, withoutReasons } from './parity-acp.js';
import { toolNames, toolOutputs, type Run } from './parity-helpers.js';
import { EVERYTHING } from './tool-fixtures.js';

const ACCOUNT = 'acct-parity-1';
const ACCESS = fakeJwt({
  exp: Math.floor(Date.now() / 1000) + 3600,
  'https://api.openai.com/auth': { chatgpt_account_id: ACCOUNT },
});
const STORED_KEY = 'sk-stored-parity-key-0099';
const BASE = { provider: 'openai', api: 'chat', model: 'gpt-4.1-mini', sandbox: { enabled: false } };

/** Exit 2 with a reason on stderr when the command names `parity-forbidden` (read from the hook's stdin). */
const BLOCK_HOOK = 'grep -q parity-forbidden && { echo "Blocked by the parity hook" >&2; exit 2; }; exit 0';

const first = (run: Run): unknown => run.requests[0];
const outputs = (run: Run): Record<string, string> => toolOutputs(run.requests.at(-1));

/** A ChatGPT sign-in in Codex's auth.json and an API key in Cody's key store (no key in the environment). */
async function signInAndStoreKey(harness: Harness): Promise<void> {
  delete harness.env.OPENAI_API_KEY;
  harness.env.CODEX_HOME = join(harness.home, '.codex');
  // Never reached (the access token is valid for an hour); kept off the real network anyway.
  harness.env.CODY_OPENAI_TOKEN_URL = `${harness.server.url}/no-token-endpoint`;
  await mkdir(harness.env.CODEX_HOME, { recursive: true });
  const tokens = {
    id_token: fakeJwt({}),
    access_token: ACCESS,
    refresh_token: 'rt-parity',
    account_id: ACCOUNT,
  };
  await writeFile(
    join(harness.env.CODEX_HOME, 'auth.json'),
    JSON.stringify({ OPENAI_API_KEY: null, tokens }),
    { mode: 0o600 },
  );
  const login = await harness.cody(['auth', 'login', 'openai'], { input: `${STORED_KEY}\n` });
  expect(login.code, login.stderr).toBe(0);
}

const ROWS: Row[] = [
  {
    feature:
      'redaction: config.json `redact` patterns masked in every rollout line and in tool output on the wire',
    config: { ...BASE, approval: 'full-auto', redact: ['PARITY-[0-9]+'] },
    message: 'check PARITY-5 please',
    calls: [{ id: 'call_plain', name: 'shell', arguments: { command: 'echo plain PARITY-1234' } }],
    reply: 'Row done, PARITY-7.',
    check: (run) => {
      expect(outputs(run).call_plain).toContain('plain [REDACTED]');
      expect(outputs(run).call_plain).not.toMatch(/PARITY-\d/);
      expect(JSON.stringify(run.rollout)).not.toMatch(/PARITY-\d/);
      expect(JSON.stringify(run.rollout)).toContain('[REDACTED]');
    },
  },
  {
    feature: 'MCP tools: a configured server’s tools offered and called',
    config: {
      ...BASE,
      approval: 'full-auto',
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
    },
    calls: [{ id: 'call_mcp', name: 'everything__echo', arguments: { message: 'mcp parity' } }],
    check: (run) => {
      expect(toolNames(first(run))).toContain('everything__echo');
      expect(outputs(run).call_mcp).toContain('Echo: mcp parity');
    },
  },
  {
    feature: 'sandbox on: a write outside the workspace fails inside bubblewrap',
    config: { ...BASE, approval: 'full-auto', sandbox: { enabled: true } },
    calls: [
      {
        id: 'call_out',
        name: 'shell',
        // Through a variable: the analysis cannot check it, so only a sandbox lets it run unasked. The
        // shell's complaint goes to stdout (`{ …; } 2>&1`), so it comes before "status" in every run.
        arguments: { command: 'd=/usr; { echo inside > "$d/parity-outside.txt"; } 2>&1; echo status $?' },
      },
    ],
    check: (run) => {
      expect(outputs(run).call_out).toMatch(/Read-only file system\nstatus 1\n$/);
    },
  },
  {
    feature: 'dangerous commands: asked even under full-auto (denied with a reason), the rest runs unasked',
    config: { ...BASE, approval: 'full-auto', dangerousCommands: ['parity-danger'] },
    calls: [
      { id: 'call_safe', name: 'shell', arguments: { command: 'echo safe one' } },
      { id: 'call_danger', name: 'shell', arguments: { command: 'echo parity-danger' } },
    ],
    answers: { call_danger: { decision: 'deny', reason: 'not that', shown: 'parity-danger' } },
    check: (run) => {
      expect(outputs(run).call_safe).toMatch(/^Exit code: 0\n[^]*safe one\n$/);
      expect(outputs(run).call_danger).toBe('The user declined to run this tool call and said: not that');
    },
  },
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
    check: (run) => {
      expect(outputs(run).call_yes).toMatch(/^Exit code: 0\n[^]*made yes\n$/);
      expect(outputs(run).call_no).toBe('The user declined to run this tool call and said: not that one');
    },
  },
  {
    feature: 'approval policy read-only: writes refused without asking',
    config: { ...BASE, approval: 'read-only' },
    calls: [
      { id: 'call_write', name: 'write_file', arguments: { path: 'parity-ro.txt', content: 'no\n' } },
      { id: 'call_touch', name: 'shell', arguments: { command: 'touch parity-ro2.txt && echo touched' } },
    ],
    check: (run) => {
      const refused = /^Declined by policy: the read-only approval policy refuses this/;
      expect(outputs(run).call_write).toMatch(refused);
      expect(outputs(run).call_touch).toMatch(refused);
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
    setup: signInAndStoreKey,
    api: 'openai-responses',
    calls: [],
    check: (run) => {
      expect(run.credentials).toEqual([{ authorization: `Bearer ${ACCESS}`, account: ACCOUNT }]);
      expect(JSON.stringify(run)).not.toContain(STORED_KEY);
    },
  },
  {
    feature: 'model override: config.json’s model and its `models` catalogue entry',
    config: { ...BASE, model: 'gpt-4o-mini', models: { 'gpt-4o-mini': { maxOutputTokens: 1234 } } },
    calls: [],
    check: (run) => {
      expect(first(run)).toMatchObject({ model: 'gpt-4o-mini', max_completion_tokens: 1234 });
      expect(JSON.stringify(run.rollout)).toContain('"model":"gpt-4o-mini"');
    },
  },
  {
    feature: 'shell timeout: config.json’s shellTimeoutMs kills a slow command',
    config: { ...BASE, approval: 'full-auto', shellTimeoutMs: 500 },
    calls: [{ id: 'call_slow', name: 'shell', arguments: { command: 'sleep 5; echo finished' } }],
    check: (run) => {
      expect(outputs(run).call_slow).toContain('Timed out after <duration>; the command was killed');
      expect(outputs(run).call_slow).not.toContain('finished');
    },
  },
  {
    feature: 'hooks: a PreToolUse hook on Bash blocks by exit 2, a UserPromptSubmit hook adds context',
    config: {
      ...BASE,
      approval: 'full-auto',
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: BLOCK_HOOK }] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo "Parity rule: say please."' }] }],
      },
    },
    calls: [
      { id: 'call_kept', name: 'shell', arguments: { command: 'echo kept' } },
      { id: 'call_blocked', name: 'shell', arguments: { command: 'echo parity-forbidden' } },
    ],
    check: (run) => {
      expect(JSON.stringify(first(run))).toContain('Parity rule: say please.');
      expect(outputs(run).call_kept).toMatch(/^Exit code: 0\n[^]*kept\n$/);
      expect(outputs(run).call_blocked).toContain('Blocked by the parity hook');
      const hooks = run.rollout
        .map((line) => (line as { payload?: { type?: string } }).payload)
        .filter((payload) => payload?.type === 'hook');
      expect(hooks).toMatchObject([
        { hook_event_name: 'UserPromptSubmit', decision: 'context' },
        { hook_event_name: 'PreToolUse' },
        { hook_event_name: 'PreToolUse', decision: 'deny' },
      ]);
    },
  },
];

interface Column {
  name: string;
  run(run: RowRun): Promise<Run>;
  /** What this column must match, when it cannot give all of the reference (default: the reference). */
  expected?(reference: Run, row: Row): Run;
}

const COLUMNS: Column[] = [
  { name: 'cody chat', run: runCli },
  { name: 'REPL', run: runRepl },
  { name: 'library', run: runLibrary },
  { name: 'cody serve', run: runServe },
  { name: 'cody acp', run: runAcp, expected: withoutReasons },
];

describe('the parity matrix: each config feature the same on cody chat, the REPL, the library, cody serve and cody acp', () => {
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
      const started = startRow(harness, row);
      try {
        const runs: Array<[string, Run]> = [];
        for (const column of COLUMNS) runs.push([column.name, await column.run(started)]);
        const reference = runs[0]?.[1];
        if (reference === undefined) throw new Error('the matrix has no columns');
        expect(reference.requests).toHaveLength(requestCount(row));
        row.check(reference);
        for (const [index, [name, run]] of runs.entries()) {
          const expected = COLUMNS[index]?.expected?.(reference, row) ?? reference;
          expect(run.requests, `${name}: requests`).toEqual(expected.requests);
          expect(run.credentials, `${name}: credentials`).toEqual(expected.credentials);
          expect(run.rollout, `${name}: rollout lines`).toEqual(expected.rollout);
        }
      } finally {
        await started.stop();
      }
    },
    90_000,
  );
});
