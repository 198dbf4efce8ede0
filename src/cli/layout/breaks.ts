/**
 * Where a line may break: the Unicode line-breaking algorithm (UAX #14, the `linebreak` package: after a
 * space, between ideographs, after a hyphen, never before `!` or a closing bracket, never at a no-break
 * space), except inside a URL, a path or a dotted name (`https://x.dev/a/b`, `src/cli/x.ts`,
 * `models.gpt-4.1-mini.reasoning`), which is one token: it breaks only where it must, when it is wider than
 * a whole line. The package (~40 ms to load on a busy machine, DECISIONS.md) is loaded on the first text
 * that does not fit on its line, or on a streaming line whose next word may stick to its last one, and not
 * for text the fast path below answers exactly (the banner).
 */
import type LineBreakerType from 'linebreak';

let LineBreaker: typeof LineBreakerType | undefined;

/** A token that is one thing to a reader: a URL, a path, a dotted or underscored name, an id (`01a2-f9a6`). */
const UNBREAKABLE = /^[<('"`[]*(?:[a-z][\w+.-]*:\/\/|www\.)|[/\\]|\w[._:@=]\w|\d-\w|\w-\d/i;

/** Offsets (into `text`, plain, no line ends) after which a line may end, in order; the end is not one. */
export function breakOpportunities(text: string): number[] {
  const kept = unbreakableSpans(text);
  return ruleBreaks(text).filter((at) => !kept.some(([start, end]) => at > start && at < end));
}

/** The UAX #14 break offsets, without Cody's unbreakable tokens; exported for the property test. */
export function ruleBreaks(text: string): number[] {
  const simple = simpleBreaks(text);
  if (simple !== undefined) return simple;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  LineBreaker ??= require('linebreak') as typeof LineBreakerType;
  const breaker = new LineBreaker(text);
  const positions: number[] = [];
  for (let next = breaker.nextBreak(); next; next = breaker.nextBreak()) {
    if (next.position >= text.length) break;
    positions.push(next.position);
  }
  return positions;
}

/**
 * The fast path (the banner, most status lines): text of letters, `·` (AL), digits (NU), spaces (SP),
 * `/` (SY), `.` and `,` (IS) and `-` (HY) only, not starting with a space, where the rules reduce to a
 * few pairs: after spaces, a break unless SY or IS follows (LB13); without spaces, none before SY, IS or
 * HY (LB13, LB21), none between letters and digits (LB23, LB28), none before a digit after HY, IS or SY
 * (LB25), none between IS and a letter (LB29), a break otherwise (LB31). Checked against the library for
 * random text of these characters (layout-breaks.test.ts). Undefined for any other text.
 */
function simpleBreaks(text: string): number[] | undefined {
  if (!/^(?:[A-Za-z0-9\u00b7/.,-][A-Za-z0-9\u00b7/.,\- ]*)?$/.test(text)) return undefined;
  const positions: number[] = [];
  let before = '';
  for (let at = 1; at < text.length; at += 1) {
    const previous = text[at - 1] ?? '';
    const next = text[at] ?? '';
    if (previous !== ' ') before = simpleClass(previous);
    if (next === ' ') continue;
    if (allowed(before, previous === ' ', simpleClass(next))) positions.push(at);
  }
  return positions;
}

function simpleClass(char: string): string {
  if (/[0-9]/.test(char)) return 'NU';
  if (char === '/') return 'SY';
  if (char === '.' || char === ',') return 'IS';
  return char === '-' ? 'HY' : 'AL';
}

/** Whether the line may break before a character of class `next` after `before` (and spaces, if any). */
function allowed(before: string, spaces: boolean, next: string): boolean {
  if (next === 'SY' || next === 'IS') return false;
  if (spaces) return true;
  if (next === 'HY') return false;
  if (next === 'NU') return false;
  return before !== 'AL' && before !== 'NU' && before !== 'IS';
}

/** The [start, end) spans of the tokens that break only where they must. */
function unbreakableSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const match of text.matchAll(/\S+/g)) {
    if (UNBREAKABLE.test(match[0])) spans.push([match.index, match.index + match[0].length]);
  }
  return spans;
}
