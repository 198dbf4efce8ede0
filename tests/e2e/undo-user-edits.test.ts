/**
 * Undo and diff take back only what Cody changed (issue 19, part 1), with the built `cody`: a file the
 * person changed after the turn is kept and listed, files outside the turn's change set are never
 * written, an untracked file made after the turn survives, a turn that only ran `ls -la` or
 * `git status` is not a turn with changes, `--force` asks (or needs --yes), and `cody show` marks the
 * undone turn. Every file is checked byte for byte on disk. The turns that make the changes run
 * `cody chat` in process (`turn`); the undo, diff, show and list commands checked are real processes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { codyInProcess } from './in-process.js';
import { makeRepo } from './tool-fixtures.js';

const APP = 'console.log("app");\n';

describe('undo takes back only what the turn changed (e2e)', () => {
  let harness: Harness;
  let calls = 0;
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: harness.home, encoding: 'utf8' }).trimEnd();
  const read = (name: string): Promise<string> => readFile(join(harness.home, name), 'utf8');
  const write = (name: string, text: string): Promise<void> => writeFile(join(harness.home, name), text);
  /** One turn in which the model makes these calls, then answers (`cody chat`, in this process). */
  const turn = async (
    prompt: string,
    ...toolCalls: Array<{ name: string; arguments: Record<string, unknown> }>
  ) => {
    harness.server.enqueue(
      { type: 'reply', toolCalls: toolCalls.map((call) => ({ ...call, id: `call_${(calls += 1)}` })) },
      { type: 'reply', text: 'Done.' },
    );
    const run = await codyInProcess(harness, ['chat', '--approval', 'full-auto', prompt]);
    expect(run.code, run.stderr).toBe(0);
  };
  const editA = { name: 'edit_file', arguments: { path: 'a.txt', old_text: 'alpha', new_text: 'ALPHA' } };

  beforeEach(async () => {
    harness = await createHarness();
    await makeRepo(harness.home);
    await write('app.js', APP);
    execFileSync('git', ['add', 'app.js'], { cwd: harness.home });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'app'], {
      cwd: harness.home,
    });
    await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-4o-mini' });
  });
  afterEach(async () => {
    await harness.close();
  });

  it('the reported scenario: the person edits a.txt and app.js after the turn; undo keeps both', async () => {
    await turn('edit a', editA);
    expect(await read('a.txt')).toBe('ALPHA\nbeta\n');
    await write('app.js', `${APP}// mine\n`);
    await write('a.txt', 'ALPHA\nbeta\nmy line\n');

    // The turn's diff is the turn's alone: the person's edits are not in it.
    const diff = await harness.cody(['diff']);
    expect(diff.stdout).toContain('+ALPHA');
    expect(diff.stdout).not.toContain('app.js');
    expect(diff.stdout).not.toContain('my line');

    const undo = await harness.cody(['undo']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toContain('kept (changed since the turn): a.txt');
    expect(undo.stdout).toContain('(cody undo --force restores kept files too)');
    expect(undo.stdout).not.toContain('app.js');
    expect(undo.stdout).toContain('↶ undone');
    expect(await read('a.txt')).toBe('ALPHA\nbeta\nmy line\n');
    expect(await read('app.js')).toBe(`${APP}// mine\n`);
    expect(await read('untracked-before.txt')).toBe('mine\n');

    // What undo did is in the rollout; cody show marks the turn; the model no longer sees it.
    const [conversation] = JSON.parse((await harness.cody(['list', '--json'])).stdout) as Array<{
      id: string;
    }>;
    const rolledBack = (await harness.rollout(conversation?.id ?? ''))
      .map((line) => JSON.parse(line) as { type: string; payload: Record<string, unknown> })
      .filter((line) => line.payload.type === 'thread_rolled_back');
    expect(rolledBack.map((line) => line.payload)).toEqual([
      expect.objectContaining({
        num_turns: 1,
        undone_turns: [1],
        restored: [],
        removed: [],
        kept: ['a.txt'],
      }),
    ]);
    const show = await harness.cody(['show']);
    expect(show.stdout).toMatch(/you › edit a {3}↶ undone/);
    expect(show.stdout).toContain('kept (changed since the turn): a.txt');
    harness.server.enqueue({ type: 'reply', text: 'ok' });
    expect((await harness.cody(['chat', 'next'])).code).toBe(0);
    expect(JSON.stringify(harness.server.modelRequests().at(-1)?.body)).not.toContain('edit a');
  });

  it('restores what is still as the turn left it; files outside the turn and files made after it survive', async () => {
    await turn('edit a and make b', editA, {
      name: 'shell',
      arguments: { command: "printf 'made\\n' > b.txt" },
    });
    await write('app.js', `${APP}// mine\n`);
    await write('notes.txt', 'my notes\n');

    const undo = await harness.cody(['undo']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toContain('restored a.txt');
    expect(undo.stdout).toContain('removed b.txt');
    expect(undo.stdout).not.toContain('kept');
    expect(await read('a.txt')).toBe('alpha\nbeta\n');
    expect(existsSync(join(harness.home, 'b.txt'))).toBe(false);
    expect(await read('app.js')).toBe(`${APP}// mine\n`);
    expect(await read('notes.txt')).toBe('my notes\n');
    expect(await read('untracked-before.txt')).toBe('mine\n');
    expect(git('status', '--porcelain')).toBe(' M app.js\n?? notes.txt\n?? untracked-before.txt');
  });

  it('turns that only ran ls -la or git status are skipped by undo, diff, --turns and "Turns with changes"', async () => {
    await turn('edit a', editA);
    await turn('list', { name: 'shell', arguments: { command: 'ls -la' } });
    await turn('status', { name: 'shell', arguments: { command: 'git status' } });

    const diff = await harness.cody(['diff']);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('+ALPHA');
    const turn2 = await harness.cody(['diff', '--turn', '2']);
    expect(turn2.code).not.toBe(0);
    expect(turn2.stderr).toContain('Turn 2 changed no files. Turns with changes: 1.');
    const json = JSON.parse((await harness.cody(['diff', '--json'])).stdout) as { turn: number };
    expect(json.turn).toBe(1);

    const two = await harness.cody(['undo', '--turns', '2']);
    expect(two.code).not.toBe(0);
    expect(two.stderr).toContain('Only 1 turn changed files');
    expect(await read('a.txt')).toBe('ALPHA\nbeta\n');

    const undo = await harness.cody(['undo']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toContain('Undid 1 turn that changed files: turn 1 ↶ undone');
    expect(undo.stdout).toContain('restored a.txt');
    expect(await read('a.txt')).toBe('alpha\nbeta\n');
    expect((await harness.cody(['undo'])).stderr).toContain('Nothing to undo');
  });

  it('--force overwrites a file changed since the turn only when confirmed (--yes without a terminal)', async () => {
    await turn('edit a', editA);
    await write('a.txt', 'ALPHA\nbeta\nmy line\n');

    const refused = await harness.cody(['undo', '--force']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('without confirmation: pass --yes');
    expect(await read('a.txt')).toBe('ALPHA\nbeta\nmy line\n');
    expect(refused.stdout).toBe('');

    const forced = await harness.cody(['undo', '--force', '--yes']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('restored a.txt (overwriting its change since the turn)');
    expect(await read('a.txt')).toBe('alpha\nbeta\n');
    expect(await read('app.js')).toBe(APP);
  });
});
