/** The last exchanges of a conversation, shown when the REPL opens on it. */
import type { ChalkInstance } from 'chalk';
import { readTranscript } from '../core/transcript.js';
import type { CommandContext } from './context.js';
import type { Io } from './io.js';
import { sanitizeForTerminal } from './sanitize.js';

const EXCHANGES = 2;
const LINES_PER_MESSAGE = 3;

export async function printRecap(
  io: Io,
  context: CommandContext,
  id: string,
  color: ChalkInstance,
): Promise<void> {
  let messages: Array<{ role: string; text: string }>;
  try {
    const transcript = await readTranscript(context.manager.rolloutPath(id));
    messages = transcript.entries.flatMap((entry) =>
      entry.kind === 'item' &&
      entry.item.type === 'message' &&
      (entry.item.role === 'user' || entry.item.role === 'assistant')
        ? [
            {
              role: entry.item.role,
              text: entry.item.content
                .map((part) => (part.type === 'input_image' ? '[image]' : part.text))
                .join('\n'),
            },
          ]
        : [],
    );
  } catch {
    return;
  }
  // Cody's own context message (environment, instructions) is not something the person typed.
  messages = messages.filter((message) => !message.text.startsWith('<environment_context>'));
  const userIndexes = messages.flatMap((message, index) => (message.role === 'user' ? [index] : []));
  if (userIndexes.length === 0) return;
  const from = userIndexes[Math.max(0, userIndexes.length - EXCHANGES)] ?? 0;
  const earlier = userIndexes.length - EXCHANGES;
  io.stderr.write(
    color.dim(`── recap${earlier > 0 ? ` (last ${EXCHANGES} of ${userIndexes.length} exchanges)` : ''} ──\n`),
  );
  for (const message of messages.slice(from)) {
    const lines = sanitizeForTerminal(message.text).split('\n');
    const shown = lines
      .slice(0, LINES_PER_MESSAGE)
      .map((line) => (line.length > 160 ? `${line.slice(0, 159)}…` : line));
    if (lines.length > LINES_PER_MESSAGE) shown.push('…');
    const text = shown.join('\n  ');
    io.stderr.write(message.role === 'user' ? `${color.bold('› ')}${text}\n` : `${color.dim(`  ${text}`)}\n`);
  }
  io.stderr.write(color.dim('──\n'));
}
