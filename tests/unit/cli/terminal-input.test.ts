import { describe, expect, it } from 'vitest';
import { createMarkdownStream } from '../../../src/cli/markdown.js';
import { KeyParser } from '../../../src/cli/tty/keys.js';
import { LineEditor } from '../../../src/cli/tty/line-editor.js';

// eslint-disable-next-line no-control-regex
const plain = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');

describe('key parsing', () => {
  it('keeps a bracketed paste whole, even split over chunks', () => {
    const parser = new KeyParser();
    expect(parser.parse('\u001b[200~one\r\ntw')).toEqual([]);
    expect(parser.parse('o\u001b[201~\r')).toEqual([{ name: 'paste', text: 'one\ntwo' }, { name: 'enter' }]);
  });
  it('takes a multi-line chunk without paste brackets as a paste', () => {
    expect(new KeyParser().parse('a\rb\r')).toEqual([{ name: 'paste', text: 'a\nb\n' }]);
  });
  it('knows the newline chords, arrows and control keys', () => {
    const keys = new KeyParser().parse('x\u001b\r\n\u001b[13;2u\u001b[A\u0003\u0012\t\u001b');
    expect(keys.map((key) => key.name)).toEqual([
      'text',
      'newline',
      'newline',
      'newline',
      'up',
      'ctrl-c',
      'ctrl-r',
      'tab',
      'escape',
    ]);
  });
});

describe('line editor', () => {
  const make = (history: string[] = []) => {
    let screen = '';
    const editor = new LineEditor(
      { write: (text) => (screen += text), columns: () => 40 },
      { prompt: '> ', promptWidth: 2, history },
    );
    return { editor, screen: () => screen };
  };
  it('continues a line ending in a backslash, and submits the whole message', () => {
    const { editor } = make();
    editor.handle({ name: 'text', text: 'first \\' });
    expect(editor.handle({ name: 'enter' })).toBeUndefined();
    editor.handle({ name: 'text', text: 'second' });
    expect(editor.handle({ name: 'enter' })).toEqual({ kind: 'submit', text: 'first \nsecond' });
  });
  it('clears on Ctrl-C with text, reports Ctrl-C on an empty prompt', () => {
    const { editor } = make();
    editor.handle({ name: 'text', text: 'abc' });
    expect(editor.handle({ name: 'ctrl-c' })).toBeUndefined();
    expect(editor.buffer).toBe('');
    expect(editor.handle({ name: 'ctrl-c' })).toEqual({ kind: 'ctrl-c-empty' });
  });
  it('recalls history with up/down and finds it with Ctrl-R', () => {
    const { editor } = make(['alpha one', 'beta two']);
    editor.handle({ name: 'up' });
    expect(editor.buffer).toBe('beta two');
    editor.handle({ name: 'up' });
    expect(editor.buffer).toBe('alpha one');
    editor.handle({ name: 'down' });
    editor.handle({ name: 'down' });
    expect(editor.buffer).toBe('');
    editor.handle({ name: 'ctrl-r' });
    editor.handle({ name: 'text', text: 'alp' });
    editor.handle({ name: 'enter' });
    expect(editor.buffer).toBe('alpha one');
  });
  it('completes with Tab from the completer', () => {
    let screen = '';
    const editor = new LineEditor(
      { write: (text) => (screen += text), columns: () => 40 },
      { prompt: '> ', promptWidth: 2, history: [], complete: () => ({ start: 0, options: ['/status'] }) },
    );
    editor.handle({ name: 'text', text: '/st' });
    editor.handle({ name: 'tab' });
    expect(editor.buffer).toBe('/status ');
    expect(screen).toContain('/status');
  });
});

describe('streaming Markdown', () => {
  it('prints each line once as it completes, styled, whatever the chunking', () => {
    const chunks: string[] = [];
    const stream = createMarkdownStream((text) => chunks.push(text));
    const source =
      '# Title\nSome **bold** and `code`.\n- item\n```ts\nconst x = 1;\n```\n| a | b |\n|---|---|\n| 1 | 22 |\ntail';
    for (const character of source) stream.push(character);
    expect(chunks.length).toBeGreaterThan(0);
    const beforeEnd = chunks.length;
    stream.end();
    expect(chunks.length).toBeGreaterThan(beforeEnd);
    const text = plain(chunks.join(''));
    expect(text).toContain('Title\n');
    expect(text).not.toContain('# Title');
    expect(text).toContain('Some bold and code.');
    expect(text).toContain('• item');
    expect(text).toContain('│ const x = 1;');
    expect(text).toMatch(/a {2}│ {2}b \n/);
    expect(text).toMatch(/1 {2}│ {2}22\n/);
    expect(text.endsWith('tail\n')).toBe(true);
    // Nothing was printed twice.
    expect(text.match(/Some bold/g)).toHaveLength(1);
  });
  it('never lets control characters from the model through', () => {
    const chunks: string[] = [];
    const stream = createMarkdownStream((text) => chunks.push(text));
    stream.push('evil \u001b]0;title\u0007 text\n');
    expect(chunks.join('')).not.toContain('\u001b]0;');
    expect(chunks.join('')).toContain('^[]0;title^G');
  });
});
