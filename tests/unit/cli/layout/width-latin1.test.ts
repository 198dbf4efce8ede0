/** graphemes' fast path: printable Latin-1 splits as Intl.Segmenter splits it, one grapheme a character. */
import { describe, expect, it } from 'vitest';
import { graphemes } from '../../../../src/cli/layout/width.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const LATIN1 = Array.from({ length: 0x100 }, (_, code) => String.fromCharCode(code)).filter((char) =>
  /[\x20-\x7e\xa0-\xff]/.test(char),
);

describe('graphemes (Latin-1)', () => {
  it('equals the segmenter for every pair of printable Latin-1 characters', () => {
    // Each character next to every other one, on both sides: a boundary depends only on its two neighbours here.
    for (const first of LATIN1) {
      const text = LATIN1.map((other) => `${first}${other}`).join('');
      const expected = Array.from(segmenter.segment(text), (part) => part.segment);
      expect(graphemes(text), JSON.stringify(first)).toEqual(expected);
    }
  });

  it('keeps a combining mark after a Latin-1 letter with it', () => {
    expect(graphemes('·e\u0301')).toEqual(['·', 'e\u0301']);
  });
});
