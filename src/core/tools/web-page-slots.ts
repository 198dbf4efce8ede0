/**
 * How many pages convert at once, across the process: each page worker may hold up to its heap limit, so
 * a model asking for many pages in one reply (or many conversations in `cody serve`) must not start a
 * worker for each at the same time. The others wait their turn; a call stopped while it waits leaves the
 * queue at once.
 */

/** Two workers of WEB_PAGE_MAX_HEAP_MB each at most; the rest wait. */
export const WEB_PAGE_CONCURRENCY = 2;

let taken = 0;
const waiting: Array<() => void> = [];

/** Takes a slot, waiting for one if need be: false when the signal ended the wait (no slot taken). */
export function takePageSlot(signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted === true) return Promise.resolve(false);
  if (taken < WEB_PAGE_CONCURRENCY) {
    taken += 1;
    return Promise.resolve(true);
  }
  return new Promise((resolve) => {
    // The slot passes from the one who gives it back straight to this call (`taken` unchanged).
    const grant = (): void => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    };
    const onAbort = (): void => {
      waiting.splice(waiting.indexOf(grant), 1);
      resolve(false);
    };
    waiting.push(grant);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Gives a slot back: to the next call waiting, if any. */
export function givePageSlotBack(): void {
  const next = waiting.shift();
  if (next) next();
  else taken -= 1;
}
