/**
 * Rollouts are Cody's own files, read in pieces or whole: a FIFO or a device named like one is refused at
 * once — listing, resuming, reading a transcript or importing never waits on it (issue 36.5).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importCodexRollout } from '../../../../src/core/rollout/codex-import.js';
import { readRolloutForResume } from '../../../../src/core/rollout/reader.js';
import { readConversationSummary } from '../../../../src/core/rollout/summary-reader.js';
import { readTranscript, readTranscriptTail } from '../../../../src/core/rollout/transcript.js';

const ID = '019e1625-789d-76c0-80ab-3724b5ddb799';

describe('rollout files that are not regular files', () => {
  let directory: string;
  let fifo: string;
  let zero: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'cody-rollouts-'));
    fifo = join(directory, `${ID}.jsonl`);
    execFileSync('mkfifo', [fifo]);
    zero = join(directory, 'zero.jsonl');
    await symlink('/dev/zero', zero);
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('are listed as such, and every reader refuses them at once', async () => {
    const started = Date.now();
    expect(readConversationSummary(fifo)).toMatchObject({ id: ID, problem: 'not a regular file' });
    expect(readConversationSummary(zero)).toMatchObject({ problem: 'not a regular file' });
    await expect(readRolloutForResume(fifo)).rejects.toThrow(
      `Cannot read ${fifo}: is a FIFO, not a regular file`,
    );
    await expect(readTranscript(fifo)).rejects.toThrow(`Cannot read ${fifo}: is a FIFO, not a regular file`);
    await expect(readTranscriptTail(zero, 100)).rejects.toThrow(
      `Cannot read ${zero}: is a character device, not a regular file`,
    );
    await expect(
      importCodexRollout(zero, join(directory, 'out.jsonl'), { id: ID, cliVersion: '0.0.0' }),
    ).rejects.toThrow('is a character device, not a regular file');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
