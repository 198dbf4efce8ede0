/** The web page's pure parts: the watched turn folded from events, and the code highlighter. */
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../../src/web/event-types.js';
import { highlight } from '../../../src/web/highlight.js';
import { applyTurnEvent, startTurn, type LiveTurn } from '../../../src/web/turn-model.js';
import type { ServerEvent } from '../../../src/web/types.js';

function fold(events: ServerEvent[], from?: LiveTurn): LiveTurn | undefined {
  return events.reduce<LiveTurn | undefined>((turn, event) => applyTurnEvent(turn, event), from);
}

const call = { type: 'function_call' as const, name: 'shell', arguments: '{"command":"ls"}', call_id: 'c1' };

describe('the watched turn', () => {
  it('keeps this page message, joins deltas, and places tool calls in order', () => {
    const turn = fold(
      [
        { type: 'turn-started', turnId: 't1', provider: 'openai', api: 'openai-chat', model: 'm' },
        { type: 'text-delta', text: 'Hel' },
        { type: 'text-delta', text: 'lo' },
        { type: 'tool-call', call, approved: true },
        { type: 'tool-call', call, approved: true },
        { type: 'text-delta', text: 'done' },
        { type: 'turn-complete', turnId: 't1', status: 'completed' },
      ],
      startTurn('hi'),
    );
    expect(turn).toEqual({
      turnId: 't1',
      userText: 'hi',
      blocks: [
        { kind: 'text', text: 'Hello' },
        { kind: 'tool', callId: 'c1', name: 'shell', arguments: '{"command":"ls"}' },
        { kind: 'text', text: 'done' },
      ],
      ended: 'completed',
    });
  });

  it("another client's turn takes the person's message from the recorded item, not harness context", () => {
    const user = (text: string): ServerEvent => ({
      type: 'item-recorded',
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
    });
    const turn = fold([
      { type: 'turn-started', turnId: 't2', provider: 'p', api: 'a', model: 'm' },
      user('<environment_context>cwd</environment_context>'),
      user('<img src=x> is what I typed'),
      { type: 'text-delta', text: 'ok' },
    ]);
    expect(turn?.userText).toBe('<img src=x> is what I typed');
  });

  it('drops text a retry voids, and ends interrupted or failed', () => {
    const retried = fold([
      { type: 'turn-started', turnId: 't3', provider: 'p', api: 'a', model: 'm' },
      { type: 'text-delta', text: 'partial' },
      { type: 'retry', discardedPartial: true, reason: '503' },
      { type: 'text-delta', text: 'whole' },
      { type: 'turn-complete', turnId: 't3', status: 'interrupted' },
    ]);
    expect(retried?.blocks).toEqual([{ kind: 'text', text: 'whole' }]);
    expect(retried?.ended).toBe('interrupted');
    const failed = fold([{ type: 'turn-failed', error: { kind: 'provider-auth', message: 'no key' } }]);
    expect(failed).toMatchObject({
      ended: 'failed',
      blocks: [{ kind: 'notice', level: 'error', text: 'no key' }],
    });
  });
});

describe('update_plan on the page', () => {
  const plan = {
    type: 'function_call' as const,
    name: 'update_plan',
    arguments: '{"plan":[{"step":"a","status":"pending"}]}',
    call_id: 'p1',
  };

  it('a plan that was set is no tool row of the live turn (its checklist is the plan); other calls are', () => {
    const turn = fold(
      [
        { type: 'turn-started', turnId: 't4', provider: 'p', api: 'a', model: 'm' },
        { type: 'tool-call', call: plan, approved: true },
        { type: 'tool-started', call: plan },
        { type: 'plan-updated', callId: 'p1', plan: [{ step: 'a', status: 'pending' }] },
        { type: 'tool-finished', callId: 'p1', durationMs: 1, status: 'ok' },
        { type: 'tool-call', call, approved: true },
        { type: 'text-delta', text: 'done' },
      ],
      startTurn('plan it'),
    );
    expect(turn?.blocks).toEqual([
      { kind: 'tool', callId: 'c1', name: 'shell', arguments: '{"command":"ls"}' },
      { kind: 'text', text: 'done' },
    ]);
  });

  it('a declined plan call still shows as a call, as the terminal shows it', () => {
    const turn = fold([{ type: 'tool-call', call: plan, approved: false, reason: 'no' }], startTurn('x'));
    expect(turn?.blocks).toEqual([
      { kind: 'tool', callId: 'p1', name: 'update_plan', arguments: plan.arguments },
    ]);
  });
});

describe('hooks on the page', () => {
  it('listens for hook events and folds each to one line of text, as the terminal shows it', () => {
    expect(EVENT_TYPES).toContain('hook');
    const hook = (extra: Partial<Extract<ServerEvent, { type: 'hook' }>>): ServerEvent => ({
      type: 'hook',
      event: 'PreToolUse',
      command: './check.sh',
      source: 'user',
      status: 'ok',
      durationMs: 12,
      ...extra,
    });
    const turn = fold(
      [
        hook({ decision: 'deny' }),
        { type: 'tool-call', call, approved: false },
        hook({ event: 'PostToolUse', command: '<img src=x onerror=alert(1)>' }),
        hook({ event: 'UserPromptSubmit', command: 'sleep 30', status: 'timeout', durationMs: 500 }),
      ],
      startTurn('go'),
    );
    expect(turn?.blocks).toEqual([
      { kind: 'hook', text: '↳ hook PreToolUse: ./check.sh → deny · 12 ms', warn: false },
      { kind: 'tool', callId: 'c1', name: 'shell', arguments: '{"command":"ls"}' },
      { kind: 'hook', text: '↳ hook PostToolUse: <img src=x onerror=alert(1)> · 12 ms', warn: false },
      { kind: 'hook', text: '↳ hook UserPromptSubmit: sleep 30 → timed out · 500 ms', warn: true },
    ]);
  });
});

describe('the code highlighter', () => {
  it('splits code into pieces whose texts are the code exactly', () => {
    const code = 'const a = "x // y"; // note\nlet n = 42;\n# not a comment in js';
    const pieces = highlight(code, 'js');
    expect(pieces.map((piece) => piece.text).join('')).toBe(code);
    expect(pieces.filter((piece) => piece.kind === 'keyword').map((piece) => piece.text)).toEqual([
      'const',
      'let',
    ]);
    expect(pieces.find((piece) => piece.kind === 'string')?.text).toBe('"x // y"');
    expect(pieces.filter((piece) => piece.kind === 'comment').map((piece) => piece.text)).toEqual([
      '// note',
    ]);
    const python = highlight('def f():\n    return 1  # one', 'python');
    expect(python.filter((piece) => piece.kind === 'comment').map((piece) => piece.text)).toEqual(['# one']);
  });
});
