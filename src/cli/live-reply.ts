/**
 * The reply as it streams, on a terminal: the line still open is shown as plain (sanitised) text the
 * moment its characters arrive, and once the line is complete it is erased and handed to the Markdown
 * renderer, which prints it styled. Lines already printed are never touched again (no reflow); only
 * the open line, at the bottom, is re-drawn, once.
 */
import type { MarkdownStream } from './markdown.js';
import { sanitizeForTerminal } from './sanitize.js';

export interface LiveReply {
  push(text: string): void;
  /** The reply is over (or paused for a tool call or a question): the open line is rendered and ended. */
  end(): void;
}

/** Columns a code point takes: 2 for East Asian wide and emoji ranges, 0 for combining marks. */
export function codePointWidth(code: number): number {
  if ((code >= 0x300 && code <= 0x36f) || code === 0x200d || (code >= 0xfe00 && code <= 0xfe0f)) return 0;
  const wide =
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf && code !== 0x303f) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd);
  return wide ? 2 : 1;
}

export function displayWidth(text: string): number {
  let width = 0;
  for (const character of text)
    width += character === '\t' ? 8 - (width % 8) : codePointWidth(character.codePointAt(0) ?? 0);
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
    shownWidth += displayWidth(visible);
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
