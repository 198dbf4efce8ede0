import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendHistory, historyPath, readHistory } from '../../../src/cli/history.js';
import { createRedactor } from '../../../src/core/redact/redact.js';

describe('prompt history', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'cody-history-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('keeps one redacted JSON line per prompt, mode 0600, and reads them back oldest first', async () => {
    const redact = createRedactor();
    const key = `sk-proj-${'Zx9_Yw8-Vu'.repeat(5)}`;
    appendHistory(home, { text: 'first', conversationId: 'c1', time: '2026-01-01T00:00:00Z' }, redact);
    appendHistory(home, { text: `use ${key}`, conversationId: 'c2', time: '2026-01-01T00:00:01Z' }, redact);
    const text = await readFile(historyPath(home), 'utf8');
    expect(text).not.toContain(key);
    expect(
      text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual([
      { text: 'first', conversationId: 'c1', time: '2026-01-01T00:00:00Z' },
      { text: 'use [REDACTED]', conversationId: 'c2', time: '2026-01-01T00:00:01Z' },
    ]);
    expect((await stat(historyPath(home))).mode & 0o777).toBe(0o600);
    expect(readHistory(home)).toEqual(['first', 'use [REDACTED]']);
  });

  it('trims to the newest half when it outgrows the limit', async () => {
    const redact = createRedactor();
    for (let index = 0; index < 100; index += 1)
      appendHistory(
        home,
        { text: `prompt ${index} ${'x'.repeat(80)}`, conversationId: 'c', time: 't' },
        redact,
        4096,
      );
    const size = (await stat(historyPath(home))).size;
    expect(size).toBeLessThanOrEqual(4096);
    const prompts = readHistory(home);
    expect(prompts.at(-1)).toMatch(/^prompt 99 /);
    expect(prompts[0]).not.toMatch(/^prompt 0 /);
    expect((await stat(historyPath(home))).mode & 0o777).toBe(0o600);
  });
});
