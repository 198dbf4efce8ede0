/**
 * A status command's output as it may reach the screen: its first line, every control character made
 * visible (`sanitize.ts`) except SGR colour sequences (`ESC [ … m`), which Claude Code's status lines use
 * and which can only colour text; cut to the terminal's width by what is visible.
 */
import { sanitizeForTerminal } from '../sanitize.js';

// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[0-9;:]{0,32}m/g;
const RESET = '\u001b[0m';

/** The first line of `output`, safe to print: only SGR sequences kept, ended by a reset when any was. */
export function statusText(output: string): string {
  const first = output.split(/\r?\n/)[0] ?? '';
  let coloured = false;
  let text = '';
  let last = 0;
  for (const match of first.matchAll(SGR)) {
    text += visible(first.slice(last, match.index));
    text += match[0];
    coloured = true;
    last = match.index + match[0].length;
  }
  text += visible(first.slice(last));
  return coloured ? `${text}${RESET}` : text;
}

/** Plain text: tabs as spaces, every other control character as its visible stand-in. */
function visible(text: string): string {
  return sanitizeForTerminal(text.replace(/\t/g, ' '));
}

/** Text of `statusText`'s form cut to `columns` visible characters (with `…`), its colours kept closed. */
export function fitToWidth(text: string, columns: number): string {
  const room = Math.max(1, columns - 1);
  if (visibleWidth(text) <= room) return text;
  let out = '';
  let width = 0;
  let last = 0;
  const take = (plain: string): boolean => {
    for (const character of plain) {
      if (width === room - 1) {
        out += '…';
        return false;
      }
      out += character;
      width += 1;
    }
    return true;
  };
  for (const match of text.matchAll(SGR)) {
    if (!take(text.slice(last, match.index))) return `${out}${RESET}`;
    out += match[0];
    last = match.index + match[0].length;
  }
  take(text.slice(last));
  return out;
}

/** How many characters of `text` show (its SGR sequences take none). */
export function visibleWidth(text: string): number {
  return [...text.replace(SGR, '')].length;
}
