/**
 * Tools end to end through `bin/cody` on all four APIs, with the fake provider scripting the calls:
 * policy decision → run → output recorded → the next request carries each call and exactly one output,
 * in call order, in that API's shape; the ghost snapshot, `cody diff` and `cody undo`. Choosing the
 * provider runs `cody set-provider` in process.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, linesOfType } from './harness.js';
import { codyInProcess } from './in-process.js';
import { historyLines } from './wire-history.js';
import { makeRepo, PROVIDERS } from './tool-fixtures.js';
import { toolExchanges } from './wire-tools.js';

const PATCH = [
  '*** Begin Patch',
  '*** Update File: a.txt',
  ' alpha',
  '-beta',
  '+gamma',
  '*** Add File: new.txt',
  '+brand new',
  '*** End Patch',
].join('\n');

describe('tools end to end', () => {
  let harness: Harness;
  let outside: string;
  beforeEach(async () => {
    harness = await createHarness();
    outside = await mkdtemp(join(tmpdir(), 'cody-outside-'));
    await writeFile(join(outside, 'secret.txt'), 'top secret\n');
    await makeRepo(harness.home);
  });
  afterEach(async () => {
    await harness.close();
    await rm(outside, { recursive: true, force: true });
  });

  for (const provider of PROVIDERS) {
    it(`runs calls, records one output per call in order, then diffs and undoes the turn on ${provider.api}`, async () => {
      expect((await codyInProcess(harness, ['set-provider', ...provider.args])).code).toBe(0);
      harness.server.enqueue(
        {
          type: 'reply',
          toolCalls: [
            { id: 'call_read', name: 'read_file', arguments: { path: 'a.txt' } },
            { id: 'call_grep', name: 'grep', arguments: { pattern: 'bet+a' } },
            { id: 'call_patch', name: 'apply_patch', arguments: { input: PATCH } },
            { id: 'call_shell', name: 'shell', arguments: { command: 'cat a.txt new.txt' } },
          ],
        },
        { type: 'reply', text: 'All done.' },
      );
      const run = await harness.cody(['chat', '--approval', 'full-auto', 'fix the file']);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('All done.');
      expect(run.stderr).toContain('2 files changed, +2 \u22121');
      // The patch ran without asking, so its diff is shown under the call.
      expect(run.stderr).toMatch(
        /--- a\/a\.txt\n\s+\+\+\+ b\/a\.txt\n\s+@@ -1,2 \+1,2 @@\n\s+1 {3}alpha\n\s+2 - beta\n\s+2 \+ gamma/,
      );
      expect(await readFile(join(harness.home, 'a.txt'), 'utf8')).toBe('alpha\ngamma\n');

      const requests = harness.server.modelRequests();
      expect(requests).toHaveLength(2);
      const second = requests[1];
      if (!second) throw new Error('no second request');
      expect(second.rejected).toBeUndefined();
      const { calls, outputs } = toolExchanges(second);
      expect(calls.map((call) => call.name)).toEqual(['read_file', 'grep', 'apply_patch', 'shell']);
      expect(outputs).toHaveLength(4);
      expect(outputs.map((output) => output.id)).toEqual(calls.map((call) => call.id));
      // The read ran before the patch: read-only calls first only when they come first.
      expect(outputs[0]?.text).toBe('     1\talpha\n     2\tbeta');
      expect(outputs[1]?.text).toBe('a.txt:2:beta');
      expect(outputs[2]?.text).toBe('Success. Updated the following files:\nM a.txt\nA new.txt');
      expect(outputs[3]?.text).toMatch(
        /^Exit code: 0\nWall time: [\d.]+ seconds\nOutput:\nalpha\ngamma\nbrand new\n$/,
      );

      const id = (await readFile(join(harness.env.CODY_HOME ?? '', 'active'), 'utf8')).trim();
      const lines = await harness.rollout(id);
      const items = linesOfType(lines, 'response_item').map((line) => line.payload);
      const ghosts = items.filter((item) => item.type === 'ghost_snapshot');
      expect(ghosts).toHaveLength(1);
      expect(Object.keys(ghosts[0]?.ghost_commit as object).sort()).toEqual([
        'id',
        'parent',
        'preexisting_untracked_dirs',
        'preexisting_untracked_files',
      ]);
      expect(
        items.filter((item) => item.type === 'function_call_output').map((item) => item.call_id),
      ).toEqual(items.filter((item) => item.type === 'function_call').map((item) => item.call_id));
      // The snapshot never reaches a model.
      expect(JSON.stringify(second.body)).not.toContain(
        String((ghosts[0]?.ghost_commit as { id: string }).id),
      );

      // The policy in force is recorded with the turn, in Codex's fields and Cody's own.
      const [context] = linesOfType(lines, 'turn_context');
      expect(context?.payload).toMatchObject({
        cody_approval_policy: 'full-auto',
        approval_policy: 'on-request',
      });
      expect(['workspace-write', 'danger-full-access']).toContain(
        (context?.payload.sandbox_policy as { type?: string } | undefined)?.type,
      );

      const diffJson = await harness.cody(['diff', '--json']);
      expect(diffJson.code).toBe(0);
      const parsed = JSON.parse(diffJson.stdout) as {
        turn: number;
        files: Array<{ path: string; status: string }>;
      };
      expect(parsed.turn).toBe(1);
      expect(parsed.files.map((file) => `${file.status} ${file.path}`)).toEqual([
        'modified a.txt',
        'added new.txt',
      ]);
      const diff = await harness.cody(['diff', '--turn', '1']);
      expect(diff.stdout).toContain('-beta\n+gamma\n');
      expect(diff.stdout).toContain('+++ b/new.txt');

      const undo = await harness.cody(['undo']);
      expect(undo.code).toBe(0);
      expect(undo.stdout).toContain('Undid 1 turn');
      expect(await readFile(join(harness.home, 'a.txt'), 'utf8')).toBe('alpha\nbeta\n');
      expect(existsSync(join(harness.home, 'new.txt'))).toBe(false);
      expect(await readFile(join(harness.home, 'untracked-before.txt'), 'utf8')).toBe('mine\n');
      const rolledBack = linesOfType(await harness.rollout(id), 'event_msg').filter(
        (line) => line.payload.type === 'thread_rolled_back',
      );
      expect(rolledBack.map((line) => line.payload.num_turns)).toEqual([1]);

      // Resume knows: the next request no longer carries the undone turn.
      const after = await harness.cody(['chat', 'start over']);
      expect(after.code).toBe(0);
      const last = harness.server.modelRequests().at(-1);
      if (!last) throw new Error('no request');
      expect(historyLines(last)).toEqual(['user: start over']);
      expect((await harness.cody(['undo'])).stderr).toMatch(/Nothing to undo/);
    });

    it(`applies each policy's denials, outside-workspace checks and no-one-to-ask on ${provider.api}`, async () => {
      expect((await codyInProcess(harness, ['set-provider', ...provider.args])).code).toBe(0);
      const outsideFile = join(outside, 'secret.txt');
      let turn = 0;
      // Call ids unique across turns, as real providers make them.
      const script = (calls: Array<{ name: string; arguments: Record<string, unknown> }>) => {
        turn += 1;
        const toolCalls = calls.map((call, index) => ({ ...call, id: `call_${turn}_${index}` }));
        harness.server.enqueue({ type: 'reply', toolCalls }, { type: 'reply', text: 'ok' });
      };
      const outputsOfLastTurn = (): string[] => {
        const last = harness.server.modelRequests().at(-1);
        if (!last) throw new Error('no request');
        return toolExchanges(last)
          .outputs.slice(-3)
          .map((output) => output.text);
      };

      script([
        { name: 'write_file', arguments: { path: 'w.txt', content: 'x' } },
        { name: 'shell', arguments: { command: 'touch ran.txt' } },
        { name: 'read_file', arguments: { path: outsideFile } },
      ]);
      const readOnlyRun = await harness.cody(['chat', '--approval', 'read-only', 'try']);
      expect(readOnlyRun.code).toBe(0);
      // On screen too, each denial says its real reason: the policy, not a missing terminal.
      expect(readOnlyRun.stderr).toMatch(/^✗ write w\.txt .* — declined by policy: .*read-only/m);
      expect(readOnlyRun.stderr).not.toMatch(/no terminal/);
      const readOnly = outputsOfLastTurn();
      expect(readOnly[0]).toMatch(/^Declined by policy: .*read-only.*write w\.txt/);
      expect(readOnly[1]).toMatch(/^Declined by policy: .*read-only.*touch ran\.txt/);
      expect(readOnly[2]).toMatch(/^Declined by policy: .*read-only.*outside the workspace/);

      script([
        { name: 'shell', arguments: { command: 'touch ran.txt' } },
        { name: 'edit_file', arguments: { path: 'a.txt', old_text: 'beta', new_text: 'BETA' } },
        { name: 'read_file', arguments: { path: 'a.txt' } },
      ]);
      // The conversation now keeps read-only (its last turn's policy): ask is chosen explicitly.
      const asked = await harness.cody(['chat', '--approval', 'ask', 'try again']);
      expect(asked.code).toBe(0);
      expect(asked.stderr).toMatch(
        /^✗ \$ touch ran\.txt — declined \(no terminal to ask; pass --approval full-auto to allow\): needs approval: /m,
      );
      const askOutputs = outputsOfLastTurn();
      expect(askOutputs[0]).toMatch(/needs approval .*touch ran\.txt.* nobody can approve it here/);
      expect(askOutputs[1]).toMatch(/needs approval .*edit a\.txt.* nobody can approve it here/);
      expect(askOutputs[2]).toBe('     1\talpha\n     2\tbeta');

      script([
        { name: 'write_file', arguments: { path: 'w.txt', content: 'written' } },
        { name: 'shell', arguments: { command: 'touch ran.txt' } },
        { name: 'write_file', arguments: { path: join(outside, 'w.txt'), content: 'x' } },
      ]);
      expect((await harness.cody(['chat', '--approval', 'auto-edit', 'and again'])).code).toBe(0);
      const autoEdit = outputsOfLastTurn();
      expect(autoEdit[0]).toBe('Wrote w.txt.');
      expect(autoEdit[1]).toMatch(/needs approval .*touch ran\.txt/);
      expect(autoEdit[2]).toMatch(/needs approval .*outside the workspace/);

      script([
        { name: 'read_file', arguments: { path: outsideFile } },
        { name: 'shell', arguments: { command: 'sudo true' } },
        { name: 'shell', arguments: { command: 'touch ran.txt' } },
      ]);
      expect((await harness.cody(['chat', '--auto-approve', 'last'])).code).toBe(0);
      const fullAuto = outputsOfLastTurn();
      expect(fullAuto[0]).toMatch(/needs approval .*outside the workspace/);
      expect(fullAuto[1]).toMatch(/needs approval .*runs as another user/);
      expect(fullAuto[2]).toMatch(/^Exit code: 0/);

      expect(await readFile(join(harness.home, 'a.txt'), 'utf8')).toBe('alpha\nbeta\n');
      expect(await readFile(join(harness.home, 'w.txt'), 'utf8')).toBe('written');
      expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
      expect(existsSync(join(outside, 'w.txt'))).toBe(false);
    });
  }

  it('streams tool events (started, output, finished with duration and exit code) in stream-json', async () => {
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [
          { id: 'call_sh', name: 'shell', arguments: { command: 'echo one; echo two >&2; exit 4' } },
        ],
      },
      { type: 'reply', text: 'seen' },
    );
    const run = await harness.cody([
      'chat',
      '--approval',
      'full-auto',
      '--output-format',
      'stream-json',
      'go',
    ]);
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const types = events.map((event) => event.type);
    const started = types.indexOf('tool-started');
    const finished = types.indexOf('tool-finished');
    expect(started).toBeGreaterThan(-1);
    expect(finished).toBeGreaterThan(started);
    const chunks = events.filter((event) => event.type === 'tool-output');
    expect(chunks.every((event) => event.callId === 'call_sh')).toBe(true);
    expect(chunks.map((event) => String(event.chunk)).join('')).toMatch(
      /one\n[\s\S]*two\n|two\n[\s\S]*one\n/,
    );
    expect(events[finished]).toMatchObject({ callId: 'call_sh', status: 'error', exitCode: 4 });
    expect(typeof events[finished]?.durationMs).toBe('number');
  });
});
