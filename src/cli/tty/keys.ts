/**
 * Raw terminal input → key events. Handles bracketed paste (kept whole, newlines and all), the escape
 * sequences of arrows/Home/End/Delete, the newline chords terminals send for Shift+Enter / Alt+Enter /
 * Ctrl+J, and control keys. A chunk of plain text with a line break inside it (a paste in a terminal
 * without bracketed paste) is taken as a paste too, so a multi-line paste never sends its first line alone.
 */
export type Key =
  | { name: 'text'; text: string }
  | { name: 'paste'; text: string }
  | {
      name:
        | 'enter'
        | 'newline'
        | 'backspace'
        | 'delete'
        | 'left'
        | 'right'
        | 'up'
        | 'down'
        | 'home'
        | 'end'
        | 'word-left'
        | 'word-right'
        | 'tab'
        | 'escape'
        | 'ctrl-a'
        | 'ctrl-c'
        | 'ctrl-d'
        | 'ctrl-e'
        | 'ctrl-g'
        | 'ctrl-k'
        | 'ctrl-l'
        | 'ctrl-r'
        | 'ctrl-u'
        | 'ctrl-w';
    };

const PASTE_START = '\u001b[200~';
const PASTE_END = '\u001b[201~';

const SEQUENCES: ReadonlyArray<[string, Key['name']]> = [
  ['\u001b[13;2u', 'newline'], // Shift+Enter (CSI-u / kitty keyboard protocol)
  ['\u001b[27;2;13~', 'newline'], // Shift+Enter (xterm modifyOtherKeys)
  ['\u001b\r', 'newline'], // Alt+Enter
  ['\u001b[A', 'up'],
  ['\u001b[B', 'down'],
  ['\u001b[C', 'right'],
  ['\u001b[D', 'left'],
  ['\u001bOA', 'up'],
  ['\u001bOB', 'down'],
  ['\u001bOC', 'right'],
  ['\u001bOD', 'left'],
  ['\u001b[1;5C', 'word-right'],
  ['\u001b[1;5D', 'word-left'],
  ['\u001bf', 'word-right'],
  ['\u001bb', 'word-left'],
  ['\u001b[H', 'home'],
  ['\u001b[F', 'end'],
  ['\u001bOH', 'home'],
  ['\u001bOF', 'end'],
  ['\u001b[1~', 'home'],
  ['\u001b[4~', 'end'],
  ['\u001b[7~', 'home'],
  ['\u001b[8~', 'end'],
  ['\u001b[3~', 'delete'],
];

const CONTROL: Record<string, Key['name']> = {
  '\r': 'enter',
  '\n': 'newline',
  '\t': 'tab',
  '\u007f': 'backspace',
  '\b': 'backspace',
  '\u0001': 'ctrl-a',
  '\u0003': 'ctrl-c',
  '\u0004': 'ctrl-d',
  '\u0005': 'ctrl-e',
  '\u0007': 'ctrl-g',
  '\u000b': 'ctrl-k',
  '\u000c': 'ctrl-l',
  '\u0012': 'ctrl-r',
  '\u0015': 'ctrl-u',
  '\u0017': 'ctrl-w',
};

/** A stateful parser: a paste may arrive split over several chunks. */
export class KeyParser {
  private pasting: string | undefined;

  parse(chunk: string): Key[] {
    const keys: Key[] = [];
    let rest = chunk;
    if (this.pasting === undefined && looksLikeUnbracketedPaste(rest)) {
      return [{ name: 'paste', text: normalizeNewlines(rest) }];
    }
    while (rest !== '') {
      if (this.pasting !== undefined) {
        const end = rest.indexOf(PASTE_END);
        if (end < 0) {
          this.pasting += rest;
          return keys;
        }
        keys.push({ name: 'paste', text: normalizeNewlines(this.pasting + rest.slice(0, end)) });
        this.pasting = undefined;
        rest = rest.slice(end + PASTE_END.length);
        continue;
      }
      if (rest.startsWith(PASTE_START)) {
        this.pasting = '';
        rest = rest.slice(PASTE_START.length);
        continue;
      }
      if (rest.startsWith('\u001b')) {
        const known = SEQUENCES.find(([sequence]) => rest.startsWith(sequence));
        if (known) {
          keys.push({ name: known[1] } as Key);
          rest = rest.slice(known[0].length);
          continue;
        }
        // An unknown CSI/SS3 sequence is swallowed whole; a lone ESC is the Escape key.
        // eslint-disable-next-line no-control-regex
        const unknown = /^\u001b(?:\[[0-9;?]*[ -/]*[@-~]|O.)/.exec(rest);
        if (unknown) {
          rest = rest.slice(unknown[0].length);
          continue;
        }
        keys.push({ name: 'escape' });
        rest = rest.slice(1);
        continue;
      }
      const first = rest[0] ?? '';
      const control = CONTROL[first];
      if (control) {
        keys.push({ name: control } as Key);
        rest = rest.slice(1);
        continue;
      }
      // eslint-disable-next-line no-control-regex
      const text = /^[^\u0000-\u001f\u007f]+/.exec(rest);
      if (text) {
        keys.push({ name: 'text', text: text[0] });
        rest = rest.slice(text[0].length);
        continue;
      }
      rest = rest.slice(1); // other control characters are ignored
    }
    return keys;
  }
}

/** Several characters with a line break before the last one and no escape sequence: a pasted block. */
function looksLikeUnbracketedPaste(chunk: string): boolean {
  if (chunk.length < 3 || chunk.includes('\u001b')) return false;
  const body = chunk.replace(/\r$/, '');
  return /[\r\n]/.test(body) && /[^\r\n]/.test(body);
}

function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}
