import { describe, expect, it } from 'vitest';
import { combineOutcomes, parseHookOutput } from '../../../../src/core/hooks/hook-output.js';

const ran = (exitCode: number | null, stdout = '', stderr = '') => ({
  exitCode,
  stdout,
  stderr,
  timedOut: false,
});

describe('hook output', () => {
  it('exit 0 with plain stdout is context for UserPromptSubmit and SessionStart, ignored elsewhere', () => {
    expect(parseHookOutput('UserPromptSubmit', ran(0, 'branch: main\n'), 'h')).toEqual({
      context: ['branch: main'],
    });
    expect(parseHookOutput('SessionStart', ran(0, 'hello'), 'h')).toEqual({ context: ['hello'] });
    expect(parseHookOutput('PostToolUse', ran(0, 'formatted a.ts'), 'h')).toEqual({});
    expect(parseHookOutput('PreToolUse', ran(0), 'h')).toEqual({});
  });

  it('exit 2 blocks with stderr as the reason, per event', () => {
    expect(parseHookOutput('PreToolUse', ran(2, '', 'no rm -rf\n'), 'h')).toEqual({
      permission: 'deny',
      reason: 'no rm -rf',
    });
    expect(parseHookOutput('PermissionRequest', ran(2, '', 'no'), 'h')).toEqual({
      permission: 'deny',
      reason: 'no',
    });
    expect(parseHookOutput('PostToolUse', ran(2, '', 'lint failed'), 'h')).toEqual({
      block: true,
      reason: 'lint failed',
    });
    expect(parseHookOutput('Stop', ran(2, '', 'tests fail'), 'h')).toEqual({
      block: true,
      reason: 'tests fail',
    });
    expect(parseHookOutput('UserPromptSubmit', ran(2, '', 'secret'), 'h')).toEqual({
      block: true,
      reason: 'secret',
    });
    // Where nothing can be blocked, it is shown to the person.
    expect(parseHookOutput('Notification', ran(2, '', 'oops'), 'h')).toEqual({ messages: ['hook h: oops'] });
  });

  it('any other exit, a timeout or a failure is a warning and decides nothing', () => {
    expect(parseHookOutput('PreToolUse', ran(1, '{"decision":"block"}', 'boom\nmore'), 'h')).toEqual({
      messages: ['hook h exited with status 1: boom'],
    });
    expect(parseHookOutput('PreToolUse', { ...ran(null), timedOut: true }, 'h')).toEqual({
      messages: ['hook h timed out and was stopped'],
    });
    expect(
      parseHookOutput('PreToolUse', { ...ran(null), failure: 'killed by SIGTERM' }, 'h').permission,
    ).toBeUndefined();
  });

  it('reads the JSON forms', () => {
    const pre = (value: object) => parseHookOutput('PreToolUse', ran(0, JSON.stringify(value)), 'h');
    expect(
      pre({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'Destructive command blocked by hook',
        },
      }),
    ).toEqual({ permission: 'deny', reason: 'Destructive command blocked by hook' });
    expect(
      pre({ hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { command: 'ls' } } }),
    ).toEqual({
      permission: 'allow',
      updatedInput: { command: 'ls' },
    });
    expect(pre({ decision: 'block', reason: 'old form' })).toEqual({
      permission: 'deny',
      reason: 'old form',
    });
    expect(pre({ continue: false, stopReason: 'enough', systemMessage: 'bye' })).toEqual({
      stop: 'enough',
      messages: ['bye'],
    });
    expect(
      parseHookOutput(
        'PermissionRequest',
        ran(0, JSON.stringify({ hookSpecificOutput: { decision: { behavior: 'allow' } } })),
        'h',
      ),
    ).toEqual({ permission: 'allow' });
    expect(
      parseHookOutput(
        'PostToolUse',
        ran(
          0,
          JSON.stringify({
            decision: 'block',
            reason: 'fix lint',
            hookSpecificOutput: { additionalContext: 'ctx' },
          }),
        ),
        'h',
      ),
    ).toEqual({ block: true, reason: 'fix lint', context: ['ctx'] });
    expect(
      parseHookOutput(
        'UserPromptSubmit',
        ran(0, JSON.stringify({ hookSpecificOutput: { additionalContext: 'more' } })),
        'h',
      ),
    ).toEqual({ context: ['more'] });
  });

  it('garbage stdout is a warning, never a decision', () => {
    expect(parseHookOutput('PreToolUse', ran(0, '{not json'), 'h').messages?.[0]).toMatch(
      /printed JSON Cody cannot use/,
    );
    expect(
      parseHookOutput('PreToolUse', ran(0, '{"hookSpecificOutput":{"permissionDecision":"maybe"}}'), 'h'),
    ).toEqual({
      messages: [expect.stringMatching(/cannot use/) as unknown as string],
    });
    expect(parseHookOutput('PostToolUse', ran(0, '\u0000\u0001\u0002binary'), 'h').messages?.[0]).toMatch(
      /neither text nor JSON/,
    );
  });

  it('combines several hooks: deny over ask over allow, every context kept', () => {
    expect(
      combineOutcomes([
        { permission: 'allow', context: ['a'] },
        { permission: 'deny', reason: 'no' },
        { permission: 'ask', reason: 'hm', context: ['b'] },
      ]),
    ).toEqual({ permission: 'deny', reason: 'no', context: ['a', 'b'] });
  });
});
