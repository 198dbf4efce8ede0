import { ExitCode } from '../exit-codes.js';
import { createContext } from '../context.js';
import { sanitizeForTerminal } from '../sanitize.js';
import type { Io } from '../io.js';
import { resolveConversationId } from './conversation-arg.js';
import { positiveInteger } from './undo.js';

/**
 * `cody diff [--turn N] [--json]`: the unified diff of what a turn changed (default: the last turn that
 * changed files), from the snapshot before it to the one after it: a later edit by hand is not in it.
 */
export async function runDiff(
  options: { conversation?: string; turn?: string; json?: boolean },
  io: Io,
): Promise<number> {
  const wanted = options.turn !== undefined ? positiveInteger(options.turn, '--turn') : undefined;
  const context = await createContext(io);
  const id = await resolveConversationId(context, options.conversation);
  const entry = await context.cody.diff(id, wanted !== undefined ? { turn: wanted } : {});
  if (options.json) {
    const stat = await entry.stat();
    io.stdout.write(
      `${JSON.stringify({ conversationId: id, turn: entry.turn, snapshot: entry.snapshot, ...stat })}\n`,
    );
  } else {
    const diff = await entry.unified();
    // Byte-exact when piped (e.g. into git apply); control characters made visible on a terminal.
    io.stdout.write(io.stdout.isTTY === true ? sanitizeForTerminal(diff) : diff);
  }
  return ExitCode.ok;
}
