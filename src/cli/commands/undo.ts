import { UsageError } from '../../core/errors.js';
import { ExitCode } from '../exit-codes.js';
import { type CommandContext, createContext } from '../context.js';
import type { Io } from '../io.js';
import { resolveConversationId } from './conversation-arg.js';

/** `cody undo [--turns N]`: puts the work tree back as it was before the last N turns that changed files. */
export async function runUndo(
  options: { conversation?: string; turns?: string },
  io: Io,
  existing?: CommandContext,
): Promise<number> {
  const turns = positiveInteger(options.turns ?? '1', '--turns');
  const context = existing ?? (await createContext(io));
  const id = await resolveConversationId(context, options.conversation);
  const { undoTurns } = await import('../../core/undo/undo-turns.js');
  const result = await undoTurns({
    manager: context.manager,
    conversationId: id,
    cwd: io.cwd,
    turns,
    ...(context.config.lockTimeoutMs !== undefined ? { lockTimeoutMs: context.config.lockTimeoutMs } : {}),
  });
  io.stdout.write(
    `Undid ${result.turns} turn${result.turns === 1 ? '' : 's'}: the work tree is back at snapshot ${result.snapshotId.slice(0, 12)}.\n`,
  );
  for (const change of result.changes) {
    const verb = change.status === 'added' ? 'removed' : 'restored';
    io.stdout.write(`  ${verb} ${change.path}\n`);
  }
  if (result.changes.length === 0) io.stdout.write('  (no file differed from the snapshot)\n');
  return ExitCode.ok;
}

export function positiveInteger(text: string, flag: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1)
    throw new UsageError(`${flag} must be a positive whole number, got '${text}'.`);
  return value;
}
