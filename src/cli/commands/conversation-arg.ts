import { UsageError } from '../../core/index.js';
import type { CommandContext } from '../context.js';

/** The conversation a command works on: `-c id|prefix`, else the active one. */
export async function resolveConversationId(
  context: CommandContext,
  given: string | undefined,
): Promise<string> {
  const id = given !== undefined ? await context.cody.resolve(given) : await context.cody.active();
  if (id === undefined)
    throw new UsageError('No active conversation: start one with cody chat, or pass -c <id>.');
  return id;
}
