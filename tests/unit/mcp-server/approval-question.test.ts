/** An approval put to an MCP client as an elicitation form, and its answer mapped back (approval-question.ts). */
import { describe, expect, it } from 'vitest';
import {
  approvalAnswer,
  approvalForm,
  type ApprovalRequest,
} from '../../../src/mcp-server/approval-question.js';

function request(overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    type: 'approval-requested',
    id: 'approval-1',
    call: { type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{"command":"git push"}' },
    reason: 'runs a command that changes the repository',
    alwaysScope: { kind: 'command', label: 'git push' },
    ...overrides,
  };
}

describe('approvalForm', () => {
  it('names the tool, its arguments and reason, and offers "always" only with a scope', () => {
    const form = approvalForm(request());
    expect(form.message).toContain('"shell"');
    expect(form.message).toContain('git push');
    expect(form.message).toContain('changes the repository');
    expect(form.requestedSchema.properties.decision?.enum).toEqual([
      'allow once',
      'allow always: git push',
      'deny',
    ]);
    expect(form.requestedSchema.required).toEqual(['decision']);
    const { alwaysScope: _scope, ...withoutScope } = request();
    expect(approvalForm(withoutScope).requestedSchema.properties.decision?.enum).toEqual([
      'allow once',
      'deny',
    ]);
  });

  it('shows the model’s control characters instead of passing them to a terminal client', () => {
    const sneaky = 'rm -rf ~\u001b[2K\r\u001b[1Agit status\u202e\u0007';
    const form = approvalForm(
      request({
        call: { ...request().call, arguments: JSON.stringify({ command: sneaky }) },
        preview: sneaky,
        reason: `asks\u001b]0;title\u0007`,
        alwaysScope: { kind: 'command', label: sneaky },
      }),
    );
    const shown = [form.message, ...(form.requestedSchema.properties.decision?.enum ?? [])].join('\n');
    // eslint-disable-next-line no-control-regex -- the characters the form must not carry
    expect(shown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(shown).toContain('rm -rf ~^[[2K^M^[[1Agit status');
    // The "always" choice still maps back to the engine's decision.
    const always = form.requestedSchema.properties.decision?.enum?.[1] ?? '';
    expect(
      approvalAnswer(request({ alwaysScope: { kind: 'command', label: sneaky } }), {
        action: 'accept',
        content: { decision: always },
      }),
    ).toEqual({ decision: 'approve-session' });
  });

  it('cuts long arguments and previews', () => {
    const form = approvalForm(
      request({ call: { ...request().call, arguments: 'x'.repeat(10_000) }, preview: 'y'.repeat(10_000) }),
    );
    expect(form.message.length).toBeLessThan(7_000);
    expect(form.message).toContain('more characters');
  });
});

describe('approvalAnswer', () => {
  it('approves only on an explicit accept with an approving choice', () => {
    const asked = request();
    expect(approvalAnswer(asked, { action: 'accept', content: { decision: 'allow once' } })).toEqual({
      decision: 'approve',
    });
    expect(
      approvalAnswer(asked, { action: 'accept', content: { decision: 'allow always: git push' } }),
    ).toEqual({
      decision: 'approve-session',
    });
    for (const answer of [
      { action: 'decline' as const },
      { action: 'cancel' as const },
      { action: 'accept' as const },
      { action: 'accept' as const, content: { decision: 'allow' } },
      { action: 'decline' as const, content: { decision: 'allow once' } },
    ]) {
      expect(approvalAnswer(asked, answer).decision).toBe('deny');
    }
  });

  it('does not take "always" for a call that offers no scope', () => {
    const { alwaysScope: _scope, ...once } = request();
    expect(
      approvalAnswer(once, { action: 'accept', content: { decision: 'allow always: git push' } }).decision,
    ).toBe('deny');
  });

  it('passes a denial reason to the model, trimmed and cut', () => {
    expect(
      approvalAnswer(request(), {
        action: 'accept',
        content: { decision: 'deny', reason: '  use a branch ' },
      }),
    ).toEqual({
      decision: 'deny',
      reason: 'use a branch',
    });
    const long = approvalAnswer(request(), {
      action: 'accept',
      content: { decision: 'deny', reason: 'z'.repeat(5_000) },
    });
    expect(long.reason?.length).toBeLessThan(1_100);
  });
});
