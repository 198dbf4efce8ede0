/**
 * A multi-line prompt editor on a raw terminal: editing keys, history (↑/↓ and Ctrl-R search), Tab
 * completion, bracketed paste kept whole, a trailing `\` or Shift+Enter / Alt+Enter / Ctrl+J for a new
 * line. It draws only its own lines (below whatever is on screen) and redraws them in place.
 */
import type { Key } from './keys.js';
import { completionRows } from './completion-list.js';
import { PasteStore } from './pastes.js';
import { fitToWidth } from '../status-line/status-text.js';

export interface EditorIo {
  write(text: string): void;
  columns(): number;
}

export interface Completion {
  /** Replace `[start, cursor)` with one of these. */
  start: number;
  options: string[];
  /** What an option is, shown under the input once Tab completed it (a command's description). */
  descriptions?: Readonly<Record<string, string>>;
}

export interface EditorOptions {
  prompt: string;
  /** Its visible width (the prompt may carry colour codes). */
  promptWidth: number;
  history: readonly string[];
  complete?: (buffer: string, cursor: number) => Completion | undefined;
  /** Shown dim on a line under the input (e.g. "Press Ctrl-C again to exit"). */
  hint?: string;
  /** The status line, last under the input while the prompt waits (SGR colours kept; plain text dim). */
  footer?: string;
}

export type EditorResult = { kind: 'submit'; text: string } | { kind: 'ctrl-c-empty' } | { kind: 'eof' };

export class LineEditor {
  buffer = '';
  cursor = 0;
  private readonly options: EditorOptions;
  private readonly io: EditorIo;
  private historyIndex: number;
  private draft = '';
  private search: { query: string; match: number } | undefined;
  private hint: string | undefined;
  private footer: string | undefined;
  private drawnCursorRow = 0;
  /** The matches a Tab listed, shown under the input until the next key. */
  private listing: readonly string[] | undefined;
  private readonly pastes = new PasteStore();

  constructor(io: EditorIo, options: EditorOptions, initial = '') {
    this.io = io;
    this.options = options;
    this.historyIndex = options.history.length;
    this.hint = options.hint;
    this.footer = options.footer;
    this.buffer = initial;
    this.cursor = initial.length;
  }

  /** The buffer with long pastes expanded: what would be sent. */
  expanded(): string {
    return this.pastes.expand(this.buffer);
  }

  setHint(hint: string | undefined): void {
    this.hint = hint;
    this.render();
  }

  /** Replaces the status line under the input (undefined: none) and redraws. */
  setFooter(footer: string | undefined): void {
    this.footer = footer;
    this.render();
  }

  /** Feeds one key; returns a result when the prompt is done. */
  handle(key: Key): EditorResult | undefined {
    this.listing = undefined;
    if (this.search) return this.handleSearch(key);
    if (key.name !== 'ctrl-c') this.hint = undefined;
    const done = this.editKey(key);
    if (done) return done;
    this.otherKey(key);
    this.render();
    return undefined;
  }

  /** A key that changes the text (or ends the prompt: enter, Ctrl-D on an empty prompt, Ctrl-C on one). */
  private editKey(key: Key): EditorResult | undefined {
    switch (key.name) {
      case 'text':
        this.insert(key.text);
        break;
      case 'paste':
        this.insert(this.pastes.placeholderFor(key.text));
        break;
      case 'newline':
        this.insert('\n');
        break;
      case 'enter':
        if (this.buffer.slice(0, this.cursor).endsWith('\\') && this.cursor === this.buffer.length) {
          // A trailing backslash continues the message on a new line.
          this.buffer = `${this.buffer.slice(0, -1)}\n`;
          this.cursor = this.buffer.length;
          break;
        }
        return { kind: 'submit', text: this.expanded() };
      case 'backspace': {
        const placeholder = this.pastes.endingAt(this.buffer.slice(0, this.cursor));
        const length = placeholder?.length ?? Math.min(1, this.cursor);
        this.buffer = this.buffer.slice(0, this.cursor - length) + this.buffer.slice(this.cursor);
        this.cursor -= length;
        break;
      }
      case 'delete':
        this.buffer = this.buffer.slice(0, this.cursor) + this.buffer.slice(this.cursor + 1);
        break;
      case 'ctrl-d':
        if (this.buffer === '') return { kind: 'eof' };
        this.buffer = this.buffer.slice(0, this.cursor) + this.buffer.slice(this.cursor + 1);
        break;
      case 'ctrl-k': {
        const next = this.buffer.indexOf('\n', this.cursor);
        this.buffer = this.buffer.slice(0, this.cursor) + (next < 0 ? '' : this.buffer.slice(next));
        break;
      }
      case 'ctrl-u': {
        const start = this.buffer.lastIndexOf('\n', this.cursor - 1) + 1;
        this.buffer = this.buffer.slice(0, start) + this.buffer.slice(this.cursor);
        this.cursor = start;
        break;
      }
      case 'delete-word': {
        const match = /^\s*\S+/.exec(this.buffer.slice(this.cursor));
        const end = this.cursor + (match ? match[0].length : this.buffer.length - this.cursor);
        this.buffer = this.buffer.slice(0, this.cursor) + this.buffer.slice(end);
        break;
      }
      case 'ctrl-w':
      case 'delete-word-back': {
        const start = wordStart(this.buffer, this.cursor);
        this.buffer = this.buffer.slice(0, start) + this.buffer.slice(this.cursor);
        this.cursor = start;
        break;
      }
      case 'ctrl-c':
        if (this.buffer === '') return { kind: 'ctrl-c-empty' };
        // Ctrl-C at a non-empty prompt clears it.
        this.buffer = '';
        this.cursor = 0;
        this.historyIndex = this.options.history.length;
        break;
    }
    return undefined;
  }

  /** A key that moves the cursor, recalls history, completes, searches or redraws. */
  private otherKey(key: Key): void {
    switch (key.name) {
      case 'left':
        this.cursor = Math.max(0, this.cursor - 1);
        break;
      case 'right':
        this.cursor = Math.min(this.buffer.length, this.cursor + 1);
        break;
      case 'home':
      case 'ctrl-a':
        this.cursor = this.buffer.lastIndexOf('\n', this.cursor - 1) + 1;
        break;
      case 'end':
      case 'ctrl-e': {
        const next = this.buffer.indexOf('\n', this.cursor);
        this.cursor = next < 0 ? this.buffer.length : next;
        break;
      }
      case 'word-left':
        this.cursor = wordStart(this.buffer, this.cursor);
        break;
      case 'word-right': {
        const match = /^\s*\S+/.exec(this.buffer.slice(this.cursor));
        this.cursor += match ? match[0].length : this.buffer.length - this.cursor;
        break;
      }
      case 'up':
        if (!this.buffer.slice(0, this.cursor).includes('\n')) this.recall(-1);
        else this.moveLine(-1);
        break;
      case 'down':
        if (!this.buffer.slice(this.cursor).includes('\n')) this.recall(1);
        else this.moveLine(1);
        break;
      case 'tab':
        this.completeAtCursor();
        break;
      case 'ctrl-r':
        this.search = { query: '', match: -1 };
        break;
      case 'ctrl-l':
        this.io.write('\u001b[2J\u001b[H');
        this.drawnCursorRow = 0;
        break;
      case 'escape':
      case 'ctrl-g':
      case 'ctrl-z':
        break;
    }
  }

  private insert(text: string): void {
    this.buffer = this.buffer.slice(0, this.cursor) + text + this.buffer.slice(this.cursor);
    this.cursor += text.length;
  }

  private recall(direction: -1 | 1): void {
    const history = this.options.history;
    const next = this.historyIndex + direction;
    if (next < 0 || next > history.length) return;
    if (this.historyIndex === history.length) this.draft = this.buffer;
    this.historyIndex = next;
    this.buffer = next === history.length ? this.draft : (history[next] ?? '');
    this.cursor = this.buffer.length;
  }

  private moveLine(direction: -1 | 1): void {
    const lineStart = this.buffer.lastIndexOf('\n', this.cursor - 1) + 1;
    const column = this.cursor - lineStart;
    if (direction < 0) {
      const previousStart = this.buffer.lastIndexOf('\n', lineStart - 2) + 1;
      this.cursor = Math.min(previousStart + column, lineStart - 1);
    } else {
      const nextStart = this.buffer.indexOf('\n', this.cursor) + 1;
      const nextEnd = this.buffer.indexOf('\n', nextStart);
      this.cursor = Math.min(nextStart + column, nextEnd < 0 ? this.buffer.length : nextEnd);
    }
  }

  private completeAtCursor(): void {
    const completion = this.options.complete?.(this.buffer, this.cursor);
    if (!completion || completion.options.length === 0) return;
    const typed = this.buffer.slice(completion.start, this.cursor);
    const common = commonPrefix(completion.options);
    if (completion.options.length === 1 || common.length > typed.length) {
      const only = completion.options.length === 1 ? (completion.options[0] ?? '') : common;
      const suffix = completion.options.length === 1 && !only.endsWith('/') ? ' ' : '';
      this.buffer = this.buffer.slice(0, completion.start) + only + suffix + this.buffer.slice(this.cursor);
      this.cursor = completion.start + only.length + suffix.length;
      const description = completion.options.length === 1 ? completion.descriptions?.[only] : undefined;
      if (description !== undefined) this.hint = `${only} — ${description}`;
      return;
    }
    this.listing = completion.options;
  }

  private handleSearch(key: Key): EditorResult | undefined {
    const search = this.search;
    if (!search) return undefined;
    const history = this.options.history;
    const find = (from: number): number => {
      for (let index = from; index >= 0; index -= 1) if (history[index]?.includes(search.query)) return index;
      return -1;
    };
    switch (key.name) {
      case 'text':
      case 'paste':
        search.query += key.text;
        search.match = find(history.length - 1);
        break;
      case 'backspace':
        search.query = search.query.slice(0, -1);
        search.match = search.query === '' ? -1 : find(history.length - 1);
        break;
      case 'ctrl-r':
        if (search.match > 0) {
          const older = find(search.match - 1);
          if (older >= 0) search.match = older;
        }
        break;
      case 'escape':
      case 'ctrl-g':
      case 'ctrl-c':
        this.search = undefined;
        break;
      default:
        // Enter or any editing key accepts the match into the prompt.
        if (search.match >= 0) {
          this.buffer = history[search.match] ?? '';
          this.cursor = this.buffer.length;
        }
        this.search = undefined;
        break;
    }
    this.render();
    return undefined;
  }

  /** Draws the prompt and buffer in place of the previous drawing. */
  render(): void {
    const columns = Math.max(10, this.io.columns());
    let out = this.drawnCursorRow > 0 ? `\u001b[${this.drawnCursorRow}A` : '';
    out += '\r\u001b[J';
    let lines: string[];
    let cursorLine: number;
    let cursorColumn: number;
    let prefixWidth = this.options.promptWidth;
    if (this.search) {
      const match = this.search.match >= 0 ? (this.options.history[this.search.match] ?? '') : '';
      const label = `(reverse-i-search)\`${this.search.query}': `;
      // One row whatever the entry's size: its first line, and how many more it has.
      const [first = '', ...more] = match.split('\n');
      const mark = more.length > 0 ? ` +${more.length} lines` : '';
      const room = Math.max(1, columns - 1 - label.length - mark.length);
      const shown = [...first].length > room ? `${[...first].slice(0, room - 1).join('')}…` : first;
      lines = [`${label}${shown}${mark}`];
      out += `${label}${shown}${mark === '' ? '' : `\u001b[2m${mark}\u001b[22m`}`;
      prefixWidth = 0;
      cursorLine = 0;
      cursorColumn = label.length - 3;
    } else {
      lines = this.buffer.split('\n');
      const before = this.buffer.slice(0, this.cursor).split('\n');
      cursorLine = before.length - 1;
      cursorColumn = (before.at(-1) ?? '').length;
      out += lines
        .map((line, index) => `${index === 0 ? this.options.prompt : ' '.repeat(prefixWidth)}${line}`)
        .join('\r\n');
    }
    const widths = lines.map((line) => prefixWidth + [...line].length);
    const rowsOf = (width: number): number => Math.max(1, Math.ceil(width / columns));
    let totalRows = widths.reduce((sum, width) => sum + rowsOf(width), 0);
    const lastWidth = widths.at(-1) ?? 0;
    if (lastWidth > 0 && lastWidth % columns === 0) {
      out += '\r\n';
      totalRows += 1;
    }
    const listed = this.listing !== undefined ? completionRows(this.listing, columns) : [];
    const extra = [...listed, this.hint].filter((line): line is string => line !== undefined);
    for (const line of extra) {
      const shown = line.length >= columns ? `${line.slice(0, columns - 2)}…` : line;
      out += `\r\n\u001b[2m${shown}\u001b[22m`;
      totalRows += 1;
    }
    if (this.footer !== undefined) {
      const shown = fitToWidth(this.footer, columns);
      out += `\r\n${shown.includes('\u001b') ? shown : `\u001b[2m${shown}\u001b[22m`}`;
      totalRows += 1;
    }
    // Now at the last row; go to the cursor's row and column.
    const cursorWidth = prefixWidth + cursorColumn;
    let cursorRow = widths.slice(0, cursorLine).reduce((sum, width) => sum + rowsOf(width), 0);
    cursorRow += Math.floor(cursorWidth / columns);
    const up = totalRows - 1 - cursorRow;
    out += `\r${up > 0 ? `\u001b[${up}A` : ''}${cursorWidth % columns > 0 ? `\u001b[${cursorWidth % columns}C` : ''}`;
    this.drawnCursorRow = cursorRow;
    this.io.write(out);
  }

  /** Leaves the drawing as it is and moves below it (after submit). */
  finish(): void {
    this.hint = undefined;
    this.footer = undefined;
    this.listing = undefined;
    this.render();
    const columns = Math.max(10, this.io.columns());
    const widths = this.buffer.split('\n').map((line) => this.options.promptWidth + [...line].length);
    const total = widths.reduce((sum, width) => sum + Math.max(1, Math.ceil(width / columns)), 0);
    const down = total - 1 - this.drawnCursorRow;
    this.io.write(`${down > 0 ? `\u001b[${down}B` : ''}\r\n`);
    this.drawnCursorRow = 0;
  }

  /** Erases the drawing (e.g. before output that must not be mixed with the prompt). */
  clear(): void {
    this.io.write(`${this.drawnCursorRow > 0 ? `\u001b[${this.drawnCursorRow}A` : ''}\r\u001b[J`);
    this.drawnCursorRow = 0;
  }
}

function wordStart(buffer: string, cursor: number): number {
  const match = /\S+\s*$/.exec(buffer.slice(0, cursor));
  return match ? cursor - match[0].length : 0;
}

function commonPrefix(options: readonly string[]): string {
  let prefix = options[0] ?? '';
  for (const option of options) while (!option.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}
