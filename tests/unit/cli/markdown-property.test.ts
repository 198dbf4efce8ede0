/**
 * Property test of the terminal Markdown renderer: random replies mixing emphasis, code, links, tables,
 * lists, quotes and headings (nested, unclosed, and with raw control characters), streamed in random
 * chunks at random widths. Every escape in the output must be one the renderer emits (an SGR sequence),
 * every style must be closed by the end of its line, nothing from the input may survive as a control
 * character, no line outside a code block may be wider than the terminal, and the streamed reply must
 * end exactly as the same reply rendered whole.
 */
import { describe, expect, it } from 'vitest';
import { createMarkdownStream } from '../../../src/cli/markdown.js';
import { displayWidth } from '../../../src/cli/markdown-text.js';

/** mulberry32: a small seeded generator, so a failure names a case that can be replayed. */
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

const INLINE = [
  'word',
  'another',
  'longerwordhere',
  'a',
  '日本語',
  '表',
  'émoji😀',
  '**',
  '*',
  '_',
  '__',
  '~~',
  '`',
  '``',
  '[',
  ']',
  '(',
  ')',
  '](',
  '[link](https://example.com/path)',
  '[**bold link**](http://x.y)',
  '<https://auto.link>',
  'https://bare.example.com/a/very/long/path/that/is/longer/than/some/terminals/are/wide',
  '`code span`',
  '**bold**',
  '*it*',
  '***both***',
  '~~gone~~',
  '<b>',
  '<br>',
  '&amp;',
  '&#27;',
  '&#x9b;',
  '\\*',
  '\u001b',
  '\u001b[31m',
  '\u001b[1m',
  '\u001b]8;;http://evil\u0007',
  '\u001b]0;title\u0007',
  '\u009b2J',
  '\u0007',
  '\b',
  '\r',
  '\u007f',
  '\t',
  '|',
];
const STARTS = [
  '',
  '',
  '',
  '# ',
  '## ',
  '#### ',
  '- ',
  '* ',
  '  - ',
  '    - ',
  '1. ',
  '10) ',
  '> ',
  '> > ',
  '> - ',
  '- [ ] ',
  '- [x] ',
];

function inline(next: () => number, words: number): string {
  const parts: string[] = [];
  for (let index = 0; index < words; index += 1) {
    parts.push(INLINE[Math.floor(next() * INLINE.length)] ?? '');
    parts.push(next() < 0.7 ? ' ' : '');
  }
  return parts.join('');
}

function block(next: () => number): string {
  const kind = next();
  if (kind < 0.12) {
    const columns = 1 + Math.floor(next() * 4);
    const row = (): string =>
      `| ${Array.from({ length: columns }, () => inline(next, 1 + Math.floor(next() * 6))).join(' | ')} |`;
    const rows = Array.from({ length: Math.floor(next() * 4) }, row);
    const delimiter = next() < 0.8 ? `|${'---|'.repeat(columns)}` : '';
    return [row(), delimiter, ...rows].filter((line) => line !== '').join('\n');
  }
  if (kind < 0.2)
    return `\`\`\`${next() < 0.5 ? 'ts' : ''}\n${inline(next, 8)}\n${next() < 0.8 ? '```' : ''}`;
  if (kind < 0.25) return next() < 0.5 ? '---' : '';
  const start = STARTS[Math.floor(next() * STARTS.length)] ?? '';
  return `${start}${inline(next, 1 + Math.floor(next() * 30))}`;
}

// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[([0-9;]*)m/g;
const EMITTED = new Set([1, 2, 3, 4, 9, 22, 23, 24, 29, 32, 33, 35, 36, 39]);

/** The attributes left on at the end of each line, simulating the terminal's SGR state. */
function check(output: string, width: number, source: string): void {
  const context = JSON.stringify(source);
  // Nothing but the renderer's own SGR sequences: no other ESC, no C1 control, no raw C0 but \n and \t.
  const stripped = output.replace(SGR, '');
  // eslint-disable-next-line no-control-regex
  expect(stripped, context).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  let inCode = false;
  for (const line of output.split('\n')) {
    const on = new Set<string>();
    for (const match of line.matchAll(SGR)) {
      const code = Number(match[1]);
      expect(EMITTED.has(code), `${context}: ESC[${match[1] ?? ''}m`).toBe(true);
      if (code === 22) {
        on.delete('bold');
        on.delete('dim');
      } else if (code === 1) on.add('bold');
      else if (code === 2) on.add('dim');
      else if (code === 3) on.add('italic');
      else if (code === 23) on.delete('italic');
      else if (code === 4) on.add('underline');
      else if (code === 24) on.delete('underline');
      else if (code === 9) on.add('strike');
      else if (code === 29) on.delete('strike');
      else if (code === 39) on.delete('colour');
      else on.add('colour');
    }
    expect([...on], `${context}: line ${JSON.stringify(line)}`).toEqual([]);
    const text = line.replace(SGR, '');
    if (text.startsWith('┌─')) inCode = true;
    const codeLine = line.includes('\u001b[2m│\u001b[22m ');
    if (!inCode && !codeLine)
      expect(displayWidth(text), `${context} at ${width}: ${JSON.stringify(text)}`).toBeLessThanOrEqual(
        width,
      );
    if (text.startsWith('└─')) inCode = false;
  }
}

describe('Markdown rendering, property', () => {
  it('emits only well-formed, closed escapes and no control character from the input, at any width', () => {
    for (let seed = 1; seed <= 400; seed += 1) {
      const next = random(seed);
      const source = Array.from({ length: 1 + Math.floor(next() * 8) }, () => block(next)).join(
        next() < 0.5 ? '\n' : '\n\n',
      );
      const width = 30 + Math.floor(next() * 110);
      let output = '';
      const stream = createMarkdownStream((text) => (output += text), { columns: () => width });
      let index = 0;
      while (index < source.length) {
        const size = 1 + Math.floor(next() * 40);
        stream.push(source.slice(index, index + size));
        index += size;
      }
      stream.end();
      check(output, width, `seed ${seed}: ${source}`);
      // Streamed in any chunks, the reply ends exactly as rendered whole: nothing shown was wrong.
      let whole = '';
      const once = createMarkdownStream((text) => (whole += text), { columns: () => width });
      once.push(source);
      once.end();
      expect(output.replace(SGR, ''), `seed ${seed} at ${width}: ${JSON.stringify(source)}`).toBe(
        whole.replace(SGR, ''),
      );
    }
  });
});
