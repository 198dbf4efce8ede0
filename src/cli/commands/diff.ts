import { UsageError } from '../../core/errors.js';
import { ExitCode } from '../exit-codes.js';
import { openWorkspace } from '../../core/tools/index.js';
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
  const workspace = openWorkspace(io.cwd);
  if (!workspace.isGit)
    throw new UsageError(`No diffs: ${io.cwd} is not in a git work tree, so no snapshots were taken.`);
  const resumed = await context.manager.resumeConversation(id);
  const { readTurnChanges, turnChangeSets, withChanges } = await import('../../core/undo/turn-snapshots.js');
  const { diffStat, unifiedDiff } = await import('../../core/undo/turn-diff.js');
  const records = await readTurnChanges(context.manager.rolloutPath(id));
  // A turn whose change set is empty (it only ran `ls` or `git status`) is not a turn with changes.
  const sets = withChanges(await turnChangeSets(workspace.root, resumed.history, records));
  if (sets.length === 0) throw new UsageError('No turn of this conversation changed files.');
  const entry = wanted === undefined ? sets.at(-1) : sets.find((set) => set.turn === wanted);
  if (!entry) {
    throw new UsageError(
      `Turn ${wanted ?? ''} changed no files. Turns with changes: ${sets.map((set) => set.turn).join(', ')}.`,
    );
  }
  const next = entry.after;
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
