/**
 * Project instructions (issue 22, part 1) through the built `cody`: `$CODY_HOME/AGENTS.md`, then one
 * file per directory from the git root down to the working directory, on the wire of each API in that
 * order before the user's message; recorded in Codex's contextual shape, once until they change; cut at
 * `projectDocMaxBytes` with a marker; listed by `cody status`. The first turn of each test is a real
 * `cody chat` in that directory; the turns after it, and the steps that set a test up, run the same
 * command in process (the same files are found from the same working directory).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SUMMARY_PREFIX } from '../../src/core/rollout/summary-prefix.js';
import { createHarness, type Harness, linesOfType } from './harness.js';
import { codyInProcess } from './in-process.js';

const PROVIDERS = [
  { api: 'openai-chat', args: ['openai', '--api', 'chat'] },
  { api: 'openai-responses', args: ['openai', '--api', 'responses'] },
  { api: 'anthropic-messages', args: ['anthropic'] },
  { api: 'gemini', args: ['google'] },
] as const;

describe('project instructions (AGENTS.md)', () => {
  let harness: Harness;
  let repo: string;
  beforeEach(async () => {
    harness = await createHarness();
    repo = join(harness.home, 'repo');
    await mkdir(join(repo, 'pkg', 'sub'), { recursive: true });
    await mkdir(harness.env.CODY_HOME ?? '', { recursive: true });
    expect((await harness.shell(`git init -q "${repo}"`)).code).toBe(0);
    await writeFile(join(harness.env.CODY_HOME ?? '', 'AGENTS.md'), 'HOME-RULE: answer briefly\n');
    await writeFile(join(repo, 'AGENTS.md'), 'ROOT-RULE: run npm test\n');
    // No AGENTS.md in pkg: CLAUDE.md is the fallback there.
    await writeFile(join(repo, 'pkg', 'CLAUDE.md'), 'PKG-RULE: from CLAUDE.md\n');
    await writeFile(join(repo, 'pkg', 'sub', 'AGENTS.md'), 'SUB-RULE: nearest wins\n');
  });
  afterEach(async () => {
    await harness.close();
  });

  const chatIn = (directory: string, message: string) =>
    harness.shell(`cd "${directory}" && $CODY chat "${message}"`);
  const chatInProcess = (directory: string, message: string) =>
    codyInProcess(harness, ['chat', message], { cwd: directory });
  const newestId = async (): Promise<string> =>
    (
      JSON.parse((await codyInProcess(harness, ['list', '--json', '--all'])).stdout) as Array<{ id: string }>
    )[0]?.id ?? '';

  for (const provider of PROVIDERS) {
    it(`are sent on ${provider.api} in order, before the message, and recorded as Codex does`, async () => {
      expect((await codyInProcess(harness, ['set-provider', ...provider.args])).code).toBe(0);
      const first = await chatIn(join(repo, 'pkg', 'sub'), 'hello there');
      expect(first.code, first.stderr).toBe(0);
      const body = JSON.stringify(harness.server.modelRequests(provider.api).at(-1)?.body);
      const at = ['HOME-RULE', 'ROOT-RULE', 'PKG-RULE', 'SUB-RULE', 'hello there'].map((marker) =>
        body.indexOf(marker),
      );
      expect(
        at.every((index) => index >= 0),
        body,
      ).toBe(true);
      expect([...at].sort((a, b) => a - b)).toEqual(at);
      expect(body).toContain('# AGENTS.md instructions for ');

      // Unchanged: not recorded again. Edited: the next turn sends (and records) the new text.
      expect((await chatInProcess(join(repo, 'pkg', 'sub'), 'SECOND-MSG')).code).toBe(0);
      await writeFile(join(repo, 'AGENTS.md'), 'ROOT-RULE-2: edited\n');
      expect((await chatInProcess(join(repo, 'pkg', 'sub'), 'THIRD-MSG')).code).toBe(0);
      const last = JSON.stringify(harness.server.modelRequests(provider.api).at(-1)?.body);
      expect(last.lastIndexOf('ROOT-RULE-2')).toBeGreaterThan(last.lastIndexOf('SECOND-MSG'));
      expect(last.lastIndexOf('ROOT-RULE-2')).toBeLessThan(last.lastIndexOf('THIRD-MSG'));

      const id = await newestId();
      const items = linesOfType(await harness.rollout(id), 'response_item').map((line) => line.payload);
      const instructions = items.filter(
        (item) =>
          item.role === 'user' &&
          JSON.stringify(item.content).startsWith(
            '[{"type":"input_text","text":"# AGENTS.md instructions for',
          ),
      );
      expect(instructions).toHaveLength(2);
      const text = (instructions[0]?.content as Array<{ text: string }>)[0]?.text ?? '';
      expect(text).toMatch(/^# AGENTS\.md instructions for .*\/repo\/pkg\/sub\n\n<INSTRUCTIONS>\n/);
      expect(text.endsWith('</INSTRUCTIONS>')).toBe(true);
      // Codex's reader sees no user turn in them: no user_message event for the instructions.
      const userEvents = linesOfType(await harness.rollout(id), 'event_msg')
        .map((line) => line.payload)
        .filter((payload) => payload.type === 'user_message')
        .map((payload) => payload.message);
      expect(userEvents).toEqual(['hello there', 'SECOND-MSG', 'THIRD-MSG']);
    });
  }

  it('are cut at projectDocMaxBytes with a visible marker, and cody status lists the files', async () => {
    await harness.writeConfig({ projectDocMaxBytes: 60 });
    await writeFile(join(repo, 'AGENTS.md'), `ROOT-RULE ${'x'.repeat(200)} ROOT-END\n`);
    const run = await chatIn(join(repo, 'pkg', 'sub'), 'hi');
    expect(run.code, run.stderr).toBe(0);
    const body = JSON.stringify(harness.server.modelRequests().at(-1)?.body);
    expect(body).toContain('ROOT-RULE');
    expect(body).not.toContain('ROOT-END');
    expect(body).toContain('cut: instructions are limited to 60 bytes (projectDocMaxBytes)');
    expect(body).not.toContain('SUB-RULE');
    // cody show: the instructions under their own heading, not as something the person typed.
    const shown = (await codyInProcess(harness, ['show'], { cwd: join(repo, 'pkg', 'sub') })).stdout;
    expect(shown).toMatch(
      /\n── project instructions for \S*\/repo\/pkg\/sub \(AGENTS\.md\) ──\n<!-- \S*AGENTS\.md -->\nHOME-RULE/,
    );
    expect(shown).not.toContain('you › # AGENTS.md');
    expect(shown).not.toContain('<INSTRUCTIONS>');
    expect(shown).toContain('\nyou › hi\n');

    const status = await harness.shell(`cd "${join(repo, 'pkg', 'sub')}" && $CODY status`);
    expect(status.code, status.stderr).toBe(0);
    const listed = status.stdout.slice(status.stdout.indexOf('Instructions:'));
    expect(listed).toMatch(/\.cody\/AGENTS\.md \(26 bytes, user\)/);
    expect(listed).toMatch(/repo\/AGENTS\.md \(220 bytes, project\)/);
    expect(listed).toMatch(/repo\/pkg\/CLAUDE\.md \(25 bytes, project\)/);
    expect(listed).toMatch(/repo\/pkg\/sub\/AGENTS\.md \(23 bytes, project\)/);
    expect(listed).toContain('cut to 60 bytes (projectDocMaxBytes)');
    const json = JSON.parse(
      (await harness.shell(`cd "${join(repo, 'pkg', 'sub')}" && $CODY status --json`)).stdout,
    ) as { instructions: Array<{ path: string; bytes: number }> };
    expect(json.instructions.map((file) => file.bytes)).toEqual([26, 220, 25, 23]);
  });

  it('an AGENTS.md FIFO is refused with a warning: cody chat finishes at once (issue 36.5)', async () => {
    await rm(join(repo, 'AGENTS.md'));
    execFileSync('mkfifo', [join(repo, 'AGENTS.md')]);
    const started = Date.now();
    const run = await chatIn(repo, 'hi');
    expect(run.code, run.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(run.stderr).toContain(`${join(repo, 'AGENTS.md')} is a FIFO, not a regular file`);
    const body = JSON.stringify(harness.server.modelRequests().at(-1)?.body);
    expect(body).toContain('HOME-RULE');
    expect(body).not.toContain('ROOT-RULE');
  });

  it('survive compaction: re-sent once, right after the summary, not summarised away', async () => {
    await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-4.1-mini' });
    const sub = join(repo, 'pkg', 'sub');
    const filler = 'the quick brown fox jumps over the lazy dog '.repeat(60);
    expect((await chatInProcess(sub, `ONE-MSG ${filler}`)).code).toBe(0);
    expect((await chatInProcess(sub, `TWO-MSG ${filler}`)).code).toBe(0);
    const compacted = await harness.shell(`cd "${sub}" && $CODY compact`);
    expect(compacted.code, compacted.stderr).toBe(0);
    expect((await chatIn(sub, 'AFTER-MSG')).code).toBe(0);
    const messages = (
      harness.server.modelRequests('openai-chat').at(-1)?.body as {
        messages: Array<{ role: string; content: unknown }>;
      }
    ).messages.map((message) => `${message.role}: ${JSON.stringify(message.content)}`);
    const summary = messages.findIndex((line) => line.includes(JSON.stringify(SUMMARY_PREFIX).slice(1, 30)));
    const instructions = messages.flatMap((line, index) => (line.includes('SUB-RULE') ? [index] : []));
    const after = messages.findIndex((line) => line.startsWith('user: "AFTER-MSG'));
    expect(summary, messages.join('\n')).toBeGreaterThan(0);
    expect(instructions).toEqual([summary + 1]);
    expect(after).toBeGreaterThan(summary + 1);
    // The compacted line's replacement history carries them too (a resume by Codex sees them).
    const id = await newestId();
    const [line] = linesOfType(await harness.rollout(id), 'compacted');
    expect(JSON.stringify(line?.payload.replacement_history)).toContain('SUB-RULE');
  });
});
