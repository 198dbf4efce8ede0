import type { MessageItem, ResponseItem } from '../../protocol/index.js';
import { normalizeItems } from '../../providers/index.js';

/**
 * Cody's compaction prompt. It frames the summary as a hand-over note to an engineer who will carry on
 * from it alone, because that framing makes a model keep what the next step needs (names spelled
 * exactly, dead ends, half-done work) rather than retell the conversation. The headings follow what
 * people complain is lost after compaction: the goal, decisions, the user's constraints, exact
 * identifiers, failed attempts, the current state and the next steps. Brevity is asked for because the
 * note itself occupies the window it is meant to free.
 */
export const COMPACTION_PROMPT = [
  'The context window is nearly full, so this work is being handed over to another engineer who will continue it from your note alone; they will not see any of the messages above.',
  'Write that hand-over note now: concise, specific, in short sections, covering:',
  "- Goal: what the user wants to achieve, in the user's own terms.",
  '- Decisions: what has been decided, and why.',
  '- Constraints and preferences: everything the user asked for or ruled out (style, tools, versions, things not to touch).',
  '- Files and identifiers: paths, functions, commands, URLs, names and values involved, spelled exactly.',
  '- Tried and failed: approaches that did not work and why, so they are not repeated.',
  '- Current state: what is done, what is half done, what is not yet verified.',
  '- Next steps: what to do next, in order.',
  'Write only the note. Do not invent anything the conversation does not say, and do not address the user.',
].join('\n');

/** The prompt message closing a summary request, with the person's focus when they gave one. */
export function compactionPromptMessage(focus?: string): MessageItem {
  const trimmed = focus?.trim() ?? '';
  const text =
    trimmed === '' ? COMPACTION_PROMPT : `${COMPACTION_PROMPT}\nPay particular attention to: ${trimmed}`;
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
}

/**
 * The items of a summary request: the history normalised as for any prompt (every call has an output,
 * no orphans, no ghost snapshots), followed by the compaction prompt as the last user message.
 */
export function buildSummaryRequest(history: readonly ResponseItem[], focus?: string): ResponseItem[] {
  return [...normalizeItems(history), compactionPromptMessage(focus)];
}
