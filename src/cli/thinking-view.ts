/**
 * The model's thinking in the REPL: streamed as it arrives, dimmed, folded to two lines (the rest is
 * counted, and `/expand` shows it whole). Model text: control characters are made visible, never sent.
 */
import type { ChalkInstance } from 'chalk';
import { sanitizeForTerminal } from './sanitize.js';

/** Lines of thinking shown while it streams; the rest waits for `/expand`. */
export const THINKING_LINES = 2;

export interface ThinkingView {
  /** More thinking: shown while within the fold, counted past it. */
  push(text: string): void;
  /** The thinking is over (text, a tool call or the end came): closes its lines. */
  end(): void;
  /** Everything thought in this turn so far, for `/expand`. */
  readonly text: string;
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
  /** Characters of the current block already written, and whether the block is open on screen. */
  let shown = 0;
  let hidden = 0;
  let open = false;
  const prefix = '✻ ';
  const budget = (): number => Math.max(20, THINKING_LINES * Math.max(20, columns()) - prefix.length - 1);
  return {
    push(delta) {
      text += delta;
      if (!show || delta === '') return;
      if (!open) {
        write(color.dim.italic(prefix));
        open = true;
        shown = 0;
        hidden = 0;
      }
      // One flowing paragraph: the model's line breaks would spend the fold on blank lines.
      const flat = sanitizeForTerminal(delta).replace(/\s+/g, ' ');
      const room = Math.max(0, budget() - shown);
      const visible = [...flat].slice(0, room).join('');
      if (visible !== '') write(color.dim.italic(visible));
      shown += [...visible].length;
      hidden += [...flat].length - [...visible].length;
    },
    end() {
      if (!open) return;
      open = false;
      const expand = expandable ? '; /expand shows the thinking whole' : '';
      if (hidden > 0) write(color.dim(` … (${hidden} more characters${expand})`));
      write('\n');
      if (text !== '' && !text.endsWith('\n\n')) text += '\n\n';
    },
    get text() {
      return text.trimEnd();
    },
  };
}
