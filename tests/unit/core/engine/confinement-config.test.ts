/**
 * Issue 36 §3: the one bypass of confinement reaches the tool runtime from config.json
 * (`dangerouslySkipConfinement`) and from the caller (`--dangerously-skip-confinement`, which wins for
 * its run), and the warning front ends show says so while it holds.
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodyConfig } from '../../../../src/core/config/index.js';
import { engineRuntime } from '../../../../src/core/engine/engine-runtime.js';

describe('dangerouslySkipConfinement', () => {
  let cwd: string;
  beforeAll(async () => {
    cwd = await realpath(await mkdtemp(join(tmpdir(), 'cody-unconfined-')));
  });
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  const verdict = async (config: CodyConfig, unconfined?: boolean) => {
    const runtime = engineRuntime(
      { sandbox: { enabled: false }, ...config },
      { cwd, env: {}, version: 'test', approvalPolicy: 'full-auto', unconfined },
    );
    const tools = await runtime.createTools();
    if (!tools) throw new Error('no tools');
    const decision = await tools.decide({
      type: 'function_call',
      name: 'shell',
      arguments: JSON.stringify({ command: `python3 -c "print('x')"` }),
      call_id: 'call_1',
    });
    await tools.close?.();
    return { decision: decision.kind, off: tools.unconfined?.(), warning: await runtime.unconfinedWarning() };
  };

  it('off by default: an interpreter asks under full-auto without a sandbox', async () => {
    const result = await verdict({});
    expect(result).toMatchObject({ decision: 'ask', off: false });
    expect(result.warning).toBe(
      'full-auto without a sandbox: commands run unconfined, so only those Cody can show stay in the workspace run unasked (the rest ask)',
    );
  });

  it('config.json turns it off, and the warning says so', async () => {
    const result = await verdict({ dangerouslySkipConfinement: true });
    expect(result).toMatchObject({ decision: 'allow', off: true });
    expect(result.warning).toMatch(
      /^full-auto without a sandbox and with confinement off \(--dangerously-skip-confinement\)/,
    );
  });

  it('the flag turns it off for its run whatever config.json says', async () => {
    expect(await verdict({ dangerouslySkipConfinement: false }, true)).toMatchObject({
      decision: 'allow',
      off: true,
    });
  });
});
