/** Text from files, tools or servers, made safe to print on a terminal: control characters shown, not obeyed. */
export function terminalSafe(text: string): string {
  let result = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    // Newlines and tabs stay; everything else below 0x20, DEL and the C1 range becomes a visible escape.
    const control = (code < 0x20 && char !== '\n' && char !== '\t') || (code >= 0x7f && code <= 0x9f);
    result += control ? `\\x${code.toString(16).padStart(2, '0')}` : char;
  }
  return result;
}
