import { UsageError } from '../../core/index.js';
import { ExitCode } from '../exit-codes.js';
import { createContext } from '../context.js';
import type { Io } from '../io.js';

/** `cody fork <id> [--at N]`: prints the new conversation's id (made active), like `cody new`. */
export async function runFork(options: { id: string; at?: string }, io: Io): Promise<number> {
  let through: number | undefined;
  if (options.at !== undefined) {
    through = Number(options.at);
    if (!Number.isInteger(through) || through < 1)
      throw new UsageError(`--at must be a user turn number (1 or more), not '${options.at}'.`);
  }
  const context = await createContext(io);
  const source = await context.cody.resolve(options.id);
  const id = await context.cody.startFork(source, {
    ...(through !== undefined ? { atUserTurn: through } : {}),
    activate: true,
  });
  io.stdout.write(`${id}\n`);
  io.stderr.write(`Forked from ${source}${through !== undefined ? ` through user turn ${through}` : ''}\n`);
  return ExitCode.ok;
}
