/**
 * Prompt history across sessions: `$CODY_HOME/history.jsonl` (mode 0600), one JSON line per prompt with
 * the conversation id and the time, redacted like rollouts, trimmed to its newest half when it outgrows
 * `MAX_HISTORY_BYTES`.
 */
import { appendFileSync, chmodSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redactor } from '../core/index.js';

export const MAX_HISTORY_BYTES = 512 * 1024;
const FILE_MODE = 0o600;

export interface HistoryEntry {
  text: string;
  conversationId: string;
  time: string;
}

export function historyPath(home: string): string {
  return join(home, 'history.jsonl');
}

/** Prompts, oldest first; unreadable lines are skipped (history is a convenience, never a blocker). */
export function readHistory(home: string): string[] {
  let text: string;
  try {
    text = readFileSync(historyPath(home), 'utf8');
  } catch {
    return [];
  }
  const prompts: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      const entry = JSON.parse(line) as Partial<HistoryEntry>;
      if (typeof entry.text === 'string' && entry.text !== '' && prompts.at(-1) !== entry.text)
        prompts.push(entry.text);
    } catch {
      // A torn line from a crash: skip it.
    }
  }
  return prompts;
}

export function appendHistory(
  home: string,
  entry: HistoryEntry,
  redact: Redactor,
  maxBytes: number = MAX_HISTORY_BYTES,
): void {
  const path = historyPath(home);
  try {
    appendFileSync(path, `${JSON.stringify({ ...entry, text: redact(entry.text) })}\n`, { mode: FILE_MODE });
    chmodSync(path, FILE_MODE);
    if (statSync(path).size > maxBytes) trim(path, maxBytes);
  } catch {
    // Not being able to keep history never stops a conversation.
  }
}

/** Keeps the newest lines that fit in half the limit (atomic rename). */
function trim(path: string, maxBytes: number): void {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  const kept: string[] = [];
  let size = 0;
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const line = lines[index] ?? '';
    size += Buffer.byteLength(line) + 1;
    if (size > maxBytes / 2) break;
    kept.unshift(line);
  }
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, kept.map((line) => `${line}\n`).join(''), { mode: FILE_MODE });
  renameSync(temporary, path);
}
