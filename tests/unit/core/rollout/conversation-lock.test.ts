/** The conversation lock with real lock directories: contention, waiting, timeout and stale recovery. */
import { mkdir, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LockTimeoutError } from '../../../../src/core/errors.js';
import { acquireConversationLock, LOCK_STALE_MS } from '../../../../src/core/rollout/lock.js';
import { makeTempDir, metaLine, removeTempDir, TEST_ID } from '../mocked-service.js';

describe('acquireConversationLock', () => {
  let directory: string;
  let filePath: string;
  beforeEach(async () => {
    directory = await makeTempDir('cody-lock-');
    filePath = join(directory, `${TEST_ID}.jsonl`);
    await writeFile(filePath, metaLine());
  });
  afterEach(async () => {
    await removeTempDir(directory);
  });

  it('holds <file>.lock while taken and removes it on release', async () => {
    const release = await acquireConversationLock(filePath, { timeoutMs: 0 });
    expect((await stat(`${filePath}.lock`)).isDirectory()).toBe(true);
    await release();
    await expect(stat(`${filePath}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('makes a second acquirer wait (saying so once) and time out with LockTimeoutError', async () => {
    const release = await acquireConversationLock(filePath);
    let waiting = 0;
    const error = await acquireConversationLock(filePath, {
      timeoutMs: 150,
      pollMs: 10,
      onWaiting: () => {
        waiting += 1;
      },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LockTimeoutError);
    expect((error as Error).message).toContain(`Conversation ${TEST_ID} is busy`);
    expect(waiting).toBe(1);
    await release();
    const again = await acquireConversationLock(filePath, { timeoutMs: 0 });
    await again();
  });

  it('gives the lock to the waiter once the holder releases it', async () => {
    const release = await acquireConversationLock(filePath);
    const order: string[] = [];
    const second = acquireConversationLock(filePath, {
      timeoutMs: 10_000,
      pollMs: 5,
      onWaiting: () => {
        order.push('waiting');
        void release().then(() => order.push('released'));
      },
    });
    const releaseSecond = await second;
    order.push('acquired');
    expect(order).toEqual(['waiting', 'released', 'acquired']);
    // Held by the second acquirer now: a third one must wait.
    await expect(acquireConversationLock(filePath, { timeoutMs: 0 })).rejects.toThrow(LockTimeoutError);
    await releaseSecond();
  });

  it('takes over a stale lock left by a crashed holder', async () => {
    const lockDirectory = `${filePath}.lock`;
    await mkdir(lockDirectory);
    const longAgo = new Date(Date.now() - LOCK_STALE_MS * 3);
    await utimes(lockDirectory, longAgo, longAgo);
    let waited = false;
    const release = await acquireConversationLock(filePath, {
      timeoutMs: 0,
      onWaiting: () => {
        waited = true;
      },
    });
    expect(waited).toBe(false);
    expect((await stat(lockDirectory)).mtimeMs).toBeGreaterThan(longAgo.getTime());
    await release();
  });

  it('does not take over a fresh lock directory', async () => {
    await mkdir(`${filePath}.lock`);
    await expect(acquireConversationLock(filePath, { timeoutMs: 0 })).rejects.toThrow(LockTimeoutError);
  });
});
