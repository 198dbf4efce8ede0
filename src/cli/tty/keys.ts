/**
 * Raw terminal input → key events. Handles bracketed paste (kept whole, newlines and all), the escape
 * sequences of arrows/Home/End/Delete, the newline chords terminals send for Shift+Enter / Alt+Enter /
 * Ctrl+J, the kitty keyboard protocol (`CSI code;mods u`) and xterm modifyOtherKeys (`CSI 27;mods;code ~`)
 * encodings of every key, and control keys. A chunk of plain text with a line break inside it (a paste in a terminal
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
        | 'delete-word'
        | 'delete-word-back'
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
        | 'ctrl-w'
        | 'ctrl-z';
    };

const PASTE_START = '\u001b[200~';
const PASTE_END = '\u001b[201~';

const SEQUENCES: ReadonlyArray<[string, Key['name']]> = [
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
  ['\u001bd', 'delete-word'], // Alt-d
  ['\u001b\u007f', 'delete-word-back'], // Alt-Backspace
  ['\u001b\b', 'delete-word-back'],
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
  '\u001a': 'ctrl-z',
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
        const modified = parseModified(rest);
        if (modified) {
          if (modified.key) keys.push(modified.key);
          rest = rest.slice(modified.length);
          continue;
        }
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

const SHIFT = 1;
const ALT = 2;
const CTRL = 4;

/**
 * A key in the kitty keyboard protocol (`CSI code[:alternates];mods[:event] u`) or xterm modifyOtherKeys
 * (`CSI 27;mods;code ~`) encoding; `key` is undefined for one Cody has no use for (it is swallowed).
 */
function parseModified(text: string): { key: Key | undefined; length: number } | undefined {
  // eslint-disable-next-line no-control-regex
  const kitty = /^\u001b\[(\d+)(?::\d*)*(?:;(\d+)(?::\d+)?)?u/.exec(text);
  // eslint-disable-next-line no-control-regex
  const xterm = kitty ? undefined : /^\u001b\[27;(\d+);(\d+)~/.exec(text);
  const match = kitty ?? xterm;
  if (!match) return undefined;
  const code = Number(kitty ? match[1] : match[2]);
  const mods = Math.max(0, Number((kitty ? match[2] : match[1]) ?? '1') - 1);
  return { key: modifiedKey(code, mods), length: match[0].length };
}

function modifiedKey(code: number, mods: number): Key | undefined {
  const shift = (mods & SHIFT) !== 0;
  const alt = (mods & ALT) !== 0;
  const ctrl = (mods & CTRL) !== 0;
  if (code === 13) return { name: shift || alt || ctrl ? 'newline' : 'enter' };
  if (code === 27) return { name: 'escape' };
  if (code === 9) return { name: 'tab' };
  if (code === 127 || code === 8) return { name: alt || ctrl ? 'delete-word-back' : 'backspace' };
  const char = String.fromCodePoint(code).toLowerCase();
  if (ctrl && !alt && /^[a-z]$/.test(char)) {
    const control = CONTROL[String.fromCharCode(char.charCodeAt(0) - 96)];
    return control ? ({ name: control } as Key) : undefined;
  }
  if (alt && !ctrl) {
    if (char === 'f') return { name: 'word-right' };
    if (char === 'b') return { name: 'word-left' };
    if (char === 'd') return { name: 'delete-word' };
    return undefined;
  }
  if (!ctrl && code >= 32 && code !== 127) return { name: 'text', text: String.fromCodePoint(code) };
  return undefined;
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
