/**
 * A turn that ended without a reply (killed, interrupted before the first token, or failed) leaves the
 * person's message last in the history; the next turn would send it and the new one back to back, and
 * the model would answer both as one (Anthropic and Gemini even merge consecutive user turns). So the
 * history the model sees gets a short assistant note after such a message, on the live path and on
 * resume alike. The note is not written to the rollout: the `turn_aborted` line there is the record,
 * and the note is rebuilt from it.
 */
import type { ResponseItem } from '../../protocol/index.js';

/** The note's text, per reason (`interrupted`, or why the turn failed). */
export function unansweredText(reason: unknown): string {
  return reason === 'interrupted' || typeof reason !== 'string'
    ? '[No reply: this turn was interrupted before an answer.]'
    : `[No reply: this turn ended before an answer (${reason}).]`;
}

/** The note to append when the history ends with the person's message, else undefined. */
export function unansweredNote(history: readonly ResponseItem[], reason: unknown): ResponseItem | undefined {
  const last = history.at(-1);
  if (last?.type !== 'message' || last.role !== 'user') return undefined;
  return {
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text: unansweredText(reason) }],
  };
}
