/**
 * The thinking, folded to two rows while it streams: rendered as Markdown, dimmed and italic (issue 29),
 * never with `**` on screen, blank rows left out, the rest counted for `/expand`.
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { createThinkingView } from '../../../src/cli/thinking-view.js';

const E = '\u001b[';
// eslint-disable-next-line no-control-regex
const plain = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');

function think(chunks: string[], level: 0 | 1): string {
  let out = '';
  const view = createThinkingView(
    (text) => (out += text),
    new Chalk({ level }),
    () => 40,
  );
  for (const chunk of chunks) view.push(chunk);
  view.end();
  return out;
}

describe('the thinking, folded', () => {
  const chunks = [
    '**Planning',
    ' the answer**\n\nThe user wants a `diff` of the two files, ',
    'so I will read both first.',
  ];

  it('shows its first two rows as Markdown, dim and italic, with no ** or backticks', () => {
    const out = think(chunks, 1);
    expect(plain(out).split('\n')).toEqual([
      '✻ Planning the answer',
      '  The user wants a diff of the two',
      // The note does not fit after the last row: it is laid out on rows of its own, within the width.
      '  … (33 more characters; /expand shows',
      '  the thinking whole)',
      '',
    ]);
    expect(out).toContain(`${E}2m${E}3m${E}1mPlanning the answer${E}22m${E}23m${E}22m`);
    expect(out).toContain(`${E}2m${E}3m${E}36mdiff${E}39m${E}23m${E}22m`);
  });

  it('lays out the same rows without escapes under NO_COLOR', () => {
    const out = think(chunks, 0);
    expect(out).not.toContain('\u001b');
    expect(out.split('\n')[0]).toBe('✻ Planning the answer');
  });
});
