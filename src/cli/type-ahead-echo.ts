/**
 * Text typed while a reply streams, shown as it is typed: one dim line under the output (`› text`),
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
      if (paused || text === '') return hide();
      const last = sanitizeForTerminal(text.split('\n').at(-1) ?? '');
      const room = Math.max(1, columns() - 3);
      const chars = [...last];
      const fitted = chars.length > room ? `…${chars.slice(chars.length - room + 1).join('')}` : last;
      // Make sure a row exists below (scrolling if needed), then draw on it and come back.
      write(`\u001bD\u001b[A\u001b7\u001bD\r\u001b[2K${color.dim(`› ${fitted}`)}\u001b8`);
      shown = true;
    },
  };
}
