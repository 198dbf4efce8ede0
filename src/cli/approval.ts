/** How tool calls that change something get approved: asked on a terminal, or by an explicit flag. */
import type { SessionEvent } from '../core/conversation/session-events.js';
import type { ApprovalAnswer } from './approval-question.js';
import type { Io } from './io.js';
import { stderrChalk } from './color.js';
import { sanitizeForTerminal } from './sanitize.js';

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
    return await askWithLines(lines, (text) => io.stderr.write(text), event, { color: stderrChalk(io) });
  } finally {
    lines.close();
  }
}

function isReadable(stream: unknown): stream is NodeJS.ReadableStream {
  return typeof (stream as { on?: unknown }).on === 'function';
}

/**
 * The line shown for a call declined without asking: by the approval policy, or because no terminal
 * could be asked (a pipe, a script). Each names its real reason. Undefined for the person's own "no".
 */
export function declinedNotice(event: Extract<SessionEvent, { type: 'tool-call' }>): string | undefined {
  const call = `${event.call.name} ${event.call.arguments}`;
  const reason = sanitizeForTerminal(event.reason ?? '');
  if (event.declinedBy === 'policy')
    return sanitizeForTerminal(`Declined by policy: ${call}`) + ` — ${reason}\n`;
  if (event.declinedBy === 'nobody-to-ask') {
    return (
      sanitizeForTerminal(`Declined (no terminal to ask; pass --approval full-auto to allow): ${call}`) +
      ` — needs approval: ${reason}\n`
    );
  }
  return undefined;
}
