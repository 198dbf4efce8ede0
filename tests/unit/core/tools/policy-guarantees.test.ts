/**
 * Issue 36: the README's table of what each approval policy guarantees, with and without a sandbox;
 * each row of the table is one test, through the runtime's real `decide`. `OUT` is outside the workspace.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalPolicy } from '../../../../src/core/tools/policy.js';
import { createToolRuntime } from '../../../../src/core/tools/runtime.js';

type Verdict = 'allow' | 'ask' | 'deny';
/** One call of each kind the table names. */
const CALLS: Record<string, [string, Record<string, string>]> = {
  'read inside': ['read_file', { path: 'README.md' }],
  'safe read command': ['shell', { command: 'git status && grep -rn readme .' }],
  'edit inside': ['write_file', { path: 'new.txt', content: 'x' }],
  'known file command': ['shell', { command: 'mkdir -p dist && cp README.md dist/ && rm -rf dist' }],
  interpreter: ['shell', { command: `python3 -c "print(1)"` }],
  'build or test tool': ['shell', { command: 'npm test' }],
  unparsable: ['shell', { command: 'echo $(whoami)' }],
  'command writing outside': ['shell', { command: 'touch OUT/x' }],
  'read outside': ['shell', { command: 'cat OUT/secret.txt' }],
  'link-following read': ['shell', { command: 'grep -R x .' }],
  dangerous: ['shell', { command: 'sudo ls' }],
};

const ROWS: Array<{
  row: string;
  policy: ApprovalPolicy;
  sandbox: boolean | 'either';
  unconfined?: boolean;
  unasked: string[];
  asks: string[];
  refused: string[];
}> = [
  {
    row: 'read-only, with or without a sandbox',
    policy: 'read-only',
    sandbox: 'either',
    unasked: ['read inside', 'safe read command'],
    asks: [],
    refused: Object.keys(CALLS).filter((name) => name !== 'read inside' && name !== 'safe read command'),
  },
  {
    row: 'ask, with or without a sandbox',
    policy: 'ask',
    sandbox: 'either',
    unasked: ['read inside', 'safe read command'],
    asks: Object.keys(CALLS).filter((name) => name !== 'read inside' && name !== 'safe read command'),
    refused: [],
  },
  {
    row: 'auto-edit, with or without a sandbox',
    policy: 'auto-edit',
    sandbox: 'either',
    unasked: ['read inside', 'safe read command', 'edit inside'],
    asks: Object.keys(CALLS).filter(
      (name) => !['read inside', 'safe read command', 'edit inside'].includes(name),
    ),
    refused: [],
  },
  {
    row: 'full-auto with a sandbox',
    policy: 'full-auto',
    sandbox: true,
    unasked: [
      'read inside',
      'safe read command',
      'edit inside',
      'known file command',
      'interpreter',
      'build or test tool',
      'unparsable',
      'command writing outside',
    ],
    asks: ['read outside', 'link-following read', 'dangerous'],
    refused: [],
  },
  {
    row: 'full-auto without a sandbox',
    policy: 'full-auto',
    sandbox: false,
    unasked: ['read inside', 'safe read command', 'edit inside', 'known file command'],
    asks: [
      'interpreter',
      'build or test tool',
      'unparsable',
      'command writing outside',
      'read outside',
      'link-following read',
      'dangerous',
    ],
    refused: [],
  },
  {
    row: 'full-auto without a sandbox, confinement off (--dangerously-skip-confinement)',
    policy: 'full-auto',
    sandbox: false,
    unconfined: true,
    unasked: [
      'read inside',
      'safe read command',
      'edit inside',
      'known file command',
      'interpreter',
      'build or test tool',
      'unparsable',
    ],
    asks: ['command writing outside', 'read outside', 'link-following read', 'dangerous'],
    refused: [],
  },
];

describe('what each approval policy guarantees (README table, issue 36)', () => {
  let root: string;
  let outside: string;
  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'cody-guarantee-')));
    outside = await realpath(await mkdtemp(join(tmpdir(), 'cody-guarantee-out-')));
    execFileSync('git', ['init', '-q', root]);
    await writeFile(join(root, 'README.md'), 'readme\n');
    await writeFile(join(outside, 'secret.txt'), 'secret\n');
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('every row sorts every kind of call', () => {
    for (const row of ROWS)
      expect([...row.unasked, ...row.asks, ...row.refused].sort()).toEqual(Object.keys(CALLS).sort());
  });

  for (const row of ROWS)
    it(row.row, async () => {
      const actual: Record<string, Verdict> = {};
      const expected: Record<string, Verdict> = {};
      for (const sandbox of row.sandbox === 'either' ? [false, true] : [row.sandbox]) {
        const tools = createToolRuntime({
          cwd: root,
          policy: row.policy,
          detectSandbox: () =>
            sandbox ? { available: true, bwrap: '/usr/bin/bwrap' } : { available: false, why: 'none' },
          ...(row.unconfined ? { unconfined: true } : {}),
        });
        for (const [kind, [name, args]] of Object.entries(CALLS)) {
          const text = JSON.stringify(args).replaceAll('OUT', outside);
          const call = { type: 'function_call' as const, name, arguments: text, call_id: `call_${kind}` };
          actual[`${kind}${sandbox ? ' (sandbox)' : ''}`] = (await tools.decide(call)).kind;
          expected[`${kind}${sandbox ? ' (sandbox)' : ''}`] = row.unasked.includes(kind)
            ? 'allow'
            : row.asks.includes(kind)
              ? 'ask'
              : 'deny';
        }
      }
      expect(actual).toEqual(expected);
    });
});
