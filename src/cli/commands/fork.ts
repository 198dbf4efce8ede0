import { forkConversation } from '../../core/conversation-fork.js';
import { ExitCode, UsageError } from '../../core/errors.js';
import { createContext } from '../context.js';
import type { Io } from '../io.js';

/** `cody fork <id> [--at N]`: prints the new conversation's id (made active), like `cody new`. */
export async function runFork(options: { id: string; at?: string }, io: Io): Promise<number> {
  let atUserTurn: number | undefined;
  if (options.at !== undefined) {
    atUserTurn = Number(options.at);
    if (!Number.isInteger(atUserTurn) || atUserTurn < 1)
      throw new UsageError(`--at must be a user turn number (1 or more), not '${options.at}'.`);
  }
  const context = await createContext(io);
  const id = await forkConversation(
    context.manager,
    options.id,
    atUserTurn !== undefined ? { atUserTurn } : {},
  );
  io.stdout.write(`${id}\n`);
  io.stderr.write(
    `Forked from ${await context.manager.resolveId(options.id)}${atUserTurn !== undefined ? ` at user turn ${atUserTurn}` : ''}\n`,
  );
  return ExitCode.ok;
}
