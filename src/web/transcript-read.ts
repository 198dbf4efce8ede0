/** Reading a conversation's transcript in full (page after page) and cutting it where a replayed turn starts. */
import { api } from './api.js';
import { userText } from './transcript-text.js';
import type { TranscriptEntry } from './types.js';

export { userText };

export async function readTranscript(id: string): Promise<TranscriptEntry[]> {
  const entries: TranscriptEntry[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await api.messages(id, after);
    entries.push(...page.entries);
    if (!page.next) return entries;
    after = page.next;
  }
}

/** The entries before the last message the person wrote (a replayed turn shows it and what followed). */
export function beforeLastUserMessage(entries: TranscriptEntry[]): TranscriptEntry[] {
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index];
    if (entry && userText(entry) !== undefined) return entries.slice(0, index);
  }
  return entries;
}
