import { createInterface } from 'node:readline/promises';
import { UsageError } from '../../core/index.js';
import type { UndoResult } from '../../core/index.js';
import { ExitCode } from '../exit-codes.js';
import { type CommandContext, createContext } from '../context.js';
import type { Io } from '../io.js';
import { sanitizeForTerminal } from '../sanitize.js';
import { resolveConversationId } from './conversation-arg.js';

export interface UndoCommandOptions {
  conversation?: string;
  turns?: string;
  /** Restore paths changed since the turn too (after confirmation, or `yes`). */
  force?: boolean;
  yes?: boolean;
  /** How the report names the forced undo: `cody undo --force` (the REPL says `/undo --force`). */
  forceCommand?: string;
}

/** Asks before overwriting paths changed since the turn; the REPL passes its own. */
export type ConfirmOverwrite = (paths: readonly string[]) => Promise<boolean>;

/**
 * `cody undo [--turns N] [--force [--yes]]`: takes back what the last N turns that changed files did,
 * path by path, keeping every path changed since the turn (unless forced).
 */
export async function runUndo(
  options: UndoCommandOptions,
  io: Io,
  existing?: CommandContext,
  confirm?: ConfirmOverwrite,
): Promise<number> {
  const turns = positiveInteger(options.turns ?? '1', '--turns');
  const context = existing ?? (await createContext(io));
  const id = await resolveConversationId(context, options.conversation);
  const result = await context.cody.undo(id, {
    turns,
    ...(options.force === true
      ? {
          force: true,
          confirm: options.yes === true ? () => Promise.resolve(true) : (confirm ?? askOnTerminal(io)),
        }
      : {}),
  });
  io.stdout.write(sanitizeForTerminal(undoReport(result, options.forceCommand)));
  return ExitCode.ok;
}

/** What undo did, one path a line; `↶ undone` names the turns; kept files name `forceCommand`. */
export function undoReport(result: UndoResult, forceCommand = 'cody undo --force'): string {
  const count = result.undone.length;
  const lines = [
    `Undid ${count} turn${count === 1 ? '' : 's'} that changed files: ${result.undone.map((turn) => `turn ${turn}`).join(', ')} ↶ undone`,
  ];
  const dropped = result.turns - count;
  if (dropped > 0)
    lines.push(
      `  ${dropped} later turn${dropped === 1 ? '' : 's'} without file changes also left the conversation`,
    );
  for (const path of result.restored)
    lines.push(
      `  restored ${path}${result.overwritten.includes(path) ? ' (overwriting its change since the turn)' : ''}`,
    );
  for (const path of result.removed)
    lines.push(
      `  removed ${path}${result.overwritten.includes(path) ? ' (overwriting its change since the turn)' : ''}`,
    );
  for (const path of result.kept) lines.push(`  kept (changed since the turn): ${path}`);
  if (result.kept.length > 0) lines.push(`  (${forceCommand} restores kept files too)`);
  if (result.restored.length + result.removed.length + result.kept.length === 0)
    lines.push('  (every file was already as before the turn)');
  return `${lines.join('\n')}\n`;
}

/** On a terminal, ask; otherwise refuse, as `cody delete` does without --yes. */
function askOnTerminal(io: Io): ConfirmOverwrite {
  return async (paths) => {
    const names = paths.join(', ');
    if (io.stdin.isTTY !== true)
      throw new UsageError(
        `Refusing to overwrite files changed since the turn (${names}) without confirmation: pass --yes.`,
      );
    const prompt = createInterface({ input: process.stdin, output: process.stderr });
    const answer = await prompt.question(
      sanitizeForTerminal(`Overwrite your changes since the turn to ${names}? [y/N] `),
    );
    prompt.close();
    return /^y(es)?$/i.test(answer.trim());
  };
}

export function positiveInteger(text: string, flag: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1)
    throw new UsageError(`${flag} must be a positive whole number, got '${text}'.`);
  return value;
}
