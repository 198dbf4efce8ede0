/**
 * The wrap property (issue 29): random text (ASCII words, CJK, emoji with ZWJ and VS16, combining marks,
 * URLs, paths; plain and coloured) laid out at random widths 10–200 with a random hanging indent: no row
 * is wider than the terminal, no word that fits a row is split, every continuation row keeps the hanging
 * indent, every grapheme stays whole and nothing is lost. Seeded: a failure names its seed.
 */
import { describe, expect, it } from 'vitest';
import { layoutLines } from '../../../../src/cli/layout/layout.js';
import { graphemes, plainWidth, stripEscapes, textWidth } from '../../../../src/cli/layout/width.js';

/** mulberry32: a small seeded generator, so a failing case reproduces from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const CJK = '中文字符测试好日本語한국어漢字';
const EMOJI = ['👨‍👩‍👧', '👍🏽', '❤️', '🇫🇷', '✅', '🧑‍💻', '1️⃣'];
const COMBINING = ['é', 'n\u0303', 'a\u0301\u0302', 'o\u0308'];

interface Token {
  text: string;
  /** Whether the rules may break inside it (a run of ideographs). */
  breakable: boolean;
}

function token(next: () => number, index: number): Token {
  const word = (length: number): string => Array.from({ length }, () => pick(next, [...LETTERS])).join('');
  const kind = pick(next, ['word', 'word', 'word', 'cjk', 'emoji', 'combining', 'long', 'url', 'path']);
  // A number makes each word unique, so finding it on a row proves it was not split.
  if (kind === 'word') return { text: `${word(1 + Math.floor(next() * 9))}${index}`, breakable: false };
  if (kind === 'cjk')
    return {
      text: Array.from({ length: 1 + Math.floor(next() * 8) }, () => pick(next, [...CJK])).join(''),
      breakable: true,
    };
  // UAX #14 lets a line break beside an emoji, as beside an ideograph.
  if (kind === 'emoji') return { text: `${pick(next, EMOJI)}${index}`, breakable: true };
  if (kind === 'combining')
    return { text: `${word(2)}${pick(next, COMBINING)}${word(2)}${index}`, breakable: false };
  // One word of accented letters, often wider than a row: cut only between graphemes.
  if (kind === 'long')
    return {
      text: Array.from({ length: 1 + Math.floor(next() * 40) }, () => pick(next, [...COMBINING, 'x'])).join(
        '',
      ),
      breakable: false,
    };
  if (kind === 'url')
    return {
      text: `https://${word(5)}.dev/${word(1 + Math.floor(next() * 30))}?q=${index}`,
      breakable: false,
    };
  return { text: `src/${word(4)}/${word(1 + Math.floor(next() * 12))}-${index}.ts`, breakable: false };
}

/** Splits that cut a grapheme would leave a row starting with its tail. */
const GRAPHEME_TAIL = /^(?:\p{M}|\u200d|\ufe0f|\u20e3|[\u{1F3FB}-\u{1F3FF}])/u;

function check(seed: number, colour: boolean): void {
  const next = random(seed);
  const width = 10 + Math.floor(next() * 191);
  const hanging = ' '.repeat(Math.floor(next() * 5));
  const tokens = Array.from({ length: 1 + Math.floor(next() * 40) }, (_, index) => token(next, index));
  const paint = (text: string): string =>
    colour && next() < 0.3 ? `\u001b[${pick(next, ['1', '2', '36', '33'])}m${text}\u001b[0m` : text;
  const text = tokens.map((item) => paint(item.text)).join(pick(next, [' ', ' ', '  ']));
  const rows = layoutLines(text, { width, indent: '⚠ ', hangingIndent: hanging }).map(stripEscapes);
  const context = `seed ${seed}, width ${width}, hanging ${hanging.length}: ${JSON.stringify(rows)}`;
  rows.forEach((row, index) => {
    expect(textWidth(row), context).toBeLessThanOrEqual(width);
    if (index > 0) expect(row.startsWith(hanging), context).toBe(true);
    const body = index === 0 ? row.slice(2) : row.slice(hanging.length);
    expect(GRAPHEME_TAIL.test(body), context).toBe(false);
    expect(/\u200d$/.test(body), context).toBe(false);
  });
  // Nothing lost or added: the same graphemes, spaces aside.
  const bodies = rows.map((row, index) => (index === 0 ? row.slice(2) : row.slice(hanging.length)));
  const squeeze = (value: string): string[] => graphemes(value.replace(/\s+/g, ''));
  expect(squeeze(bodies.join('')), context).toEqual(squeeze(tokens.map((item) => item.text).join('')));
  // Every word that fits a row is found whole on one row, in order.
  const room = width - Math.max(2, hanging.length);
  let row = 0;
  for (const item of tokens) {
    if (item.breakable || plainWidth(item.text) > room) continue;
    while (row < bodies.length && !(bodies[row] ?? '').split(/\s+/).includes(item.text)) row += 1;
    expect(row < bodies.length, `${item.text} split or lost; ${context}`).toBe(true);
  }
}

describe('layoutLines (property)', () => {
  it('keeps every row within the width and every fitting word whole, at random widths 10–200', () => {
    for (let seed = 1; seed <= 400; seed += 1) check(seed, false);
  });

  it('does the same for coloured text, whose escapes take no columns', () => {
    for (let seed = 1001; seed <= 1200; seed += 1) check(seed, true);
  });
});
