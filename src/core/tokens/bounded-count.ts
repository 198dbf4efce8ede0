/**
 * Token counting whose cost is bounded whatever the text. gpt-tokenizer's byte-pair merge is
 * quadratic in the length of one pre-tokenizer piece, and a piece is a run without a break: letters
 * (`HHHH…`, CJK without punctuation), punctuation (`-----…`) or whitespace. Counting `'H'.repeat(n)`
 * took 0.6 s at 20k characters and 200k spaces took 67 s (bench/tokenizer-bounds.bench.js). Such runs
 * are counted here in slices of {@link MAX_EXACT_RUN} characters (each cut costs at most a token or
 * two), and a text longer than {@link MAX_EXACT_TEXT} is priced by the heuristic instead. The heuristic
 * is linear (~0.1 s per million characters); above {@link MAX_COUNTED_TEXT} characters it prices evenly
 * spaced samples and scales them, so no count takes more than a fraction of a second (a 20 MB message
 * is counted many times per turn) and none builds pieces the size of the input.
 */

/** Longest run without a break handed to the tokenizer in one piece (a run of 256 costs ~0.1 ms). */
export const MAX_EXACT_RUN = 256;

/**
 * Longest text counted exactly: ~0.15 s of o200k on ordinary text. Longer texts are far beyond any
 * context window anyway; the heuristic (within −1.5%…+11% of o200k) prices them in linear time.
 */
export const MAX_EXACT_TEXT = 1_000_000;

/** Longest text priced whole by the heuristic; longer ones are priced from samples. */
export const MAX_COUNTED_TEXT = 2_000_000;
/** Samples taken of a longer text, and characters in each: 512k characters priced in all. */
const SAMPLES = 16;
const SAMPLE_LENGTH = 32_768;

const enum RunClass {
  Letter,
  Space,
  Punctuation,
  Other,
}

const NON_ASCII_SPACE = /\s/u;
const NON_ASCII_LETTER = /[\p{L}\p{M}]/u;
const NON_ASCII_NUMBER = /\p{N}/u;

function classify(code: number): RunClass {
  if (code < 0x80) {
    const lower = code | 0x20;
    if (lower >= 0x61 && lower <= 0x7a) return RunClass.Letter;
    if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return RunClass.Space;
    if (code >= 0x30 && code <= 0x39) return RunClass.Other;
    return RunClass.Punctuation;
  }
  const char = String.fromCodePoint(code);
  if (NON_ASCII_SPACE.test(char)) return RunClass.Space;
  if (NON_ASCII_LETTER.test(char)) return RunClass.Letter;
  // Numbers are split into groups of three by the pre-tokenizer: never a long piece.
  if (NON_ASCII_NUMBER.test(char)) return RunClass.Other;
  return RunClass.Punctuation;
}

/** Start and end (UTF-16 indices) of every run of one class at least `minLength` code points long. */
export function longRuns(text: string, minLength: number): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let runStart = 0;
  let runClass: RunClass | undefined;
  let runLength = 0;
  for (let index = 0; index < text.length;) {
    const code = text.codePointAt(index) ?? 0;
    const kind = classify(code);
    if (kind !== runClass || kind === RunClass.Other) {
      if (runLength >= minLength) runs.push([runStart, index]);
      runStart = index;
      runClass = kind;
      runLength = 0;
    }
    runLength += 1;
    index += code > 0xffff ? 2 : 1;
  }
  if (runLength >= minLength) runs.push([runStart, text.length]);
  return runs;
}

/** Cuts `text[start, end)` into slices of at most `size` UTF-16 units, never inside a surrogate pair. */
function slices(text: string, start: number, end: number, size: number): string[] {
  const result: string[] = [];
  for (let from = start; from < end;) {
    let to = Math.min(end, from + size);
    const last = text.charCodeAt(to - 1);
    if (to < end && last >= 0xd800 && last <= 0xdbff) to -= 1;
    result.push(text.slice(from, to));
    from = to;
  }
  return result;
}

/**
 * `count(text)` for texts up to {@link MAX_COUNTED_TEXT} characters; for longer ones, `count` of
 * {@link SAMPLES} evenly spaced slices scaled to the whole length (rounded up).
 */
export function sampledCount(text: string, count: (text: string) => number): number {
  if (text.length <= MAX_COUNTED_TEXT) return count(text);
  const stride = Math.floor(text.length / SAMPLES);
  let sampledCharacters = 0;
  let sampledTokens = 0;
  for (let index = 0; index < SAMPLES; index += 1) {
    const [slice] = slices(text, index * stride, index * stride + SAMPLE_LENGTH, SAMPLE_LENGTH);
    if (slice === undefined) continue;
    sampledCharacters += slice.length;
    sampledTokens += count(slice);
  }
  return Math.ceil((sampledTokens * text.length) / Math.max(1, sampledCharacters));
}

/**
 * Tokens of `text` by `count` (an exact encoding), with long runs counted slice by slice; texts over
 * {@link MAX_EXACT_TEXT} characters go to `fallback` (the heuristic), sampled when huge.
 */
export function boundedExactCount(
  text: string,
  count: (text: string) => number,
  fallback: (text: string) => number,
): number {
  if (text.length === 0) return 0;
  if (text.length > MAX_EXACT_TEXT) return sampledCount(text, fallback);
  const runs = longRuns(text, MAX_EXACT_RUN);
  if (runs.length === 0) return count(text);
  let total = 0;
  let from = 0;
  for (const [start, end] of runs) {
    if (start > from) total += count(text.slice(from, start));
    for (const slice of slices(text, start, end, MAX_EXACT_RUN)) total += count(slice);
    from = end;
  }
  if (from < text.length) total += count(text.slice(from));
  return total;
}
