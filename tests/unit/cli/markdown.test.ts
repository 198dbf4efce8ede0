/**
 * The terminal Markdown renderer: exact styled output for representative replies at 60 and 120 columns,
 * word wrap with indentation kept, tables measured on displayed width and fitted, code left unwrapped.
 */
import { describe, expect, it } from 'vitest';
import { createMarkdownStream } from '../../../src/cli/markdown.js';
import { displayWidth } from '../../../src/cli/markdown-text.js';

const E = '\u001b[';
// eslint-disable-next-line no-control-regex
const plain = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');

function render(source: string, columns: number, chunk = 7): string {
  let out = '';
  const stream = createMarkdownStream((text) => (out += text), { columns: () => columns });
  for (let index = 0; index < source.length; index += chunk) stream.push(source.slice(index, index + chunk));
  stream.end();
  return out;
}

describe('Markdown rendering', () => {
  it('styles bold and a link on one line with well-formed escapes (the injection in issue 21)', () => {
    const out = render(
      'Some intro with **bold**, some *italic* and `code`, plus a [link](https://example.com).\n',
      120,
    );
    expect(out).toBe(
      `Some intro with ${E}1mbold${E}22m, some ${E}3mitalic${E}23m and ${E}36mcode${E}39m, plus a link ` +
        `(${E}4mhttps://example.com${E}24m).\n`,
    );
  });

  it('renders headings, nested lists and quotes exactly at 120 columns', () => {
    const out = render('# Title\n### Small\n- one\n  - two\n3. three\n> quoted **b**\n---\n', 120);
    expect(out).toBe(
      [
        `${E}1m${E}36mTitle${E}39m${E}22m`,
        `${E}2m━━━━━${E}22m`,
        `${E}1mSmall${E}22m`,
        `${E}36m•${E}39m one`,
        `  ${E}36m•${E}39m two`,
        `${E}36m3.${E}39m three`,
        `${E}2m│ ${E}22m${E}3mquoted ${E}23m${E}3m${E}1mb${E}22m${E}23m`,
        `${E}2m${'─'.repeat(40)}${E}22m`,
        '',
      ].join('\n'),
    );
  });

  it('wraps a list item at 60 columns on word boundaries, continuation lines indented under the text', () => {
    const source =
      '- This list item is long enough that it has to **wrap nicely** at sixty columns and keep its indent.\n';
    const lines = plain(render(source, 60)).split('\n');
    expect(lines).toEqual([
      '• This list item is long enough that it has to wrap nicely',
      '  at sixty columns and keep its indent.',
      '',
    ]);
    // At 120 columns the same item is one line.
    expect(plain(render(source, 120))).toBe(
      '• This list item is long enough that it has to wrap nicely at sixty columns and keep its indent.\n',
    );
  });

  it('keeps the bar of a quote and the indent of a nested or numbered item on every line', () => {
    const out = plain(
      render(
        '> A quote that is long enough to wrap on the next line, and keeps its bar.\n' +
          '  - a nested item that also goes on long enough that it wraps onto a second line\n' +
          '10. numbered item with enough words in it to wrap around the sixty column edge\n',
        60,
      ),
    );
    expect(out.split('\n')).toEqual([
      '│ A quote that is long enough to wrap on the next line, and',
      '│ keeps its bar.',
      '  • a nested item that also goes on long enough that it',
      '    wraps onto a second line',
      '10. numbered item with enough words in it to wrap around the',
      '    sixty column edge',
      '',
    ]);
  });

  it('wraps a long code line with its bar and indentation on every row, and dims a comment after code', () => {
    const long = `  const message = "${'x'.repeat(30)}" + other; // stays dim`;
    const out = render(`\`\`\`ts\n${long}\n# a whole-line comment\nx = 1  # after code\n\`\`\`\n`, 40);
    expect(out).toBe(
      `${E}2m┌─ ts${E}22m\n` +
        `${E}2m│${E}22m   ${E}35mconst${E}39m message =\n` +
        `${E}2m│${E}22m   ${E}32m"${'x'.repeat(30)}"${E}39m +\n` +
        `${E}2m│${E}22m   other; ${E}2m// stays dim${E}22m\n` +
        `${E}2m│${E}22m ${E}2m# a whole-line comment${E}22m\n` +
        `${E}2m│${E}22m x = ${E}33m1${E}39m  ${E}2m# after code${E}22m\n` +
        `${E}2m└─${E}22m\n`,
    );
    // A `#` that starts no comment (a colour, a URL's fragment) and `//` in a string stay as they are.
    expect(plain(render('```css\na { color: #fff; } b = "http://x//y"\n```\n', 80))).toContain(
      '│ a { color: #fff; } b = "http://x//y"',
    );
  });

  it('styles # and ## headings differently: # has a rule under it, ## is not bold only', () => {
    const out = render('# Top\n## Section\n### Small\n', 80);
    expect(out).toBe(
      `${E}1m${E}36mTop${E}39m${E}22m\n${E}2m━━━${E}22m\n${E}1m${E}36mSection${E}39m${E}22m\n${E}1mSmall${E}22m\n`,
    );
    expect(plain(render('# Top\n## Section\n', 80))).toBe('Top\n━━━\nSection\n');
  });

  it('measures table columns on what is shown, not on ** or backticks, and counts wide characters as 2', () => {
    const out = render('| **Name** | `id` |\n|---|---|\n| 日本語 | **x** |\n| ab | `long-id` |\n', 120);
    expect(plain(out).split('\n')).toEqual([
      'Name    │  id     ',
      '────────┼─────────',
      '日本語  │  x      ',
      'ab      │  long-id',
      '',
    ]);
    expect(out).toContain(`${E}1m${E}36mid${E}39m${E}22m`);
    expect(out).toContain(`${E}1mx${E}22m`);
  });

  it('fits a wide table into 60 columns by wrapping inside its cells', () => {
    const source =
      '| Option | Meaning | Default |\n|---|---|---|\n' +
      '| `--approval` | how tool calls are approved before they run on your machine | ask |\n' +
      '| `--model` | the model for this one conversation only | from config.json |\n';
    const lines = plain(render(source, 60)).trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(4);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(60);
    // The column separators line up on every row.
    const bars = lines.filter((line) => line.includes('│')).map((line) => line.indexOf('│'));
    expect(new Set(bars).size).toBe(1);
    expect(lines.join(' ')).toContain('how tool calls are approved');
    expect(lines.join('\n')).not.toMatch(/appro\n/);
  });

  it('falls back to a list when the columns cannot fit', () => {
    const source =
      '| Alpha | Bravo | Charlie | Delta |\n|---|---|---|---|\n' +
      '| extraordinarily | incomprehensibilities | counterrevolutionaries | x |\n';
    const out = render(source, 40);
    expect(plain(out).split('\n')).toEqual([
      '• Alpha: extraordinarily',
      '  Bravo: incomprehensibilities',
      '  Charlie: counterrevolutionaries',
      '  Delta: x',
      '',
    ]);
    expect(out).toContain(`${E}1mAlpha${E}22m`);
  });

  it('shows control characters from the model as text, including ones written as entities', () => {
    const out = render('evil \u001b[31m red \u001b]0;t\u0007 **b** &#27;[2J &amp;\n', 80);
    expect(out).toBe(`evil ^[[31m red ^[]0;t^G ${E}1mb${E}22m ^[[2J &\n`);
  });

  it('asks for the width on each line, so a resize applies to what follows', () => {
    let columns = 120;
    let out = '';
    const stream = createMarkdownStream((text) => (out += text), { columns: () => columns });
    const line = 'one two three four five six seven eight nine ten eleven twelve\n';
    stream.push(line);
    columns = 30;
    stream.push(line);
    stream.end();
    expect(plain(out).split('\n')).toEqual([
      'one two three four five six seven eight nine ten eleven twelve',
      'one two three four five six',
      'seven eight nine ten eleven',
      'twelve',
      '',
    ]);
  });
});

describe('a paragraph over several lines, as it streams', () => {
  it('styles emphasis opened on one line and closed on the next, on both, printing each line once', () => {
    let out = '';
    const stream = createMarkdownStream((text) => (out += text), { columns: () => 60 });
    stream.push('**bold\n');
    // Held back: until its closer comes, `**` could as well be text.
    expect(out).toBe('');
    stream.push('continued** after\n');
    stream.end();
    expect(out).toBe(`${E}1mbold${E}22m\n${E}1mcontinued${E}22m after\n`);
    expect(render('**bold\ncontinued** after\n', 60)).toBe(out);
  });

  it('carries italics, bold italics and code spans across lines; keeps lone asterisks and underscores', () => {
    expect(render('Some *italic\nstill* and `code\nspan` done\n', 60)).toBe(
      `Some ${E}3mitalic${E}23m\n${E}3mstill${E}23m and ${E}36mcode${E}39m\n${E}36mspan${E}39m done\n`,
    );
    expect(render('***both\nends***\n', 60)).toBe(
      `${E}3m${E}1mboth${E}22m${E}23m\n${E}3m${E}1mends${E}22m${E}23m\n`,
    );
    expect(render('2 * 3 = 6 and 4*5\nsnake_case_name here\n', 60)).toBe(
      '2 * 3 = 6 and 4*5\nsnake_case_name here\n',
    );
  });

  it('does not carry anything over a blank line, a list item or a heading', () => {
    // Never closed: the delimiters were text all along, as a whole-reply render says.
    expect(plain(render('**a\n\nb**\n', 60))).toBe('**a\n\nb**\n');
    expect(plain(render('- item **a\n- b**\n', 60))).toBe('• item **a\n• b**\n');
    expect(plain(render('text *a\n## Title*\n', 60))).toBe('text *a\nTitle*\n');
  });

  it('wraps each line of the paragraph on its own and keeps its indent', () => {
    const out = plain(render(`  ${'word '.repeat(14)}**bold\n  tail** end\n`, 40));
    expect(out.split('\n').every((line) => displayWidth(line) <= 40)).toBe(true);
    expect(out).toContain('  bold\n  tail end');
    expect(out).not.toContain('**');
  });

  it('renders a paragraph of hundreds of lines line by line', () => {
    const lines = Array.from({ length: 400 }, (_, index) => `line ${index} with *some* text`);
    const out = plain(render(`${lines.join('\n')}\n`, 80, 64));
    expect(out).toBe(`${lines.map((line) => line.replace(/\*/g, '')).join('\n')}\n`);
  });
});
