import { UsageError } from '../../core/errors.js';
import type { CommandContext } from '../context.js';

/** The conversation a command works on: `-c id|prefix`, else the active one. */
export async function resolveConversationId(
  context: CommandContext,
  given: string | undefined,
): Promise<string> {
  const id =
    given !== undefined ? await context.manager.resolveId(given) : await context.manager.getActiveId();
  if (id === undefined)
    throw new UsageError('No active conversation: start one with cody chat, or pass -c <id>.');
  return id;
}
