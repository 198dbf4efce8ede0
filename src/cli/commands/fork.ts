import { UsageError } from '../../core/errors.js';
import { ExitCode } from '../exit-codes.js';
import { forkConversation } from '../../core/store/fork.js';
import type { MessageItem } from '../../protocol/index.js';
import { isRealUserMessage } from '../../core/compact/index.js';
import { messageText } from '../../core/compact/message-text.js';
import type { ConversationManager } from '../../core/conversation-manager.js';
import { isContextualUserText } from '../../core/rollout/is-contextual-user-text.js';
import { createContext } from '../context.js';
import type { Io } from '../io.js';

/**
 * A fork holding the history up to and including user turn `through` (all of it when undefined). The
 * store branches *at* a user message (keeping what came before it), so "through N" is "at N + 1", or
 * the whole history when N is the last turn.
 */
export async function forkThrough(
  manager: ConversationManager,
  id: string,
  through: number | undefined,
): Promise<string> {
  if (through === undefined) return forkConversation(manager, id, {});
  const { history } = await manager.resumeConversation(id);
  const turns = history.filter(
    (item) => isRealUserMessage(item) && !isContextualUserText(messageText(item as MessageItem)),
  ).length;
  if (through > turns)
    throw new UsageError(
      `--at ${through}: the conversation has ${turns} user turn${turns === 1 ? '' : 's'}.`,
    );
  return forkConversation(manager, id, through === turns ? {} : { atUserTurn: through + 1 });
}

/** `cody fork <id> [--at N]`: prints the new conversation's id (made active), like `cody new`. */
export async function runFork(options: { id: string; at?: string }, io: Io): Promise<number> {
  let through: number | undefined;
  if (options.at !== undefined) {
    through = Number(options.at);
    if (!Number.isInteger(through) || through < 1)
      throw new UsageError(`--at must be a user turn number (1 or more), not '${options.at}'.`);
  }
  const context = await createContext(io);
  const source = await context.manager.resolveId(options.id);
  const id = await forkThrough(context.manager, source, through);
  io.stdout.write(`${id}\n`);
  io.stderr.write(`Forked from ${source}${through !== undefined ? ` through user turn ${through}` : ''}\n`);
  return ExitCode.ok;
}
