/**
 * Text from models, tools and files is shown, never obeyed: terminal control characters (ESC sequences,
 * C1 controls, BEL, backspace, carriage return…) are replaced by a visible stand-in before printing.
 */

// A CRLF pair, C0 controls except tab and newline, DEL, and the C1 range.
// eslint-disable-next-line no-control-regex
const CONTROL = /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const JSON_UNSAFE = /[\u007f-\u009f]/g;

/**
 * Replaces every control character but newline and tab with its caret (^[) or code-point form; a
 * CRLF line end becomes a plain newline. The one sanitiser for everything printed from a rollout, a
 * tool, a model or a provider (issue 7.6).
 */
export function sanitizeForTerminal(text: string): string {
  return text.replace(CONTROL, (character) => {
    if (character === '\r\n') return '\n';
    const code = character.charCodeAt(0);
    if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
    if (code === 0x7f) return '^?';
    return `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * JSON text safe on a terminal: JSON.stringify escapes C0 controls and ESC but leaves DEL and the C1
 * controls (which some terminals obey) raw; they are escaped as `\u007f`…`\u009f` too.
 */
export function terminalSafeJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(
    JSON_UNSAFE,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
