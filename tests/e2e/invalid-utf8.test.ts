/**
 * Issue 7.11: bytes that are not UTF-8 in a rollout are read as U+FFFD (nothing is refused or rewritten),
 * and every command that reads the history says so once, naming the file and line.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';

describe('invalid UTF-8 in a rollout (e2e)', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
    await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-4o-mini', tools: false });
  });
  afterEach(async () => {
    await harness.close();
  });

  it('is read with U+FFFD and warned about once per command, with file:line', async () => {
    const id = (await harness.cody(['new'])).stdout.trim();
    harness.server.enqueue({ type: 'reply', text: 'first answer' });
    expect((await harness.cody(['chat', 'caf-MARK-e'])).code).toBe(0);
    const file = join(harness.env.CODY_HOME ?? '', 'conversations', `${id}.jsonl`);
    const original = await readFile(file);
    const at = original.indexOf('-MARK-');
    const damaged = Buffer.concat([
      original.subarray(0, at),
      Buffer.from([0xff, 0xfe]),
      original.subarray(at + 6),
    ]);
    await writeFile(file, damaged);
    const line = damaged.subarray(0, at).toString('latin1').split('\n').length;
    const warning = `${file}:${line}: not valid UTF-8`;

    for (const args of [['show'], ['resume', id]]) {
      const run = await harness.cody(args);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr.split(warning).length - 1, `${args[0]}: ${run.stderr}`).toBe(1);
    }
    expect((await harness.cody(['show'])).stdout).toContain('caf\u{FFFD}\u{FFFD}e');

    harness.server.enqueue({ type: 'reply', text: 'second answer' });
    const chat = await harness.cody(['chat', 'again']);
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stderr.split(warning).length - 1).toBe(1);
    const sent = JSON.stringify(harness.server.modelRequests().at(-1)?.body);
    expect(sent).toContain('caf\u{FFFD}\u{FFFD}e');
    // Only read, never rewritten: the damaged bytes are still there, the new turn appended after them.
    expect((await readFile(file)).subarray(0, damaged.length).equals(damaged)).toBe(true);
  });
});
