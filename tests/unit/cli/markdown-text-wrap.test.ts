/** `wrapRuns` (the reply's paragraphs) takes its break decisions from the one layout (issue 29). */
import { describe, expect, it } from 'vitest';
import { plainText, run, STYLES, wrapRuns } from '../../../src/cli/markdown-text.js';

const wrap = (text: string, width: number): string[] =>
  wrapRuns([run(text)], { width, first: [], rest: [] }).map(plainText);

describe('wrapRuns', () => {
  it('never starts a row with the closing punctuation of CJK text (UAX #14)', () => {
    expect(wrap('中文字符，测试。', 8)).toEqual(['中文字', '符，测', '试。']);
  });

  it('keeps a space before `!` with its word, and a URL whole on its own row', () => {
    expect(wrap('aaaa bbbb !', 10)).toEqual(['aaaa', 'bbbb !']);
    expect(wrap('see https://example.com/a/b/c now', 26)).toEqual([
      'see',
      'https://example.com/a/b/c',
      'now',
    ]);
  });

  it('breaks between ideographs across styles, and cuts an over-wide word between graphemes', () => {
    const rows = wrapRuns([run('漢字', STYLES.bold), run('漢字漢字')], { width: 6, first: [], rest: [] });
    expect(rows.map(plainText)).toEqual(['漢字漢', '字漢字']);
    expect(wrap('👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧', 4)).toEqual(['👨‍👩‍👧👨‍👩‍👧', '👨‍👩‍👧']);
  });

  it('writes the same spaces whether a row fits or not: spaces of several runs are one gap', () => {
    // A code span of one space between two spaces, and `)` that no row may start with.
    const runs = [run('xxxxxxxxxx word '), run(' ', STYLES.cyan), run(' ) yy')];
    expect(wrapRuns(runs, { width: 80, first: [], rest: [] }).map(plainText)).toEqual([
      'xxxxxxxxxx word   ) yy',
    ]);
    expect(wrapRuns(runs, { width: 12, first: [], rest: [] }).map(plainText)).toEqual([
      'xxxxxxxxxx',
      'word   ) yy',
    ]);
  });

  it('starts a row after a <br> without the space before a closing bracket', () => {
    const runs = [run('aaaa'), run('\n'), run(' ] bb cc dd ee')];
    expect(wrapRuns(runs, { width: 80, first: [], rest: [] }).map(plainText)).toEqual([
      'aaaa',
      '] bb cc dd ee',
    ]);
    expect(wrapRuns(runs, { width: 8, first: [], rest: [] }).map(plainText)).toEqual([
      'aaaa',
      '] bb cc',
      'dd ee',
    ]);
  });
});
