import { describe, expect, it } from 'vitest';
import type { StatusRun } from '../../../../src/cli/status-line/run-status-command.js';
import { statusInput, type StatusInput } from '../../../../src/cli/status-line/status-input.js';
import { StatusLine } from '../../../../src/cli/status-line/status-line.js';

const input = (model: string): StatusInput =>
  statusInput({
    status: {
      id: 'c',
      provider: 'openai',
      model,
      contextTokens: 10,
      contextWindow: 100,
      approvalPolicy: 'ask',
    },
    transcriptPath: '/t',
    cwd: '/w',
    projectDir: '/w',
    version: '1',
    totals: { inputTokens: 0, outputTokens: 0, turnMs: 0 },
  });

/** A command stand-in whose runs are answered by the test. */
function scripted(): {
  run: (command: string, given: unknown) => Promise<StatusRun>;
  calls: string[];
  answer: (result: StatusRun) => void;
} {
  const calls: string[] = [];
  const pending: Array<(result: StatusRun) => void> = [];
  return {
    calls,
    run: (_command, given) => {
      calls.push((given as StatusInput).model.id);
      return new Promise((resolve) => pending.push(resolve));
    },
    answer: (result) => pending.shift()?.(result),
  };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('the status line', () => {
  it("shows Cody's own line until the command's arrives, runs once per state and the latest waits", async () => {
    const command = scripted();
    const warnings: string[] = [];
    const line = new StatusLine({
      command: 'x',
      cwd: '/',
      env: {},
      warn: (w) => warnings.push(w),
      run: command.run,
    });
    const shown: string[] = [];
    line.onChange((text) => shown.push(text));
    expect(line.current(input('a'))).toBe('a · 10% context · approval ask');
    void line.refresh(input('a'));
    void line.refresh(input('a'));
    void line.refresh(input('b'));
    void line.refresh(input('c'));
    await tick();
    expect(command.calls).toEqual(['a']);
    command.answer({ kind: 'line', text: 'from a' });
    await tick();
    expect(command.calls).toEqual(['a', 'c']);
    command.answer({ kind: 'line', text: 'from c' });
    await tick();
    expect(shown).toEqual(['from a', 'from c']);
    expect(line.current(input('z'))).toBe('from c');
    expect(warnings).toEqual([]);
  });

  it('a slow command keeps the previous line; a failing one shows Cody’s own; one warning in all', async () => {
    const command = scripted();
    const warnings: string[] = [];
    const line = new StatusLine({
      command: 'x',
      cwd: '/',
      env: {},
      warn: (w) => warnings.push(w),
      run: command.run,
    });
    void line.refresh(input('a'));
    await tick();
    command.answer({ kind: 'line', text: 'mine' });
    await tick();
    void line.refresh(input('b'));
    await tick();
    command.answer({ kind: 'failed', reason: 'timed out after 1000 ms' });
    await tick();
    expect(line.current(input('b'))).toBe('mine');
    void line.refresh(input('c'));
    await tick();
    command.answer({ kind: 'failed', reason: 'exited with 1' });
    await tick();
    expect(line.current(input('c'))).toBe('c · 10% context · approval ask');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('timed out after 1000 ms');
  });
});
