/**
 * Call rows without noise (issue 29): one row per call (a call stopped at its question is not printed
 * twice), a stopped command shows its own output (not the header written for the model) with its status
 * on the call line, a failed call's reason is on its row, and "partial reply kept" is said only when a
 * reply was cut short. Through the one dispatcher, in the live view (the REPL) and the plain view.
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { CodyError } from '../../../../src/core/errors.js';
import type { SessionEvent } from '../../../../src/core/conversation/session-events.js';
import type { Io, OutputStream } from '../../../../src/cli/io.js';
import type { ApprovalAnswer } from '../../../../src/cli/approval-question.js';
import { dispatchTurn, type TurnView } from '../../../../src/cli/turn-view/dispatch.js';
import { createPlainView } from '../../../../src/cli/turn-view/plain-view.js';
import { createTerminalView } from '../../../../src/cli/turn-view/terminal-view.js';
import type { FunctionCallItem } from '../../../../src/protocol/index.js';

const call = (id: string, name: string, args: object): FunctionCallItem => ({
  type: 'function_call',
  call_id: id,
  name,
  arguments: JSON.stringify(args),
});

const ANSI = new RegExp(`${String.fromCharCode(27)}(?:\\[[0-9;?<>]*[A-Za-z]|[78])`, 'g');
const visible = (text: string): string => text.replace(ANSI, '').replace(/\r/g, '');
const count = (text: string, part: string): number => text.split(part).length - 1;

async function* events(list: SessionEvent[], interrupted: boolean): AsyncGenerator<SessionEvent> {
  for (const event of list) yield event;
  if (interrupted) throw new CodyError('The turn was interrupted.', 'interrupted');
  yield { type: 'turn-complete', turnId: 't1', finishReason: 'stop', status: 'completed' };
}

/** The live view's screen (ANSI stripped) after the events; questions answered with `answer`. */
async function live(
  list: SessionEvent[],
  interrupted: boolean,
  answer: ApprovalAnswer['decision'] = 'approve',
) {
  let screen = '';
  const write = (text: string): void => void (screen += text);
  const view = createTerminalView({
    terminal: { write, columns: () => 120, rows: () => 40 },
    stdout: { write },
    color: new Chalk({ level: 1 }),
    markdown: true,
    echo: { hide: () => undefined, show: () => undefined, pause: () => undefined },
    ask: () => Promise.resolve({ decision: answer }),
  });
  await dispatchTurn(events(list, interrupted), view, { model: 'gpt-5', respond: () => undefined });
  return visible(screen);
}

/** The plain view's stderr (`cody chat` in a pipe). */
async function plain(list: SessionEvent[], interrupted: boolean): Promise<string> {
  const sink = (isTTY: boolean): OutputStream & { text: string } => {
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
  };
  const stderr = sink(true);
  const io = { stdout: sink(false), stderr, env: { NO_COLOR: '1' }, cwd: '/' } as unknown as Io;
  const view: TurnView = createPlainView(io, { ask: () => Promise.resolve({ decision: 'abort' }) });
  await dispatchTurn(events(list, interrupted), view, { model: 'gpt-5', respond: () => undefined });
  return visible(stderr.text);
}

const npm = call('c1', 'shell', { command: 'npm --version' });
const stoppedAtQuestion: SessionEvent[] = [
  { type: 'state', state: 'AwaitingLLMResponse' },
  { type: 'state', state: 'ProcessingLLMResponse' },
  { type: 'approval-requested', id: 'a1', call: npm, reason: 'run: npm --version' },
  { type: 'approval-resolved', id: 'a1', decision: 'abort' },
  { type: 'tool-call', call: npm, approved: false },
  { type: 'tool-finished', callId: 'c1', durationMs: 0, status: 'aborted' },
];

describe('call rows', () => {
  it('Esc at a question: one row for the call, and no "partial reply" when there was none', async () => {
    for (const screen of [
      await live(stoppedAtQuestion, true, 'abort'),
      await plain(stoppedAtQuestion, true),
    ]) {
      expect(count(screen, '$ npm --version')).toBe(1);
      expect(screen).not.toContain('stopped · 0.0s');
      expect(screen).toContain('⏹ Interrupted.');
      expect(screen).not.toContain('partial reply');
    }
  });

  it('a reply cut short is said to be kept', async () => {
    const cut: SessionEvent[] = [{ type: 'text-delta', text: 'Half a sent' }];
    expect(await live(cut, true)).toContain('⏹ Interrupted — the partial reply is kept in the conversation.');
    expect(await plain(cut, true)).toContain(
      '⏹ Interrupted — the partial reply is kept in the conversation.',
    );
  });

  it('a stopped command shows its own output, the status on its call line', async () => {
    const sleep = call('c2', 'shell', { command: 'echo partial; sleep 5' });
    const output = 'Aborted by the user; output so far:\nWall time: 4.0 seconds\nOutput:\npartial\n';
    const screen = await live(
      [
        { type: 'tool-call', call: sleep, approved: true },
        { type: 'tool-started', call: sleep },
        { type: 'tool-output', callId: 'c2', chunk: 'partial\n' },
        { type: 'item-recorded', item: { type: 'function_call_output', call_id: 'c2', output } },
        { type: 'tool-finished', callId: 'c2', durationMs: 4000, status: 'aborted' },
      ],
      true,
    );
    expect(screen).toContain('✗ $ echo partial; sleep 5  ⏹ stopped · 4.0s\n  │ partial\n');
    for (const header of ['Aborted by the user', 'Wall time', 'Output:'])
      expect(screen).not.toContain(header);
  });

  it('a failed call says why on its row: an unknown tool, a missing file, an edit that cannot apply', async () => {
    const nosuch = call('c3', 'nosuch', { x: 1 });
    const read = call('c4', 'read_file', { path: 'nope.txt' });
    const edit = call('c5', 'edit_file', { path: 'a.txt', old_text: 'zzz', new_text: 'y' });
    const list: SessionEvent[] = [
      {
        type: 'tool-call',
        call: nosuch,
        approved: false,
        declinedBy: 'cannot-apply',
        reason: "no tool named 'nosuch' is available.",
      },
      { type: 'tool-finished', callId: 'c3', durationMs: 0, status: 'denied' },
      { type: 'tool-call', call: read, approved: true },
      { type: 'tool-started', call: read },
      {
        type: 'item-recorded',
        item: { type: 'function_call_output', call_id: 'c4', output: 'Error: no such file: nope.txt' },
      },
      { type: 'tool-finished', callId: 'c4', durationMs: 3, status: 'error' },
      {
        type: 'tool-call',
        call: edit,
        approved: false,
        declinedBy: 'cannot-apply',
        reason: 'old_text does not occur in a.txt; it must occur exactly once.',
      },
      { type: 'tool-finished', callId: 'c5', durationMs: 0, status: 'denied' },
    ];
    const screen = await live(list, false);
    expect(screen).toContain("✗ nosuch x=1 — not run: no tool named 'nosuch' is available.\n");
    expect(screen).toContain('✗ read nope.txt  ✗ no such file: nope.txt\n');
    expect(count(screen, 'no such file: nope.txt')).toBe(1);
    expect(screen).toContain(
      '✗ edit a.txt — not run: old_text does not occur in a.txt; it must occur exactly once.\n',
    );
    expect(screen).not.toContain('(+1 −1)');
    const piped = await plain(list, false);
    expect(piped).toContain("✗ nosuch x=1 — not run: no tool named 'nosuch' is available.");
    expect(piped).toContain('✗ no such file: nope.txt');
  });
});
