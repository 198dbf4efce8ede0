/**
 * Gemini's sequencing rules for `contents`, one named method each: one content per run of the same role
 * (`user`/`model`), function responses in the user content right after the model content with their
 * calls, and the first content the user's.
 */
import type { Content, Part } from '@google/genai';

/**
 * Text of the user content added when the history would otherwise start with the model (or be empty,
 * which Gemini rejects). Worded as a neutral marker so the model does not answer it.
 */
export const CONVERSATION_START_PLACEHOLDER = '(continuing the conversation)';

type Role = 'user' | 'model';

export class GeminiContentBuilder {
  private readonly contents: Array<{ role: Role; parts: Part[] }> = [];

  /** Adds parts to the last content when it has the same role, else opens a content. */
  append(role: Role, parts: readonly Part[]): void {
    if (parts.length === 0) return;
    const last = this.contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else this.contents.push({ role, parts: [...parts] });
  }

  /**
   * A function response goes in the user content that follows the model content with its call, after
   * the responses already there and before anything else (an image the tool returned, the person's next
   * words): Gemini matches the response turn to the call turn right before it.
   */
  addFunctionResponse(part: Part): void {
    const last = this.contents.at(-1);
    if (last?.role !== 'user') {
      this.contents.push({ role: 'user', parts: [part] });
      return;
    }
    const firstOther = last.parts.findIndex((candidate) => candidate.functionResponse === undefined);
    if (firstOther < 0) last.parts.push(part);
    else last.parts.splice(firstOther, 0, part);
  }

  /** The finished `contents`, starting with a user content (a placeholder one, with a warning, if needed). */
  build(warnings: string[]): Content[] {
    const first = this.contents[0];
    if (first?.role !== 'user') {
      warnings.push(
        first
          ? 'The history starts with a model turn; a placeholder user turn was put before it.'
          : 'The history has no user or model turn; a placeholder user turn was sent.',
      );
      this.contents.unshift({ role: 'user', parts: [{ text: CONVERSATION_START_PLACEHOLDER }] });
    }
    return this.contents.map((content) => ({ role: content.role, parts: content.parts }));
  }
}
