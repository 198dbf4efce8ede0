/**
 * The REPL's keys under the kitty keyboard protocol and xterm modifyOtherKeys, long pastes collapsed in
 * the prompt, Alt-d, the one-row Ctrl-R preview, and the terminal modes entered and left.
 */
import { describe, expect, it } from 'vitest';
import { KeyParser } from '../../../src/cli/tty/keys.js';
import { LineEditor } from '../../../src/cli/tty/line-editor.js';
import { ENTER_MODES, LEAVE_MODES, RawTerminal } from '../../../src/cli/tty/terminal.js';

const names = (input: string): string[] => new KeyParser().parse(input).map((key) => key.name);

describe('keys under the kitty protocol and modifyOtherKeys', () => {
  it('tells Shift+Enter from Enter in both encodings', () => {
    expect(names('\u001b[13;2u')).toEqual(['newline']);
    expect(names('\u001b[27;2;13~')).toEqual(['newline']);
    expect(names('\u001b[13u')).toEqual(['enter']);
    expect(names('\u001b[13;3u\u001b[27;5;13~')).toEqual(['newline', 'newline']);
    // Alt+Enter and Ctrl+J as terminals without either mode send them.
    expect(names('\u001b\r')).toEqual(['newline']);
    expect(names('\n')).toEqual(['newline']);
  });
  it('reads Ctrl and Alt letters, Escape and Backspace in both encodings', () => {
    expect(names('\u001b[99;5u\u001b[27;5;99~')).toEqual(['ctrl-c', 'ctrl-c']);
    expect(names('\u001b[114;5u\u001b[106;5u\u001b[122;5u')).toEqual(['ctrl-r', 'newline', 'ctrl-z']);
    expect(names('\u001b[100;3u\u001b[27;3;100~\u001bd')).toEqual([
      'delete-word',
      'delete-word',
      'delete-word',
    ]);
    expect(names('\u001b[102;3u\u001b[98;3u')).toEqual(['word-right', 'word-left']);
    expect(names('\u001b[27u\u001b[127u\u001b[127;3u')).toEqual(['escape', 'backspace', 'delete-word-back']);
    // Shifted printable keys under modifyOtherKeys are text; kitty's event-type suffix is understood.
    expect(new KeyParser().parse('\u001b[27;2;65~\u001b[97;1:1u')).toEqual([
      { name: 'text', text: 'A' },
      { name: 'text', text: 'a' },
    ]);
  });
});

describe('line editor keys', () => {
  const make = (history: string[] = [], columns = 60) => {
    let screen = '';
    const editor = new LineEditor(
      { write: (text) => (screen += text), columns: () => columns },
      { prompt: '> ', promptWidth: 2, history },
    );
    return { editor, screen: () => screen, reset: () => (screen = '') };
  };
  it('deletes the next word with Alt-d', () => {
    const { editor } = make();
    editor.handle({ name: 'text', text: 'keep drop this' });
    editor.handle({ name: 'home' });
    editor.handle({ name: 'word-right' });
    editor.handle({ name: 'delete-word' });
    expect(editor.buffer).toBe('keep this');
  });
  it('shows a long paste as one placeholder, sends it whole, and deletes it with one Backspace', () => {
    const { editor, screen } = make();
    const paste = Array.from({ length: 30 }, (_, index) => `line ${index + 1}`).join('\n');
    editor.handle({ name: 'text', text: 'see ' });
    editor.handle({ name: 'paste', text: paste });
    expect(editor.buffer).toBe('see [Pasted text #1 +30 lines]');
    expect(screen()).not.toContain('line 2');
    expect(editor.expanded()).toBe(`see ${paste}`);
    editor.handle({ name: 'paste', text: 'short\npaste' });
    expect(editor.buffer).toBe('see [Pasted text #1 +30 lines]short\npaste');
    for (let index = 0; index < 'short\npaste'.length; index += 1) editor.handle({ name: 'backspace' });
    editor.handle({ name: 'backspace' });
    expect(editor.buffer).toBe('see ');
    editor.handle({ name: 'paste', text: paste });
    expect(editor.handle({ name: 'enter' })).toEqual({ kind: 'submit', text: `see ${paste}` });
  });
  it('previews a 30-line history entry on one row with how many lines follow', () => {
    const entry = Array.from({ length: 30 }, (_, index) => `entry line ${index + 1}`).join('\n');
    const { editor, screen, reset } = make([entry]);
    editor.handle({ name: 'ctrl-r' });
    reset();
    editor.handle({ name: 'text', text: 'entry' });
    const drawn = screen();
    expect(drawn).toContain('entry line 1');
    expect(drawn).toContain('+29 lines');
    expect(drawn).not.toContain('entry line 2');
    // eslint-disable-next-line no-control-regex
    const visible = drawn.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '').replace(/\r/g, '');
    expect(visible.length).toBeLessThan(60);
  });
});

describe('terminal modes', () => {
  it('enters the kitty protocol and modifyOtherKeys on start and leaves them on stop', () => {
    let written = '';
    const listeners: Array<(chunk: string) => void> = [];
    const terminal = new RawTerminal(
      {
        on: (_event, listener) => listeners.push(listener),
        removeListener: () => undefined,
        resume: () => undefined,
        pause: () => undefined,
      },
      { write: (text) => (written += text) },
    );
    terminal.start();
    expect(written).toContain('\u001b[>1u');
    expect(written).toContain('\u001b[>4;2m');
    expect(written).toBe(ENTER_MODES);
    written = '';
    terminal.stop();
    expect(written).toContain('\u001b[<u');
    expect(written).toContain('\u001b[>4;0m');
    expect(written).toBe(LEAVE_MODES);
  });
});
