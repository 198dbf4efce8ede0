/**
 * Long pastes in the prompt: kept aside and shown as one `[Pasted text #1 +30 lines]` placeholder (as
 * Claude Code does), so a 300-line paste does not push the prompt off the screen; expanded when sent.
 */

/** A paste with more lines or characters than these is collapsed. */
export const COLLAPSE_LINES = 5;
export const COLLAPSE_CHARS = 1000;

export class PasteStore {
  private readonly texts = new Map<string, string>();
  private count = 0;

  /** What goes into the buffer for a paste: the text itself, or a placeholder for a long one. */
  placeholderFor(text: string): string {
    const lines = text.replace(/\n$/, '').split('\n').length;
    if (lines <= COLLAPSE_LINES && text.length <= COLLAPSE_CHARS) return text;
    this.count += 1;
    const placeholder = `[Pasted text #${this.count} +${lines} lines]`;
    this.texts.set(placeholder, text);
    return placeholder;
  }

  /** The placeholder that `before` ends with, if any (Backspace deletes it whole). */
  endingAt(before: string): string | undefined {
    for (const placeholder of this.texts.keys()) if (before.endsWith(placeholder)) return placeholder;
    return undefined;
  }

  /** The buffer with every placeholder replaced by its paste. */
  expand(buffer: string): string {
    let text = buffer;
    for (const [placeholder, paste] of this.texts) text = text.split(placeholder).join(paste);
    return text;
  }
}
