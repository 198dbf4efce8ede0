/**
 * One turn view: the same scripted turn (every event type) goes through the one dispatcher to each view:
 * the plain view (`cody chat` in a pipe), the live Markdown view (the REPL, `cody chat` on a terminal)
 * and the JSON view. The two text views say each thing in the same words (ANSI stripped), whichever
 * way the turn ends; the JSON view prints the documented lines.
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { CodyError } from '../../../../src/core/errors.js';
import type { SessionEvent, SessionEventType } from '../../../../src/core/conversation/session-events.js';
import type { Io, OutputStream } from '../../../../src/cli/io.js';
import { askWithKeys, askWithLines } from '../../../../src/cli/approval-question.js';
import { createJsonWriter } from '../../../../src/cli/json-output.js';
import { dispatchTurn, type TurnView } from '../../../../src/cli/turn-view/dispatch.js';
import { createJsonView } from '../../../../src/cli/turn-view/json-view.js';
import { createPlainView } from '../../../../src/cli/turn-view/plain-view.js';
import { createTerminalView } from '../../../../src/cli/turn-view/terminal-view.js';
import type { Key } from '../../../../src/cli/tty/keys.js';
import type { FunctionCallItem } from '../../../../src/protocol/index.js';

const call = (id: string, name: string, args: object): FunctionCallItem => ({
  type: 'function_call',
  call_id: id,
  name,
  arguments: JSON.stringify(args),
});

const ls = call('c1', 'shell', { command: 'ls' });
const failing = call('c2', 'shell', { command: 'false' });
const denied = call('c3', 'shell', { command: 'rm -rf build' });
const plan = call('c4', 'update_plan', { plan: [{ step: 'Read the code', status: 'completed' }] });
const unasked = call('c5', 'shell', { command: 'touch x' });

/** Every event type but the two a turn ends with, in an order a turn could send them. */
const BODY: SessionEvent[] = [
  { type: 'turn-started', turnId: 't1', provider: 'openai', api: 'openai-responses', model: 'gpt-5' },
  { type: 'state', state: 'AwaitingLLMResponse' },
  { type: 'reasoning-delta', text: 'Thinking about the files.' },
  { type: 'text-delta', text: 'Partial ' },
  {
    type: 'retry',
    attempt: 1,
    maxRetries: 5,
    delayMs: 2000,
    reason: 'overloaded',
    statusCode: 503,
    discardedPartial: true,
  },
  { type: 'warning', message: 'the disk is slow' },
  {
    type: 'hook',
    event: 'PreToolUse',
    command: './check.sh',
    source: 'user',
    decision: 'deny',
    status: 'ok',
    durationMs: 12,
  },
  { type: 'compaction-started', trigger: 'auto', tokensBefore: 3200 },
  {
    type: 'compaction-finished',
    trigger: 'auto',
    status: 'compacted',
    tokensBefore: 3200,
    tokensAfter: 1000,
    trimmedItems: 0,
    summaryFailed: false,
  },
  { type: 'text-delta', text: 'Let me look.\n' },
  { type: 'approval-requested', id: 'a1', call: ls, reason: 'runs a command' },
  { type: 'approval-resolved', id: 'a1', decision: 'approve' },
  { type: 'tool-call', call: ls, approved: true },
  { type: 'tool-started', call: ls },
  { type: 'tool-output', callId: 'c1', chunk: 'a.txt\n' },
  { type: 'item-recorded', item: { type: 'function_call_output', call_id: 'c1', output: 'a.txt\n' } },
  { type: 'tool-finished', callId: 'c1', durationMs: 40, exitCode: 0, status: 'ok' },
  { type: 'tool-call', call: failing, approved: true },
  { type: 'tool-started', call: failing },
  { type: 'tool-finished', callId: 'c2', durationMs: 1200, exitCode: 2, status: 'error' },
  { type: 'tool-call', call: denied, approved: false, declinedBy: 'policy', reason: 'a dangerous command' },
  { type: 'tool-finished', callId: 'c3', durationMs: 0, status: 'denied' },
  { type: 'tool-call', call: unasked, approved: false, declinedBy: 'nobody-to-ask', reason: 'run: touch x' },
  { type: 'tool-finished', callId: 'c5', durationMs: 0, status: 'denied' },
  { type: 'tool-call', call: plan, approved: true },
  { type: 'tool-started', call: plan },
  { type: 'plan-updated', callId: 'c4', plan: [{ step: 'Read the code', status: 'completed' }] },
  { type: 'tool-finished', callId: 'c4', durationMs: 1, status: 'ok' },
  {
    type: 'usage',
    usage: { inputTokens: 3200, outputTokens: 410 },
    contextTokens: 1200,
    contextWindow: 12000,
  },
  { type: 'text-delta', text: 'Done.' },
];

type Ending = 'completed' | 'interrupted' | 'failed';
const ENDINGS: Ending[] = ['completed', 'interrupted', 'failed'];

/** The turn's events as `throwing` gives them: a stopped or failed turn ends by its error. */
async function* turn(ending: Ending): AsyncGenerator<SessionEvent> {
  for (const event of BODY) yield event;
  if (ending === 'completed')
    yield { type: 'turn-complete', turnId: 't1', finishReason: 'stop', status: 'completed' };
  if (ending === 'interrupted') throw new CodyError('The turn was interrupted.', 'interrupted');
  if (ending === 'failed') throw new CodyError('the connection dropped', 'provider');
}

/** Every event type: a new one fails to compile here until the script (or an ending) sends it. */
const EVERY_TYPE: Record<SessionEventType, true> = {
  'turn-started': true,
  state: true,
  'text-delta': true,
  'reasoning-delta': true,
  'item-recorded': true,
  usage: true,
  warning: true,
  hook: true,
  retry: true,
  'compaction-started': true,
  'compaction-finished': true,
  'tool-call': true,
  'approval-requested': true,
  'approval-resolved': true,
  'tool-started': true,
  'tool-output': true,
  'tool-finished': true,
  'plan-updated': true,
  // The endings: a completed turn's last event; a failed one's is thrown (`throwing`) and so never shown.
  'turn-complete': true,
  'turn-failed': true,
};

/** Said by both text views, in the same words, whichever way the turn ends. */
const SHARED = [
  '✻ Thinking about the files.',
  'Retrying (1/5) in 2.0 s: HTTP 503 · overloaded — ',
  'partial reply',
  'warning: the disk is slow',
  '↳ hook PreToolUse: ./check.sh → deny · 12 ms',
  'Compacting conversation (auto)… 3.2k → 1.0k tokens',
  // The approval question (one component: lines in the plain view, keys in the live one).
  '? Allow $ ls',
  '[y] yes, once   [n] no, and tell the model why   [Esc] stop the turn',
  '→ yes',
  // Tool rows: the call, its output, its outcome; declined calls with their real reason.
  '⏺ $ ls',
  '│ a.txt',
  '✓ 0.0s',
  '✗ exit 2 · 1.2s',
  '✗ $ rm -rf build — declined by policy: a dangerous command',
  '✗ $ touch x — declined (no terminal to ask; pass --approval full-auto to allow): needs approval: run: touch x',
  // The plan's checklist.
  'Plan',
  '☑ Read the code',
];

// GPT-5 at its list price ($1.25 in, $10 out per million tokens).
const STATUS = 'gpt-5 · 10% context · 3.2k in · 410 out · $0.0081';
const INTERRUPTED = '⏹ Interrupted — the partial reply is kept in the conversation.';
const FAILED = 'cody: the connection dropped';

/** How each ending is said, in this order (a stopped turn still reports what it used); and never said. */
const SAID_AT_END: Record<Ending, { said: string[]; not: string[] }> = {
  completed: { said: [STATUS], not: [INTERRUPTED, FAILED] },
  interrupted: { said: [INTERRUPTED, STATUS], not: [FAILED] },
  failed: { said: [FAILED], not: [INTERRUPTED, STATUS] },
};

const ANSI = new RegExp(`${String.fromCharCode(27)}(?:\\[[0-9;?<>]*[A-Za-z]|[78])`, 'g');
const visible = (text: string): string => text.replace(ANSI, '').replace(/\r/g, '');

function sink(isTTY = false): OutputStream & { text: string } {
  const stream = {
    text: '',
    isTTY,
    columns: 120,
    write(chunk: string) {
      stream.text += chunk;
      return true;
    },
  };
  return stream as unknown as OutputStream & { text: string };
}

/** A clock that moves a second per reading: the question's guard against early keys is always past. */
function clock(): () => number {
  let time = 0;
  return () => (time += 1000);
}

async function run(view: TurnView, ending: Ending): Promise<{ answers: string[]; status: string }> {
  const answers: string[] = [];
  const outcome = await dispatchTurn(turn(ending), view, {
    model: 'gpt-5',
    respond: (id, decision) => answers.push(`${id}:${decision}`),
  });
  return { answers, status: outcome.status };
}

async function plainOutput(ending: Ending): Promise<{ stdout: string; stderr: string; answers: string[] }> {
  const stdout = sink();
  // stderr a terminal (the status line is for a person), NO_COLOR (no spinner, no colour).
  const stderr = sink(true);
  const io = { stdout, stderr, env: { NO_COLOR: '1' }, cwd: '/' } as unknown as Io;
  const view = createPlainView(io, {
    // What cody chat asks with when no raw-mode terminal can be driven: the question on lines.
    ask: (event) =>
      askWithLines({ nextLine: () => Promise.resolve('y') }, (text) => io.stderr.write(text), event, {
        color: new Chalk({ level: 0 }),
        now: clock(),
      }),
  });
  const { answers, status } = await run(view, ending);
  expect(status).toBe(ending);
  return { stdout: stdout.text, stderr: stderr.text, answers };
}

async function liveOutput(ending: Ending): Promise<{ screen: string; answers: string[] }> {
  let screen = '';
  const write = (text: string): void => void (screen += text);
  const color = new Chalk({ level: 1 });
  const view = createTerminalView({
    terminal: { write, columns: () => 120, rows: () => 40 },
    stdout: { write },
    color,
    markdown: true,
    echo: { hide: () => undefined, show: () => undefined, pause: () => undefined },
    // What the REPL asks with: the question on keys; y once it is drawn.
    ask: (event) =>
      askWithKeys(
        {
          listen: (listener?: (key: Key) => void) => {
            if (listener) setTimeout(() => listener({ name: 'text', text: 'y' } as Key), 0);
          },
          columns: () => 120,
        },
        (text) => view.say(text),
        event,
        { color, now: clock() },
      ),
  });
  const { answers, status } = await run(view, ending);
  expect(status).toBe(ending);
  return { screen: visible(screen), answers };
}

describe('one turn view: the dispatcher and its three views', () => {
  it.each(ENDINGS)('a turn that ends %s: plain and live views say the same words', async (ending) => {
    const plain = await plainOutput(ending);
    const live = await liveOutput(ending);
    expect(plain.answers).toEqual(['a1:approve']);
    expect(live.answers).toEqual(['a1:approve']);
    const { said, not } = SAID_AT_END[ending];
    for (const text of [...SHARED, ...said]) {
      expect(visible(plain.stderr), `plain: ${text}`).toContain(text);
      expect(live.screen, `live: ${text}`).toContain(text);
    }
    for (const text of not) {
      expect(visible(plain.stderr)).not.toContain(text);
      expect(live.screen).not.toContain(text);
    }
    // The ending comes last, in order.
    const tail = said.join('\n');
    expect(visible(plain.stderr).trimEnd().endsWith(tail)).toBe(true);
    expect(live.screen.trimEnd().endsWith(tail)).toBe(true);
    // The plan call shows as its checklist only, never as a call row.
    expect(plain.stderr).not.toContain('update_plan');
    expect(live.screen).not.toContain('update_plan');
    // The reply: the plain view held the discarded partial back (a pipe); both end with it.
    expect(plain.stdout).toBe('Let me look.\nDone.\n');
    expect(live.screen).toMatch(/Let me look\.\n[\s\S]*Done\.\n/);
  });

  it.each(ENDINGS)(
    'a turn that ends %s: stream-json prints init, every event, then one last line',
    async (ending) => {
      const stdout = sink();
      const stderr = sink();
      const io = { stdout, stderr, env: { NO_COLOR: '1' }, cwd: '/' } as unknown as Io;
      const writer = createJsonWriter(stdout, 'stream-json');
      writer.start({
        conversationId: 'id1',
        provider: 'openai',
        api: 'openai-responses',
        model: 'gpt-5',
        ephemeral: false,
      });
      await run(createJsonView(writer, io), ending);
      const lines = stdout.text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const last = ending === 'completed' ? 'result' : 'error';
      expect(lines.map((line) => line.type)).toEqual([
        'init',
        ...BODY.map((event) => event.type),
        ...(ending === 'completed' ? ['turn-complete'] : []),
        last,
      ]);
      expect(lines.slice(1).every((line) => line.conversationId === 'id1')).toBe(true);
      const final = lines.at(-1) ?? {};
      expect(Object.keys(final)).toEqual([
        'type',
        'conversationId',
        'status',
        'reply',
        'usage',
        'toolCalls',
        'error',
      ]);
      expect(final.status).toBe(ending);
      expect(final.reply).toBe('Done.');
      expect(
        (final.toolCalls as Array<{ callId: string; approved: boolean }>).map((entry) => [
          entry.callId,
          entry.approved,
        ]),
      ).toEqual([
        ['c1', true],
        ['c2', true],
        ['c3', false],
        ['c5', false],
        ['c4', true],
      ]);
      expect(final.error).toEqual(
        ending === 'completed'
          ? null
          : ending === 'interrupted'
            ? { kind: 'interrupted', message: 'The turn was interrupted.' }
            : { kind: 'provider', message: 'the connection dropped' },
      );
      // A person reading stderr is told how it ended, in the text views' words.
      expect(stderr.text).toBe(ending === 'completed' ? '' : `${SAID_AT_END[ending].said[0]}\n`);
      const seen = new Set([...BODY.map((event) => event.type), 'turn-complete', 'turn-failed']);
      expect(seen).toEqual(new Set(Object.keys(EVERY_TYPE)));
    },
  );

  it('--json prints one object at the end', async () => {
    const whole = sink();
    const io = { stdout: whole, stderr: sink(), env: { NO_COLOR: '1' }, cwd: '/' } as unknown as Io;
    await run(createJsonView(createJsonWriter(whole, 'json'), io), 'completed');
    const lines = whole.text.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ type: 'result', status: 'completed', reply: 'Done.' });
  });
});
