/**
 * The reply as it streams, on a terminal: the line still open is shown as plain (sanitised) text the
 * moment its characters arrive, and once the line is complete it is erased and handed to the Markdown
 * renderer, which prints it styled. Lines already printed are never touched again (no reflow); only
 * the open line, at the bottom, is re-drawn, once.
 */
import type { MarkdownStream } from './markdown.js';
import { displayWidth } from './markdown-text.js';
import { sanitizeForTerminal } from './sanitize.js';

export interface LiveReply {
  push(text: string): void;
  /** The reply is over (or paused for a tool call or a question): the open line is rendered and ended. */
  end(): void;
}

/** Columns the open line takes: a tab to the next stop of 8, the rest as the Markdown renderer measures it. */
function lineWidth(text: string): number {
  const [first = '', ...rest] = text.split('\t');
  let width = displayWidth(first);
  for (const segment of rest) width += 8 - (width % 8) + displayWidth(segment);
  return width;
}

/**
 * `write` goes to the terminal (where `\n` is a line end); `markdown` renders complete lines through
 * `render` (the Markdown stream, created on the first complete line); `columns` is the width now.
 */
export function createLiveReply(
  write: (text: string) => void,
  columns: () => number,
  markdown: (write: (text: string) => void) => MarkdownStream,
): LiveReply {
  let stream: MarkdownStream | undefined;
  /** The open line as received, and the width of what of it is on screen. */
  let open = '';
  let shownWidth = 0;
  const erase = (): void => {
    if (shownWidth === 0) return;
    const width = Math.max(1, columns());
    // The cursor is on the open line's last row (a full row leaves it there, wrap pending).
    const up = Math.floor((shownWidth - 1) / width);
    write(`${up > 0 ? `\u001b[${up}A` : ''}\r\u001b[J`);
    shownWidth = 0;
  };
  const render = (text: string): void => {
    stream ??= markdown(write);
    stream.push(text);
  };
  const show = (text: string): void => {
    const visible = sanitizeForTerminal(text.replace(/\r/g, ''));
    if (visible === '') return;
    write(visible);
    shownWidth += lineWidth(visible);
  };
  return {
    push(text) {
      const newline = text.lastIndexOf('\n');
      if (newline < 0) {
        open += text;
        show(text);
        return;
      }
      erase();
      render(`${open}${text.slice(0, newline + 1)}`);
      open = text.slice(newline + 1);
      show(open);
    },
    end() {
      erase();
      if (open !== '') render(open);
      open = '';
      stream?.end();
      stream = undefined;
    },
  };
}
