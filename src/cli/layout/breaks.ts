/**
 * Where a line may break: the Unicode line-breaking algorithm (UAX #14, the `linebreak` package: after a
 * space, between ideographs, after a hyphen, never before `!` or a closing bracket, never at a no-break
 * space), except inside a URL, a path or a dotted name (`https://x.dev/a/b`, `src/cli/x.ts`,
 * `models.gpt-4.1-mini.reasoning`), which is one token: it breaks only where it must, when it is wider than
 * a whole line. The package (~40 ms to load on a busy machine, DECISIONS.md) is loaded on the first text
 * that does not fit on its line, or on a streaming line whose next word may stick to its last one.
 */
import type LineBreakerType from 'linebreak';

let LineBreaker: typeof LineBreakerType | undefined;

/** A token that is one thing to a reader: a URL, a path, a dotted or underscored name, an id (`01a2-f9a6`). */
const UNBREAKABLE = /^[<('"`[]*(?:[a-z][\w+.-]*:\/\/|www\.)|[/\\]|\w[._:@=]\w|\d-\w|\w-\d/i;

/** Offsets (into `text`, plain, no line ends) after which a line may end, in order; the end is not one. */
export function breakOpportunities(text: string): number[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  LineBreaker ??= require('linebreak') as typeof LineBreakerType;
  const breaker = new LineBreaker(text);
  const kept = unbreakableSpans(text);
  const positions: number[] = [];
  for (let next = breaker.nextBreak(); next; next = breaker.nextBreak()) {
    const at = next.position;
    if (at >= text.length) break;
    if (kept.some(([start, end]) => at > start && at < end)) continue;
    positions.push(at);
  }
  return positions;
}

/** The [start, end) spans of the tokens that break only where they must. */
function unbreakableSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const match of text.matchAll(/\S+/g)) {
    if (UNBREAKABLE.test(match[0])) spans.push([match.index, match.index + match[0].length]);
  }
  return spans;
}
