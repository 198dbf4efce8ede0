/**
 * Text from models, tools and files is shown, never obeyed: terminal control characters (ESC sequences,
 * C1 controls, BEL, backspace, carriage return…) are replaced by a visible stand-in before printing.
 */

// C0 controls except tab and newline, DEL, and the C1 range.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Replaces every control character but newline and tab with its caret (^[) or code-point form. */
export function sanitizeForTerminal(text: string): string {
  return text.replace(CONTROL, (character) => {
    const code = character.charCodeAt(0);
    if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
    if (code === 0x7f) return '^?';
    return `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
