/** The text a person typed, read from a transcript entry (harness context riding in user messages is not). */
import { isContextualUserText } from './turn-model.js';
import type { TranscriptEntry } from './types.js';

export function userText(entry: TranscriptEntry): string | undefined {
  if (entry.kind !== 'item' || entry.item.type !== 'message' || entry.item.role !== 'user') return undefined;
  const text = (entry.item.content ?? []).map((part) => part.text ?? '').join('');
  return isContextualUserText(text) ? undefined : text;
}
