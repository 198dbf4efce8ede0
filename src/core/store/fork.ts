/**
 * Forking: a new conversation that starts with another's history, whole, up to a user turn of the live
 * history, or as it stood after any typed user message of the transcript (rollout/history-at-entry.ts).
 */
import type { MessageItem, ResponseItem } from '../../protocol/index.js';
import { messageText } from '../rollout/index.js';
import type { ConversationManager } from './conversation-manager.js';
import { UsageError } from '../errors.js';
import { isTypedUserMessage } from '../rollout/index.js';
import type { ForkOptions } from './fork-options.js';

export type { ForkOptions };

/** Creates the fork and returns its id; made the CLI's active conversation unless `activate` is false. */
export async function forkConversation(
  manager: ConversationManager,
  parentId: string,
  options: ForkOptions,
  where: { activate?: boolean } = {},
): Promise<string> {
  if (options.atUserTurn !== undefined && options.atEntry !== undefined)
    throw new UsageError('Fork at a user turn or at a transcript entry, not both.');
  const parent = await manager.resumeConversation(parentId);
  const atEntry =
    options.atEntry !== undefined
      ? await manager.store.historyAtEntry(parent.id, options.atEntry)
      : undefined;
  const { items, message } =
    atEntry === undefined || 'userTurn' in atEntry
      ? branchPoint(parent.history, atEntry?.userTurn ?? options.atUserTurn)
      : atEntry;
  const context = parent.lastTurnContext;
  const { id } = await manager.newConversation({
    provider: context?.provider ?? parent.meta.provider,
    api: (context?.api ?? parent.meta.api) as Parameters<ConversationManager['newConversation']>[0]['api'],
    model: context?.model ?? parent.meta.model,
    cwd: parent.meta.cwd,
    initialItems: items,
    forkedFrom: { id: parentId, ...(message !== undefined ? { message } : {}) },
    activate: where.activate !== false,
  });
  return id;
}

/**
 * What a fork keeps: user turns 1..`throughUserTurn` and everything they led to (the whole history when
 * undefined or the last turn), and the text of the first user message left out (where it branched).
 */
function branchPoint(
  history: readonly ResponseItem[],
  throughUserTurn: number | undefined,
): { items: ResponseItem[]; message?: string } {
  if (throughUserTurn === undefined) return { items: [...history] };
  const userTurns = history
    .map((item, index) => ({ item, index }))
    .filter(
      (entry): entry is { item: MessageItem; index: number } =>
        entry.item.type === 'message' && isTypedUserMessage(entry.item),
    );
  if (!Number.isInteger(throughUserTurn) || throughUserTurn < 1 || throughUserTurn > userTurns.length) {
    const count = userTurns.length;
    throw new UsageError(
      `Cannot fork through user turn ${throughUserTurn}: the conversation has ${count} user turn${count === 1 ? '' : 's'} (count from 1).`,
    );
  }
  const next = userTurns[throughUserTurn];
  if (!next) return { items: [...history] };
  return { items: history.slice(0, next.index), message: messageText(next.item) };
}
