/**
 * Consecutive calls grouped for running: a run of read-only calls may run concurrently; every other
 * call runs alone, in order.
 */
export function groupCalls<T>(
  calls: readonly T[],
  isReadOnly: (call: T) => boolean,
): Array<{ readOnly: boolean; calls: T[] }> {
  const groups: Array<{ readOnly: boolean; calls: T[] }> = [];
  for (const call of calls) {
    const readOnly = isReadOnly(call);
    const last = groups[groups.length - 1];
    if (readOnly && last?.readOnly) last.calls.push(call);
    else groups.push({ readOnly, calls: [call] });
  }
  return groups;
}
