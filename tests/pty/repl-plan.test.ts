/**
 * The model's plan in the REPL, in a real terminal (tmux): the checklist (☐ ◐ ☑) is drawn once and
 * updated where it stands when update_plan is called again, even with other output below it (not printed
 * a second time), the call itself is not shown as a tool line, and /plan shows the current plan.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../e2e/harness.js';
import { startTmux, type TmuxSession } from './tmux.js';

const step = (text: string, status: string): { step: string; status: string } => ({ step: text, status });

describe('the plan in the REPL (tmux)', () => {
  let harness: Harness;
  let tmux: TmuxSession | undefined;
  beforeEach(async () => {
    harness = await createHarness({ chunkDelayMs: 5 });
    await writeFile(join(harness.home, 'notes.txt'), 'line one\nline two\n');
    const created = await harness.cody([
      'new',
      '--provider',
      'openai',
      '--api',
      'chat',
      '--model',
      'gpt-4.1-mini',
    ]);
    expect(created.code, created.stderr).toBe(0);
  });
  afterEach(async () => {
    await tmux?.kill();
    tmux = undefined;
    await harness.close();
  });

  it('updates the checklist in place; /plan shows the current plan', async () => {
    const env: Record<string, string> = { ...harness.env, TERM: 'xterm-256color' };
    delete env.NO_COLOR;
    tmux = await startTmux({ args: [], env, cwd: harness.home, columns: 80, rows: 40 });
    const term = tmux;
    await term.waitFor('›');
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [
          {
            id: 'p1',
            name: 'update_plan',
            arguments: {
              explanation: 'Small fix',
              plan: [step('Read the notes', 'in_progress'), step('Write the fix', 'pending')],
            },
          },
        ],
      },
      { type: 'reply', toolCalls: [{ id: 'r1', name: 'read_file', arguments: { path: 'notes.txt' } }] },
      {
        type: 'reply',
        toolCalls: [
          {
            id: 'p2',
            name: 'update_plan',
            arguments: { plan: [step('Read the notes', 'completed'), step('Write the fix', 'in_progress')] },
          },
        ],
      },
      { type: 'reply', text: 'All done here.' },
    );
    await term.send('fix it', { literal: true });
    await term.send('Enter');
    // The reply streams (issue 21): wait for the status line that ends the turn, not the reply's text.
    const screen = await term.waitFor(/All done here\.\n\S+ · \d+% context/);
    const lines = screen.split('\n');
    // One checklist, updated: the second state replaced the first, above the read_file call's output.
    expect(lines.filter((line) => line.startsWith('Plan'))).toHaveLength(1);
    const planAt = lines.findIndex((line) => line.startsWith('Plan'));
    expect(lines[planAt + 1]).toBe('  ☑ Read the notes');
    expect(lines[planAt + 2]).toBe('  ◐ Write the fix');
    expect(screen).not.toContain('◐ Read the notes');
    expect(screen).not.toContain('☐ Write the fix');
    expect(lines.findIndex((line) => line.includes('notes.txt'))).toBeGreaterThan(planAt + 2);
    expect(screen).not.toContain('update_plan');
    expect(screen).not.toContain('Plan updated');

    await term.send('/plan', { literal: true });
    await term.send('Enter');
    const after = await term.waitFor(
      /Plan\n {2}☑ Read the notes\n {2}◐ Write the fix\n[\s\S]*Plan\n {2}☑ Read the notes\n {2}◐ Write the fix/,
    );
    expect(after.split('\n').filter((line) => line.startsWith('Plan'))).toHaveLength(2);
  }, 60_000);
});
