/**
 * The last exchanges of a conversation, shown when the REPL opens on it. Read from the rollout's tail
 * with plain JSON parsing (no schema, no full read), so it costs the prompt nothing noticeable.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { ChalkInstance } from 'chalk';
import type { Io } from './io.js';
import { sanitizeForTerminal } from './sanitize.js';

const EXCHANGES = 2;
const LINES_PER_MESSAGE = 3;
const TAIL_BYTES = 256 * 1024;

interface Message {
  role: 'user' | 'assistant';
  text: string;
  /** A later undo took this turn back (`thread_rolled_back`). */
  undone?: boolean;
}

/** User and assistant messages in the last `TAIL_BYTES` of the rollout, oldest first. */
export function tailMessages(filePath: string): Message[] {
  let text: string;
  try {
    const descriptor = openSync(filePath, 'r');
    try {
      const size = fstatSync(descriptor).size;
      const length = Math.min(size, TAIL_BYTES);
      const buffer = Buffer.alloc(length);
      readSync(descriptor, buffer, 0, length, size - length);
      text = buffer.toString('utf8');
      // A cut first line is not a line.
      if (length < size) text = text.slice(text.indexOf('\n') + 1);
    } finally {
      closeSync(descriptor);
    }
  } catch {
    return [];
  }
  const messages: Message[] = [];
  for (const line of text.split('\n')) {
    if (line.includes('"thread_rolled_back"')) {
      markUndone(messages, line);
      continue;
    }
    if (!line.includes('"response_item"')) continue;
    let parsed: { type?: unknown; payload?: { type?: unknown; role?: unknown; content?: unknown } };
    try {
      parsed = JSON.parse(line) as typeof parsed;
    } catch {
      continue;
    }
    const payload = parsed.payload;
    if (parsed.type !== 'response_item' || payload?.type !== 'message' || !Array.isArray(payload.content))
      continue;
    if (payload.role !== 'user' && payload.role !== 'assistant') continue;
    const content = (payload.content as Array<{ text?: unknown }>)
      .map((part) => (typeof part.text === 'string' ? part.text : '[image]'))
      .join('\n');
    // Cody's own context and compaction summaries are not something the person typed.
    if (payload.role === 'user' && /^\s*<(environment_context|user_instructions)/.test(content)) continue;
    messages.push({ role: payload.role, text: content });
  }
  return messages;
}

/** The last `num_turns` user turns not yet undone, and their replies, are marked undone. */
function markUndone(messages: Message[], line: string): void {
  let turns: unknown;
  try {
    turns = (JSON.parse(line) as { payload?: { num_turns?: unknown } }).payload?.num_turns;
  } catch {
    return;
  }
  if (typeof turns !== 'number' || turns < 1) return;
  const live = messages.flatMap((message, index) =>
    message.role === 'user' && message.undone !== true ? [index] : [],
  );
  const first = live[Math.max(0, live.length - turns)];
  if (first === undefined) return;
  for (const message of messages.slice(first)) message.undone = true;
}

export function printRecap(io: Io, filePath: string, color: ChalkInstance): void {
  const messages = tailMessages(filePath);
  const userIndexes = messages.flatMap((message, index) => (message.role === 'user' ? [index] : []));
  if (userIndexes.length === 0) return;
  const from = userIndexes[Math.max(0, userIndexes.length - EXCHANGES)] ?? 0;
  io.stderr.write(color.dim('── recap: the last exchanges ──\n'));
  for (const message of messages.slice(from)) {
    const lines = sanitizeForTerminal(message.text).split('\n');
    const shown = lines
      .slice(0, LINES_PER_MESSAGE)
      .map((line) => (line.length > 160 ? `${line.slice(0, 159)}…` : line));
    if (lines.length > LINES_PER_MESSAGE) shown.push('…');
    const text = shown.join('\n  ');
    const mark = message.undone === true && message.role === 'user' ? color.dim('   ↶ undone') : '';
    io.stderr.write(
      message.role === 'user' ? `${color.bold('› ')}${text}${mark}\n` : `${color.dim(`  ${text}`)}\n`,
    );
  }
  io.stderr.write(color.dim('──\n'));
}
