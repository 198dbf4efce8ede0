/** How tool calls that change something get approved: asked on a terminal, or by an explicit flag. */
import type { SessionEvent } from '../core/index.js';
import type { ApprovalAnswer } from './approval-question.js';
import type { Io } from './io.js';
import { stderrChalk } from './color.js';

/** Whether this terminal session can answer approval requests. */
export function canAskOn(io: Io): boolean {
  return io.stdin.isTTY === true;
}

/**
 * Asks the person about one `approval-requested` event with lines (a terminal not in raw mode): the
 * approval question component, with the same choices and wording as on raw keys.
 */
export async function askApproval(
  io: Io,
  event: Extract<SessionEvent, { type: 'approval-requested' }>,
): Promise<ApprovalAnswer> {
  const { askWithLines, linesOf } = await import('./approval-question.js');
  // Start on a fresh line: the reply may have stopped mid-line.
  io.stderr.write('\n');
  // A stream that cannot be read line by line (never the process's stdin) stops the turn.
  if (!isReadable(io.stdin)) return { decision: 'abort' };
  const lines = linesOf(io.stdin);
  try {
    const columns = io.stderr.columns;
    return await askWithLines(lines, (text) => io.stderr.write(text), event, {
      color: stderrChalk(io),
      ...(columns !== undefined ? { columns: () => columns } : {}),
    });
  } finally {
    lines.close();
  }
}

function isReadable(stream: unknown): stream is NodeJS.ReadableStream {
  return typeof (stream as { on?: unknown }).on === 'function';
}
