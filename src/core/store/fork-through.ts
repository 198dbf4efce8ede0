import type { ConversationManager } from './conversation-manager.js';
import { forkConversation } from './fork.js';

/**
 * A fork holding the history up to and including user turn `through` (all of it when undefined): the
 * meaning `atUserTurn` has everywhere (library, HTTP, `cody fork --at`, `/fork`).
 */
export async function forkThrough(
  manager: ConversationManager,
  id: string,
  through: number | undefined,
): Promise<string> {
  return forkConversation(manager, id, through === undefined ? {} : { atUserTurn: through });
}
