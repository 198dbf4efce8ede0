/**
 * Rolling a conversation back over turns: the history after a `thread_rolled_back` event (Codex's name
 * and `num_turns` field), applied the same way on resume.
 */
import type { ResponseItem } from '../../protocol/index.js';
import { isTypedUserMessage } from './index.js';

/** Indices of the messages that start a user turn. */
export function turnStarts(history: readonly ResponseItem[]): number[] {
  const starts: number[] = [];
  history.forEach((item, index) => {
    if (isTypedUserMessage(item)) starts.push(index);
  });
  return starts;
}

/** The history without its last `turns` user turns. */
export function dropLastTurns(history: readonly ResponseItem[], turns: number): ResponseItem[] {
  if (turns <= 0) return [...history];
  const starts = turnStarts(history);
  const cut = starts.length >= turns ? (starts[starts.length - turns] ?? 0) : (starts[0] ?? history.length);
  return history.slice(0, cut);
}
