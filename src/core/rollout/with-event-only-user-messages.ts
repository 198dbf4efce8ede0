/**
 * Some Codex builds (Codex Desktop) record what the person typed only as a `user_message` event, not as
 * a response item. Without it an imported history would hold answers and no questions, so each such
 * event whose text no user message item carries becomes a user message at the event's place.
 */
import type { MessageItem } from '../../protocol/index.js';
import type { RolloutEntry } from './recorder.js';

/** A `user_message` event's text, and how many entries preceded it. */
export interface UserMessageEvent {
  at: number;
  text: string;
}

function userMessage(text: string): RolloutEntry {
  const item: MessageItem = { type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
  return { type: 'response_item', item };
}

export function withEventOnlyUserMessages(
  entries: readonly RolloutEntry[],
  events: readonly UserMessageEvent[],
): RolloutEntry[] {
  const recorded = new Set<string>();
  for (const entry of entries) {
    if (entry.type !== 'response_item' || entry.item.type !== 'message' || entry.item.role !== 'user')
      continue;
    recorded.add(
      entry.item.content
        .map((part) => (part.type === 'input_image' ? '' : part.text))
        .join('')
        .trim(),
    );
  }
  const missing = events.filter((event) => !recorded.has(event.text.trim()));
  const result: RolloutEntry[] = [];
  let next = 0;
  entries.forEach((entry, index) => {
    for (let event = missing[next]; event !== undefined && event.at <= index; event = missing[next]) {
      result.push(userMessage(event.text));
      next += 1;
    }
    result.push(entry);
  });
  for (const event of missing.slice(next)) result.push(userMessage(event.text));
  return result;
}
