/**
 * The break rules' fast path (breaks.ts): for random text of the characters it handles (letters, `·`,
 * digits, spaces, `/`, `.`, `,`, `-`), its break offsets equal the `linebreak` library's exactly, and text
 * with any other character gets the library's. Seeded: a failure names its seed and text.
 */
import LineBreaker from 'linebreak';
import { describe, expect, it } from 'vitest';
import { ruleBreaks } from '../../../../src/cli/layout/breaks.js';

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

/** The library's break offsets, the end excluded. */
function libraryBreaks(text: string): number[] {
  const breaker = new LineBreaker(text);
  const positions: number[] = [];
  for (let next = breaker.nextBreak(); next; next = breaker.nextBreak()) {
    if (next.position < text.length) positions.push(next.position);
  }
  return positions;
}

function text(next: () => number, alphabet: string): string {
  const length = Math.floor(next() * 30);
  return Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)] ?? '').join('');
}

describe('ruleBreaks', () => {
  it('equals the library for random text of the fast path characters', () => {
    const alphabet = 'aZ·09/.,-   ';
    for (let seed = 1; seed <= 5000; seed += 1) {
      const sample = text(random(seed), alphabet);
      expect(ruleBreaks(sample), `seed ${seed}: ${JSON.stringify(sample)}`).toEqual(libraryBreaks(sample));
    }
  });

  it('equals the library for text with characters outside the fast path', () => {
    const alphabet = 'a1 /.-(")!?:;中\u00a0';
    for (let seed = 1; seed <= 500; seed += 1) {
      const sample = text(random(seed), alphabet);
      expect(ruleBreaks(sample), `seed ${seed}: ${JSON.stringify(sample)}`).toEqual(libraryBreaks(sample));
    }
  });

  it('breaks the banner between its parts and after a hyphen before a letter', () => {
    expect(ruleBreaks('Cody · openai/gpt-5.4 · x-y')).toEqual([5, 7, 14, 22, 24, 26]);
  });
});
