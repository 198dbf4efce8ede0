/**
 * Notifications at the view level: a turn on a fake raw terminal, its writes captured (tmux may swallow
 * a bell, so the bytes are checked here, before any terminal sees them).
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/index.js';
import { createNotifier } from '../../../src/cli/notify.js';
import { runTurn } from '../../../src/cli/repl-turn.js';
import { RawTerminal } from '../../../src/cli/tty/terminal.js';

function fakeTerminal(): { terminal: RawTerminal; written: () => string; type: (keys: string) => void } {
  let written = '';
  const listeners: Array<(chunk: string) => void> = [];
  const terminal = new RawTerminal(
    {
      on: (_event, listener) => listeners.push(listener),
      removeListener: () => undefined,
      resume: () => undefined,
      pause: () => undefined,
    },
    { write: (text) => (written += text), columns: 80 },
  );
  terminal.start();
  return { terminal, written: () => written, type: (keys) => listeners.forEach((listen) => listen(keys)) };
}

const started: SessionEvent = {
  type: 'turn-started',
  turnId: 't1',
  provider: 'openai',
  api: 'openai-chat',
  model: 'gpt-4.1-mini',
};

describe('notifications in a turn', () => {
  it('rings the bell when an approval starts waiting, not before, and the answer still works', async () => {
    const fake = fakeTerminal();
    const answers: string[] = [];
    let answered: () => void = () => undefined;
    const answer = new Promise<void>((resolve) => (answered = resolve));
    let bellsBeforeQuestion = -1;
    async function* run(): AsyncIterable<SessionEvent> {
      yield started;
      yield { type: 'text-delta', text: 'a reply with a \u0007 bell of its own\n' };
      bellsBeforeQuestion = fake.written().split('\u0007').length - 1;
      yield {
        type: 'approval-requested',
        id: 'a1',
        call: { type: 'function_call', name: 'shell', arguments: '{"command":"touch x"}', call_id: 'c1' },
        reason: 'runs a command',
      };
      await answer;
      yield { type: 'turn-complete', turnId: 't1', finishReason: 'stop', status: 'completed' };
    }
    const session = {
      respond: (_id: string, decision: string): boolean => {
        answers.push(decision);
        answered();
        return true;
      },
    };
    const turn = runTurn(
      {
        terminal: fake.terminal,
        stdout: { write: (text: string) => fake.terminal.write(text) },
        color: new Chalk({ level: 0 }),
        markdown: false,
        notify: createNotifier('bell', {}, (text) => fake.terminal.write(text)),
      },
      session,
      run,
      'gpt-4.1-mini',
    );
    while (!fake.written().includes('[y] yes')) await new Promise((resolve) => setTimeout(resolve, 20));
    // Past the guard during which keys do not answer.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(bellsBeforeQuestion).toBe(0);
    expect(fake.written().split('\u0007').length - 1).toBe(1);
    fake.type('y');
    const outcome = await turn;
    expect(answers).toEqual(['approve']);
    expect(outcome.status).toBe('completed');
    expect(fake.written().split('\u0007').length - 1).toBe(1);
  });

  it('notifies at the end of a long turn, not of one the person interrupted', async () => {
    const ends: string[] = [];
    for (const status of ['completed', 'interrupted'] as const) {
      const fake = fakeTerminal();
      async function* run(): AsyncIterable<SessionEvent> {
        yield started;
        yield { type: 'text-delta', text: 'done\n' };
        yield { type: 'turn-complete', turnId: 't1', finishReason: 'stop', status };
      }
      await runTurn(
        {
          terminal: fake.terminal,
          stdout: { write: (text: string) => fake.terminal.write(text) },
          color: new Chalk({ level: 0 }),
          markdown: false,
          notify: (message) => ends.push(`${status}: ${message}`),
          longTurnMs: -1,
        },
        { respond: () => true },
        run,
        'gpt-4.1-mini',
      );
    }
    expect(ends).toEqual([expect.stringMatching(/^completed: Cody finished \(\d+ s\)$/)]);
  });
});
