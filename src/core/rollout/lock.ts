/**
 * One writer per conversation: a lock held for a whole turn, so two shells never interleave lines.
 * proper-lockfile uses an atomic `mkdir <file>.lock` and refreshes its mtime while held, so a lock whose
 * holder crashed goes stale and is taken over instead of wedging the conversation.
 */
import lockfile from 'proper-lockfile';
import { LockTimeoutError } from '../errors.js';
import { sleep } from '../retry.js';

/** How long a second writer waits: a normal streamed reply finishes well within it. */
export const DEFAULT_LOCK_TIMEOUT_MS = 30_000;
/**
 * A lock not refreshed for this long belongs to a dead process. The holder refreshes every
 * `STALE_MS / 2` ms; 10 s tolerates a busy machine pausing the refresh timer for several seconds.
 */
const STALE_MS = 10_000;
/** How often a waiting writer retries. */
const DEFAULT_POLL_MS = 100;

export interface LockOptions {
  timeoutMs?: number;
  /** Called once, when the lock is found held and waiting begins. */
  onWaiting?: () => void;
  pollMs?: number;
}

/** Takes the conversation's lock; resolves with its release function. */
export async function acquireConversationLock(
  filePath: string,
  options: LockOptions = {},
): Promise<() => Promise<void>> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const started = Date.now();
  let announced = false;
  for (;;) {
    try {
      const release = await lockfile.lock(filePath, {
        stale: STALE_MS,
        update: STALE_MS / 2,
        realpath: false,
        retries: 0,
        onCompromised: () => undefined,
      });
      return async () => {
        await release().catch(() => undefined);
      };
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ELOCKED') throw error;
    }
    const waited = Date.now() - started;
    if (waited >= timeoutMs) throw new LockTimeoutError(filePath.replace(/^.*\/|\.jsonl$/g, ''), waited);
    if (!announced) {
      announced = true;
      options.onWaiting?.();
    }
    await sleep(Math.min(options.pollMs ?? DEFAULT_POLL_MS, Math.max(1, timeoutMs - waited)));
  }
}
