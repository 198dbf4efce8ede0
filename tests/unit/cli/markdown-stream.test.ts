/**
 * The block still streaming (issue 29): replies fed to the terminal view (the REPL's) one character at a
 * time (every split point), at 40, 80 and 120 columns, with colour and without (NO_COLOR). At every moment the screen holds no Markdown syntax, no row is ever rewritten (the
 * output only grows: no carriage return, no cursor movement), the last row ends on a whole word, and
 * what was shown is exactly the start of the finished render (cell for cell, styles included), which is
 * the render of the whole reply at once.
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { createMarkdownStream } from '../../../src/cli/markdown.js';
import { displayWidth } from '../../../src/cli/markdown-text.js';
import { createTerminalView } from '../../../src/cli/turn-view/terminal-view.js';

// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[([0-9;]*)m/g;

/** The screen as rows of cells: each character with the attributes on when it was written. */
function cells(output: string): string[][] {
  const rows: string[][] = [[]];
  const on = new Set<string>();
  let at = 0;
  for (const match of output.matchAll(SGR)) {
    for (const character of output.slice(at, match.index)) {
      if (character === '\n') rows.push([]);
      else rows.at(-1)?.push(`${character}${[...on].sort().join(',')}`);
    }
    const code = match[1] ?? '';
    if (['22', '23', '24', '29', '39'].includes(code)) {
      for (const style of [...on]) if (OFF[style] === code) on.delete(style);
    } else on.add(code);
    at = match.index + match[0].length;
  }
  for (const character of output.slice(at)) {
    if (character === '\n') rows.push([]);
    else rows.at(-1)?.push(`${character}${[...on].sort().join(',')}`);
  }
  return rows;
}
const OFF: Record<string, string> = { '1': '22', '2': '22', '3': '23', '4': '24', '9': '29' };
for (const colour of ['32', '33', '35', '36']) OFF[colour] = '39';

const plain = (text: string): string => text.replace(SGR, '');

/** What the REPL's view writes of the reply (stdout), after each character, and at the end. */
function frames(source: string, width: number, level = 1): { frames: string[]; final: string } {
  let out = '';
  const view = createTerminalView({
    terminal: { write: () => undefined, columns: () => width, rows: () => 40 },
    stdout: { write: (text: string) => (out += text) },
    color: new Chalk({ level: level as 0 | 1 }),
    markdown: true,
    echo: { hide: () => undefined, show: () => undefined, pause: () => undefined },
    ask: () => Promise.resolve({ decision: 'abort' }),
  });
  const seen: string[] = [];
  for (const character of source) {
    view.text(character);
    seen.push(out);
  }
  view.close();
  return { frames: seen, final: out };
}

function whole(source: string, width: number): string {
  let out = '';
  const stream = createMarkdownStream((text) => (out += text), { columns: () => width });
  stream.push(source);
  stream.end();
  return out;
}

const REPLIES = [
  'Here is **bold text that spans quite a few words** and then a [link to the docs](https://example.com/docs) ' +
    'and `inline code`, all on one line that keeps going well past the edge of the terminal.\n\nNext.\n',
  'A paragraph with **bold\ntext over two lines** and _italic_ and ~~struck~~ words, then more words after it.\n',
  '# Title of the reply\n\n## A section with **bold**\n\n- first item with `code` in it\n- second *item* with ' +
    'enough words to wrap at forty columns\n\n> quoted **text** here\n',
  '```ts\nconst x = 1; // a comment after code\nconst long = "' +
    'y'.repeat(70) +
    '"; // long\n```\nAfter the code.\n',
  'Ends without a newline and **bold at the end**',
];

describe('the block still streaming', () => {
  for (const width of [40, 80, 120]) {
    it(`never shows Markdown syntax and never moves what is on screen, at ${width} columns`, () => {
      for (const source of REPLIES) {
        const { frames: seen, final } = frames(source, width);
        const context = `${JSON.stringify(source)} at ${width}`;
        // Fed a character at a time, the reply renders exactly as when it comes whole.
        expect(cells(final), context).toEqual(cells(whole(source, width)));
        expect(plain(final), context).not.toMatch(/\*\*|`|\]\(|^#|~~|_italic/m);
        const done = cells(final);
        for (const frame of seen) {
          // Only ever appended to: no carriage return, no escape but colours.
          expect(frame.replace(SGR, ''), context).not.toMatch(/[\r\u001b]/); // eslint-disable-line no-control-regex
          const rows = cells(frame);
          rows.forEach((row, index) => {
            const last = index === rows.length - 1;
            const target = done[index] ?? [];
            if (!last)
              expect(row, `${context}: row ${index} of ${JSON.stringify(plain(frame))}`).toEqual(target);
            else {
              expect(target.slice(0, row.length), `${context}: ${JSON.stringify(plain(frame))}`).toEqual(row);
              // The row so far ends on a whole word: the next character, if any, is a space.
              const next = target[row.length];
              if (next !== undefined && row.length > 0) expect(next[0], context).toBe(' ');
            }
          });
        }
      }
    });
  }

  it('renders the same rows without any escape under NO_COLOR', () => {
    for (const source of REPLIES) {
      const { frames: seen, final } = frames(source, 40, 0);
      expect(final).toBe(plain(whole(source, 40)));
      // eslint-disable-next-line no-control-regex
      for (const frame of seen) expect(frame).not.toMatch(/\u001b|\*\*|`|\]\(/);
    }
  });

  it('shows a line as its words arrive, holding back only the word being typed and an unclosed span', () => {
    let out = '';
    const stream = createMarkdownStream((text) => (out += text), { columns: () => 80 });
    stream.push('Here is **bold text that spans');
    expect(plain(out)).toBe('Here is');
    stream.push(' quite a few words** and then a [li');
    expect(plain(out)).toBe('Here is bold text that spans quite a few words and then a');
    stream.push('nk](https://x.y) done.\n');
    stream.end();
    expect(plain(out)).toBe(
      'Here is bold text that spans quite a few words and then a link (https://x.y)\ndone.\n',
    );
  });

  it('holds back a word the next one may stick to (`( word`, `word )`), so no row has to move', () => {
    // The Unicode rules break at no space after `(` nor before `)`: `cccc (` fits row 1 of 16 columns
    // alone, but `( dddd` does not; `cccc dd` fills 17 columns, `dd )` does not.
    for (const [source, width] of [
      ['aaaa bbbb cccc ( dddd eeee\n', 16],
      ['aaaa bbbb cccc dd ) eeee\n', 17],
      ['- aaaa bbbb cccc ( dddd eeee\n', 18],
    ] as const) {
      let out = '';
      const stream = createMarkdownStream((text) => (out += text), { columns: () => width });
      for (const character of source) stream.push(character);
      stream.end();
      expect(plain(out), source).toBe(plain(whole(source, width)));
    }
    let out = '';
    const stream = createMarkdownStream((text) => (out += text), { columns: () => 80 });
    stream.push('one two )');
    // `two )` may still be moved to the next row whole: `two` waits until a word follows `)`.
    expect(plain(out)).toBe('one');
    stream.push(' th');
    expect(plain(out)).toBe('one two )');
  });

  it('wraps the open line on words at 80 columns instead of letting the terminal cut a word', () => {
    let out = '';
    const stream = createMarkdownStream((text) => (out += text), { columns: () => 80 });
    stream.push(`It keeps going ${'and going '.repeat(8)}until the paragraph ends, then it reflo`);
    const rows = plain(out).split('\n');
    expect(rows).toEqual([
      'It keeps going and going and going and going and going and going and going and',
      'going and going until the paragraph ends, then it',
    ]);
    for (const row of rows) expect(displayWidth(row)).toBeLessThanOrEqual(80);
  });

  it('renders emphasis across two lines as bold on both, holding the first until the closer comes', () => {
    let out = '';
    const stream = createMarkdownStream((text) => (out += text), { columns: () => 60 });
    stream.push('**bold\n');
    expect(out).toBe('');
    stream.push('text** after\n');
    stream.end();
    expect(out).toBe('\u001b[1mbold\u001b[22m\n\u001b[1mtext\u001b[22m after\n');
  });
});
