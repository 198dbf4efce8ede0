/**
 * The model's thinking in the REPL: rendered as Markdown as it arrives (dimmed and italic, no `**` or
 * backticks on screen), folded to its first two rows, blank rows left out (the rest is counted, and
 * `/expand` shows it whole). Model text: control characters are made visible, never sent.
 */
import type { ChalkInstance } from 'chalk';
import { layoutLines } from './layout/layout.js';
import { textWidth } from './layout/width.js';
import { createMarkdownStream, type MarkdownStream } from './markdown.js';
import { STYLES } from './markdown-text.js';

/** Rows of thinking shown while it streams; the rest waits for `/expand`. */
export const THINKING_LINES = 2;

export interface ThinkingView {
  /** More thinking: shown while within the fold, counted past it. */
  push(text: string): void;
  /** The thinking is over (text, a tool call or the end came): closes its lines. */
  end(): void;
  /** Everything thought in this turn so far, for `/expand`. */
  readonly text: string;
}

// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[0-9;]*m/g;
const PREFIX = '✻ ';

/** The thinking's Markdown rows, written while they fit the fold; the characters of the rest counted. */
interface Fold {
  stream: MarkdownStream;
  /** Rows written, the columns of the last one, and the characters left out. */
  rows: () => number;
  rowWidth: () => number;
  hidden: () => number;
}

function createFold(write: (text: string) => void, color: ChalkInstance, columns: () => number): Fold {
  let rows = 0;
  let rowWidth = 0;
  let atRowStart = true;
  let hidden = 0;
  const take = (piece: string): void => {
    if (piece === '') return;
    if (!atRowStart) {
      write(piece);
      rowWidth += textWidth(piece);
    } else if (rows >= THINKING_LINES) hidden += piece.replace(SGR, '').length;
    else {
      write(
        `${rows > 0 ? '\n' : ''}${color.dim.italic(rows === 0 ? PREFIX : ' '.repeat(PREFIX.length))}${piece}`,
      );
      rows += 1;
      rowWidth = PREFIX.length + textWidth(piece);
      atRowStart = false;
    }
  };
  const stream = createMarkdownStream(
    (text) => {
      text.split('\n').forEach((piece, index) => {
        if (index > 0) atRowStart = true;
        if (atRowStart && rows >= THINKING_LINES) hidden += piece.replace(SGR, '').length;
        else take(piece);
      });
    },
    {
      columns: () => Math.max(20, columns()) - PREFIX.length,
      color: color.level > 0,
      styles: [STYLES.dim, STYLES.italic],
    },
  );
  return { stream, rows: () => rows, rowWidth: () => rowWidth, hidden: () => hidden };
}

/**
 * The note on what the fold left out: after the last row when it fits there, else on rows of its own,
 * laid out within the width under the thinking's indent.
 */
function foldNote(note: string, fold: Fold, color: ChalkInstance, width: number): string {
  if (fold.rowWidth() + 1 + textWidth(note) <= width) return color.dim(` ${note}`);
  const indent = ' '.repeat(PREFIX.length);
  return `\n${layoutLines(color.dim(note), { width, indent }).join('\n')}`;
}

/**
 * A view writing with `write` (the terminal, where `\n` is already a line end) at `columns()` wide. With
 * `show` false, nothing is written, yet the text is still kept for `/expand`; `expandable` says whether
 * `/expand` exists to be named (the REPL) or not (`cody chat`).
 */
export function createThinkingView(
  write: (text: string) => void,
  color: ChalkInstance,
  columns: () => number,
  show = true,
  expandable = true,
): ThinkingView {
  let text = '';
  let fold: Fold | undefined;
  return {
    push(delta) {
      text += delta;
      if (!show || delta === '') return;
      fold ??= createFold(write, color, columns);
      fold.stream.push(delta);
    },
    end() {
      if (text !== '' && !text.endsWith('\n\n')) text += '\n\n';
      if (!fold) return;
      fold.stream.end();
      const done = fold;
      fold = undefined;
      if (done.rows() === 0) return;
      const expand = expandable ? '; /expand shows the thinking whole' : '';
      const note = `… (${done.hidden()} more characters${expand})`;
      if (done.hidden() > 0) write(foldNote(note, done, color, Math.max(20, columns())));
      write('\n');
    },
    get text() {
      return text.trimEnd();
    },
  };
}
