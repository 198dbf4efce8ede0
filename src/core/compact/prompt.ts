import type { MessageItem, ResponseItem } from '../../protocol/index.js';
import { normalizeItems } from '../../providers/index.js';

/**
 * Cody's compaction prompt: a hand-over note another engineer could continue from. It asks for what a
 * person would need after a break — goal, decisions, constraints, names, dead ends, state, next steps —
 * and for brevity, because the summary itself occupies the window it is meant to free.
 */
export const COMPACTION_PROMPT = [
  'You are handing this conversation over to another assistant who will continue it without seeing the messages above. Write a concise hand-over note in plain text covering:',
  "1. The user's goal, in their own terms.",
  '2. Decisions made so far, and why.',
  '3. Constraints and preferences the user stated (style, tools, things to avoid).',
  '4. Files, commands, identifiers, URLs and values that matter, spelled exactly.',
  '5. What was tried and did not work.',
  '6. The current state: what is done and what is in progress.',
  '7. The next steps.',
  'Do not invent anything that is not in the conversation. Do not address the user; write only the note.',
].join('\n');

/** The summary request: the normalised history followed by the prompt (and the focus, if given). */
export function buildSummaryRequest(history: readonly ResponseItem[], focus?: string): ResponseItem[] {
  const text =
    focus && focus.trim() !== ''
      ? `${COMPACTION_PROMPT}\nPay particular attention to: ${focus.trim()}`
      : COMPACTION_PROMPT;
  const prompt: MessageItem = { type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
  return [...normalizeItems(history), prompt];
}
