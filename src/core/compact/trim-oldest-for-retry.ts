import type { ResponseItem } from '../../protocol/index.js';
import { collectInitialContext } from './collect-initial-context.js';

/** Items that are never sent: removing them would not make a request any smaller. */
function isNeverSent(item: ResponseItem): boolean {
  return item.type === 'ghost_snapshot' || item.type === 'opaque';
}

function callIdOf(item: ResponseItem): string | undefined {
  return item.type === 'function_call' || item.type === 'function_call_output' ? item.call_id : undefined;
}

/**
 * Drops the oldest sent item after the initial context, and with it every call or output sharing its
 * `call_id`, so a smaller retry of an overflowing summary request never holds a call without its
 * output or an output without its call. `removed` is how many items went (0 when nothing can go).
 */
export function trimOldestForRetry(history: readonly ResponseItem[]): {
  history: ResponseItem[];
  removed: number;
} {
  const start = collectInitialContext(history).length;
  let victimIndex = -1;
  for (let index = start; index < history.length; index += 1) {
    const item = history[index];
    if (item !== undefined && !isNeverSent(item)) {
      victimIndex = index;
      break;
    }
  }
  const victim = history[victimIndex];
  if (victim === undefined) return { history: [...history], removed: 0 };
  const callId = callIdOf(victim);
  const trimmed = history.filter(
    (item, index) => index !== victimIndex && (callId === undefined || callIdOf(item) !== callId),
  );
  return { history: trimmed, removed: history.length - trimmed.length };
}
