/**
 * web_fetch under each approval policy (a `network` access): read-only refuses, ask and auto-edit ask
 * unless the host is allowed, full-auto runs it; and "always" (approve-session) covers the same host
 * for the rest of the session, never another one.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FunctionCallItem } from '../../../../src/protocol/index.js';
import { decidePolicy, type Access, type ApprovalPolicy } from '../../../../src/core/tools/policy.js';
import { createToolRuntime } from '../../../../src/core/tools/runtime.js';

describe('web_fetch approval', () => {
  const open: Access = { kind: 'network', url: 'https://example.com/', allowed: false };
  const allowed: Access = { kind: 'network', url: 'https://example.com/', allowed: true };
  const table: Array<[ApprovalPolicy, Access, 'allow' | 'ask' | 'deny']> = [
    ['read-only', open, 'deny'],
    ['read-only', allowed, 'deny'],
    ['ask', open, 'ask'],
    ['ask', allowed, 'allow'],
    ['auto-edit', open, 'ask'],
    ['auto-edit', allowed, 'allow'],
    ['full-auto', open, 'allow'],
  ];
  it.each(table)('%s, %o → %s', (policy, access, expected) => {
    expect(decidePolicy(access, { policy, remembered: false }).kind).toBe(expected);
  });

  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cody-web-policy-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const fetchCall = (id: string, url: string): FunctionCallItem => ({
    type: 'function_call',
    name: 'web_fetch',
    arguments: JSON.stringify({ url }),
    call_id: id,
  });

  it('asks with "always for fetches from HOST", which then covers that host only', async () => {
    const tools = createToolRuntime({
      cwd: dir,
      policy: 'ask',
      webFetch: { allowedHosts: ['docs.example.org'] },
      detectSandbox: () => ({ available: false, why: 'test' }),
    });
    const first = fetchCall('f1', 'https://example.com/a');
    expect(await tools.decide(first)).toEqual({
      kind: 'ask',
      reason: 'fetch https://example.com/a (network access)',
      alwaysScope: { kind: 'call', label: 'fetches from example.com' },
      // A question about the network alone, not the workspace boundary: a PreToolUse hook may answer it.
      hookMayAllow: true,
    });
    tools.rememberApproval(first);
    expect((await tools.decide(fetchCall('f2', 'https://example.com/b'))).kind).toBe('allow');
    expect((await tools.decide(fetchCall('f3', 'https://example.net/'))).kind).toBe('ask');
    expect((await tools.decide(fetchCall('f4', 'https://docs.example.org/x'))).kind).toBe('allow');
    expect(
      await tools.decide({
        type: 'function_call',
        name: 'update_plan',
        arguments: '{"plan":[]}',
        call_id: 'p',
      }),
    ).toEqual({ kind: 'allow' });
    await tools.close();
  });
});
