import type { MessageItem } from '../../protocol/index.js';
import { isRealUserMessage } from '../compact/index.js';
import { messageText } from '../compact/message-text.js';
import type { ConversationManager } from '../conversation-manager.js';
import { UsageError } from '../errors.js';
import { isContextualUserText } from '../rollout/is-contextual-user-text.js';
import { forkConversation } from './fork.js';

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
