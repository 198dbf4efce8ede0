/** Lock directories are private like everything else in CODY_HOME, whatever the umask (issue 7.11). */
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withFileLock } from '../../../../src/core/auth/credential-file.js';
import { acquireConversationLock } from '../../../../src/core/rollout/lock.js';

describe('lock directory mode', () => {
  let directory: string;
  let umask: number;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'cody-lock-mode-'));
    umask = process.umask(0o000);
  });
  afterEach(async () => {
    process.umask(umask);
    await rm(directory, { recursive: true, force: true });
  });

  it('is 0700 for a conversation lock, even under umask 000', async () => {
    const file = join(directory, 'conversation.jsonl');
    await writeFile(file, '');
    const release = await acquireConversationLock(file);
    try {
      expect((await stat(`${file}.lock`)).mode & 0o777).toBe(0o700);
    } finally {
      await release();
    }
  });

  it('is 0700 for a credential file lock', async () => {
    const file = join(directory, 'auth.json');
    await writeFile(file, '{}');
    const mode = await withFileLock(file, async () => (await stat(`${file}.lock`)).mode & 0o777);
    expect(mode).toBe(0o700);
  });
});
