/**
 * Text typed while a reply streams, shown as it is typed: one dim line under the output (`› text`, after
 * `⏎ queued: …` once a message was sent with Enter and the output has not yet reached a line's end),
 * erased before anything else is written and drawn again after it, so the reply never mixes with it.
 * Drawn with IND (ESC D), which scrolls at the bottom row where a cursor move would not, and the cursor
 * saved and restored around it, so the reply continues exactly where it was.
 */
import type { ChalkInstance } from 'chalk';
import { sanitizeForTerminal } from './sanitize.js';

export interface TypeAheadEcho {
  /** Draws (or erases, when nothing is typed) the echo line. */
  show(): void;
  /** Erases it before other output. */
  hide(): void;
  /** While paused (an approval question) or once stopped, nothing is drawn. */
  pause(paused: boolean): void;
}

export function createTypeAheadEcho(
  write: (text: string) => void,
  typed: () => string,
  columns: () => number,
  color: ChalkInstance,
  /** Messages sent with Enter that the output has not yet said are queued (the latest is named). */
  queued: () => readonly string[] = () => [],
): TypeAheadEcho {
  let shown = false;
  let paused = false;
  const hide = (): void => {
    if (!shown) return;
    shown = false;
    write('\u001b7\u001b[B\r\u001b[2K\u001b8');
  };
  return {
    hide,
    pause(value) {
      if (value) hide();
      paused = value;
    },
    show() {
      const text = typed();
      const waiting = queued();
      if (paused || (text === '' && waiting.length === 0)) return hide();
      const sent = waiting.at(-1);
      const lead =
        sent === undefined
          ? ''
          : `⏎ queued${waiting.length > 1 ? ` (${waiting.length})` : ''}: ${sanitizeForTerminal(sent.split('\n')[0] ?? '')}`;
      const last = sanitizeForTerminal(text.split('\n').at(-1) ?? '');
      const line = [lead, text !== '' ? `› ${last}` : ''].filter((part) => part !== '').join('   ');
      const room = Math.max(1, columns() - 1);
      const chars = [...line];
      const fitted = chars.length > room ? `…${chars.slice(chars.length - room + 1).join('')}` : line;
      // Make sure a row exists below (scrolling if needed), then draw on it and come back.
      write(`\u001bD\u001b[A\u001b7\u001bD\r\u001b[2K${color.dim(fitted)}\u001b8`);
      shown = true;
    },
  };
}
