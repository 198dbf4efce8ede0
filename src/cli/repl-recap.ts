/**
 * The last exchanges of a conversation, shown when the REPL opens on it: the store's transcript of the
 * rollout's tail (`recentTranscript`), so the recap counts the same messages as every other reader.
 */
import type { ChalkInstance } from 'chalk';
import type { Cody, RecapMessage } from '../core/index.js';
import type { Io } from './io.js';
import { layoutLines } from './layout/layout.js';
import { sanitizeForTerminal } from './sanitize.js';

const EXCHANGES = 2;
const LINES_PER_MESSAGE = 3;

/** The typed user messages and the replies in the rollout's tail, oldest first ([] when unreadable). */
export async function tailMessages(cody: Pick<Cody, 'recap'>, id: string): Promise<RecapMessage[]> {
  try {
    return await cody.recap(id);
  } catch {
    return [];
  }
}

export async function printRecap(
  io: Io,
  cody: Pick<Cody, 'recap'>,
  id: string,
  color: ChalkInstance,
): Promise<void> {
  const messages = await tailMessages(cody, id);
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
    const mark = message.undone === true && message.role === 'user' ? color.dim('   ↶ undone') : '';
    const user = message.role === 'user';
    const rows = layoutLines(user ? `${shown.join('\n')}${mark}` : color.dim(shown.join('\n')), {
      width: io.stderr.columns ?? 80,
      indent: user ? color.bold('› ') : '  ',
      hangingIndent: '  ',
    });
    io.stderr.write(`${rows.join('\n')}\n`);
  }
  io.stderr.write(color.dim('──\n'));
}
