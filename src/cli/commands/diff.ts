import { UsageError } from '../../core/errors.js';
import { ExitCode } from '../exit-codes.js';
import { openWorkspace } from '../../core/tools/workspace.js';
import { createContext } from '../context.js';
import { sanitizeForTerminal } from '../sanitize.js';
import type { Io } from '../io.js';
import { resolveConversationId } from './conversation-arg.js';
import { positiveInteger } from './undo.js';

/**
 * `cody diff [--turn N] [--json]`: the unified diff of what a turn changed (default: the last turn that
 * changed files), from its snapshot to the next turn's snapshot, or to the work tree for the latest.
 */
export async function runDiff(
  options: { conversation?: string; turn?: string; json?: boolean },
  io: Io,
): Promise<number> {
  const wanted = options.turn !== undefined ? positiveInteger(options.turn, '--turn') : undefined;
  const context = await createContext(io);
  const id = await resolveConversationId(context, options.conversation);
  const workspace = openWorkspace(io.cwd);
  if (!workspace.isGit)
    throw new UsageError(`No diffs: ${io.cwd} is not in a git work tree, so no snapshots were taken.`);
  const resumed = await context.manager.resumeConversation(id);
  const { turnSnapshots } = await import('../../core/undo/turn-snapshots.js');
  const { diffStat, unifiedDiff } = await import('../../core/undo/turn-diff.js');
  const snapshots = turnSnapshots(resumed.history);
  if (snapshots.length === 0) throw new UsageError('No turn of this conversation changed files.');
  const index =
    wanted === undefined ? snapshots.length - 1 : snapshots.findIndex((entry) => entry.turn === wanted);
  const entry = snapshots[index];
  if (!entry) {
    throw new UsageError(
      `Turn ${wanted ?? ''} changed no files. Turns with changes: ${snapshots.map((snapshot) => snapshot.turn).join(', ')}.`,
    );
  }
  const next = snapshots[index + 1]?.snapshot;
  if (options.json) {
    const stat = await diffStat(workspace.root, entry.snapshot, next);
    io.stdout.write(
      `${JSON.stringify({ conversationId: id, turn: entry.turn, snapshot: entry.snapshot, ...stat })}\n`,
    );
  } else {
    const diff = await unifiedDiff(workspace.root, entry.snapshot, next);
    // Byte-exact when piped (e.g. into git apply); control characters made visible on a terminal.
    io.stdout.write(io.stdout.isTTY === true ? sanitizeForTerminal(diff) : diff);
  }
  return ExitCode.ok;
}
