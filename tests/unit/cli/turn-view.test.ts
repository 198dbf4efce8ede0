/**
 * One turn view: the same scripted turn (every event type) fed to the plain view (`cody chat` in a
 * pipe), the REPL's view and the JSON writers. The two text views say each thing in the same words
 * (they take them from src/cli/turn-view/wording.ts); stream-json carries every event.
 */
import { EventEmitter } from 'node:events';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { SessionEvent, SessionEventType } from '../../../src/core/conversation/session-events.js';
import type { Io, OutputStream } from '../../../src/cli/io.js';
import { createTurnRenderer } from '../../../src/cli/render.js';
import { runTurn } from '../../../src/cli/repl-turn.js';
import { createJsonWriter } from '../../../src/cli/json-output.js';
import { GUARD_MS } from '../../../src/cli/approval-question.js';
import { RawTerminal } from '../../../src/cli/tty/terminal.js';
import type { FunctionCallItem } from '../../../src/protocol/index.js';

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

/** Every event type at least once, in an order a turn could send them. */
const SCRIPT: SessionEvent[] = [
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
  { type: 'turn-complete', turnId: 't1', finishReason: 'stop', status: 'completed' },
  { type: 'turn-failed', error: { kind: 'provider', message: 'the connection dropped' } },
];

/** Every event type: a new one fails to compile here until the script sends it. */
const EVERY_TYPE: Record<SessionEventType, true> = {
  'turn-started': true,
  state: true,
  'text-delta': true,
  'reasoning-delta': true,
  'item-recorded': true,
  usage: true,
  warning: true,
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
  'turn-complete': true,
  'turn-failed': true,
};

/** The same things said by both text views, in the same words. */
const SHARED = [
  'Retrying (1/5) in 2.0 s: HTTP 503 · overloaded — ',
  'partial reply',
  'warning: the disk is slow',
  'Compacting conversation (auto)… 3.2k → 1.0k tokens',
  '✓ 0.0s',
  '✗ exit 2 · 1.2s',
  '✗ $ rm -rf build — declined by policy: a dangerous command',
  'Read the code',
];

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?<>]*[A-Za-z]`, 'g');

function sink(): OutputStream & { text: string } {
  const stream = {
    text: '',
    isTTY: false,
    write(chunk: string) {
      stream.text += chunk;
      return true;
    },
  };
  return stream as unknown as OutputStream & { text: string };
}

function plainOutput(): { stdout: string; stderr: string } {
  const stdout = sink();
  const stderr = sink();
  const io = { stdout, stderr, env: { NO_COLOR: '1' }, cwd: '/' } as unknown as Io;
  const view = createTurnRenderer(io, {});
  for (const event of SCRIPT) view.handle(event);
  view.end();
  return { stdout: stdout.text, stderr: stderr.text };
}

class FakeInput extends EventEmitter {
  resume(): void {}
  pause(): void {}
}

async function replOutput(): Promise<{ screen: string; answers: string[] }> {
  const input = new FakeInput();
  let screen = '';
  const terminal = new RawTerminal(input, {
    write: (text: string) => (screen += text),
    columns: 120,
  } as never);
  terminal.start();
  const answers: string[] = [];
  // Answers the approval question once it is on screen and past its guard against early keys.
  let seenAt: number | undefined;
  const answerer = setInterval(() => {
    if (answers.length > 0 || !screen.includes('[y] yes, once')) return;
    seenAt ??= Date.now();
    if (Date.now() - seenAt > GUARD_MS + 100) input.emit('data', 'y');
  }, 50);
  async function* run(): AsyncGenerator<SessionEvent> {
    // A turn that failed ends there; its error is the REPL's to report (not this view's).
    for (const event of SCRIPT) if (event.type !== 'turn-failed') yield event;
  }
  try {
    await runTurn(
      {
        terminal,
        stdout: { write: (text: string) => (screen += text) },
        color: new Chalk({ level: 0 }),
        markdown: false,
      },
      { respond: (id, decision) => answers.push(`${id}:${decision}`) > 0 },
      run,
      'gpt-5',
    );
  } finally {
    clearInterval(answerer);
    terminal.stop();
  }
  return { screen: screen.replace(ANSI, '').replace(/\r/g, ''), answers };
}

describe('one turn view', () => {
  it('the plain view and the REPL say every shared thing in the same words', async () => {
    const plain = plainOutput();
    const repl = await replOutput();
    expect(repl.answers).toEqual(['a1:approve']);
    for (const text of SHARED) {
      expect(plain.stderr, `plain: ${text}`).toContain(text);
      expect(repl.screen, `repl: ${text}`).toContain(text);
    }
    // The reply itself: the plain view held the discarded partial back (a pipe); both end with it.
    expect(plain.stdout).toBe('Let me look.\nDone.\n');
    expect(repl.screen).toContain('Done.');
    // The REPL alone ends with a status line (cody chat's is the changed-files line).
    expect(repl.screen).toMatch(/gpt-5 · 10% context · 3\.2k in · 410 out/);
  }, 15_000);

  it('stream-json carries every event, in order, and --json sums them up', () => {
    const stdout = sink();
    const writer = createJsonWriter(stdout, 'stream-json');
    writer.start({
      conversationId: 'id1',
      provider: 'openai',
      api: 'openai-responses',
      model: 'gpt-5',
      ephemeral: false,
    });
    for (const event of SCRIPT) writer.handle(event);
    const final = writer.finish();
    const lines = stdout.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(lines.map((line) => line.type)).toEqual(['init', ...SCRIPT.map((event) => event.type), 'result']);
    expect(new Set(SCRIPT.map((event) => event.type))).toEqual(new Set(Object.keys(EVERY_TYPE)));
    expect(final.reply).toBe('Done.');
    expect(final.toolCalls.map((entry) => [entry.callId, entry.approved])).toEqual([
      ['c1', true],
      ['c2', true],
      ['c3', false],
      ['c4', true],
    ]);

    const whole = sink();
    const json = createJsonWriter(whole, 'json');
    for (const event of SCRIPT) json.handle(event);
    json.finish();
    expect(whole.text.trim().split('\n')).toHaveLength(1);
  });
});
