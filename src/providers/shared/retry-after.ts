/** A server's requested wait, from `retry-after-ms` or `retry-after` (seconds or an HTTP date), in ms. */
export function parseRetryAfter(
  get: (name: string) => string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  const milliseconds = get('retry-after-ms');
  if (milliseconds) {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const header = get('retry-after');
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
