/**
 * One writer per conversation: a lock held for a whole turn, so two shells never interleave lines.
 * proper-lockfile takes it with an atomic `mkdir <file>.lock` and refreshes the directory's mtime while
 * it is held, so the lock of a crashed holder goes stale and is taken over instead of wedging the
 * conversation.
 */
import lockfile from 'proper-lockfile';
import { isErrno, LockTimeoutError, StorageError } from '../errors.js';
import { sleep } from '../config/index.js';
import { privateLockFs } from '../config/index.js';
import { describeWriteError } from './recorder-file-system.js';

/**
 * How long a second writer waits before giving up. A normal streamed reply (with a tool call or two)
 * finishes well within 30 s, while a person or script waiting longer is better told the conversation is
 * busy than left hanging. Configurable (`lockTimeoutMs` in config.json).
 */
export const DEFAULT_LOCK_TIMEOUT_MS = 30_000;

/**
 * A lock whose mtime has not been refreshed for this long belongs to a dead process and is taken over.
 * Long enough that a busy machine (a blocked event loop, a laptop waking up) does not lose a live lock;
 * short enough that after a `kill -9` the next `cody chat` waits at most ~10 s, well inside the timeout.
 */
export const LOCK_STALE_MS = 10_000;

/**
 * How often the holder refreshes the lock's mtime: five refreshes per stale period, so a holder whose
 * timers are delayed by up to ~8 s still keeps its lock. (proper-lockfile requires 1 s ≤ update ≤ stale/2.)
 */
export const LOCK_UPDATE_MS = 2_000;

/** How often a waiting writer retries: quick enough to feel immediate, cheap enough (one mkdir) to ignore. */
const DEFAULT_POLL_MS = 100;

export interface LockOptions {
  /** Give up (LockTimeoutError) after this long; default `DEFAULT_LOCK_TIMEOUT_MS`. */
  timeoutMs?: number;
  /** Called once, when the lock is found held and waiting begins. */
  onWaiting?: () => void;
  /** Delay between attempts while waiting. */
  pollMs?: number;
  /**
   * Called if the lock is lost while held (its mtime could not be refreshed, or another process took it
   * over as stale). The default ignores it: the turn finishes, and the rollout stays line-atomic.
   */
  onCompromised?: (error: Error) => void;
}

/** Takes the conversation's lock (`<filePath>.lock`); resolves with its release function. */
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
        stale: LOCK_STALE_MS,
        update: LOCK_UPDATE_MS,
        realpath: false,
        retries: 0,
        fs: privateLockFs,
        onCompromised: options.onCompromised ?? (() => undefined),
      });
      return async () => {
        await release().catch(() => undefined);
      };
    } catch (error) {
      if (!isErrno(error, 'ELOCKED')) {
        throw new StorageError(`Cannot lock ${filePath}: ${describeWriteError(error)}`, { cause: error });
      }
    }
    const waited = Date.now() - started;
    if (waited >= timeoutMs) throw new LockTimeoutError(conversationIdOf(filePath), waited);
    if (!announced) {
      announced = true;
      options.onWaiting?.();
    }
    await sleep(Math.min(options.pollMs ?? DEFAULT_POLL_MS, Math.max(1, timeoutMs - waited)));
  }
}

function conversationIdOf(filePath: string): string {
  return filePath.replace(/^.*[/\\]|\.jsonl$/g, '');
}
