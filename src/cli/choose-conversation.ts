/** Which conversation a command (or the REPL) starts on; its own module, so the REPL's prompt does not load `cody chat`. */
import { UsageError } from '../core/index.js';
import type { ChatOptions } from './commands/chat.js';
import type { CommandContext } from './context.js';

/** The conversation a command works on: --conversation, --continue, or the active one. */
export async function chooseConversation(
  context: CommandContext,
  options: Pick<ChatOptions, 'conversation' | 'continueLast' | 'fresh'>,
): Promise<string | undefined> {
  if (options.conversation !== undefined && options.continueLast === true)
    throw new UsageError('Give either --conversation or --continue, not both.');
  if (options.conversation !== undefined) return context.cody.resolve(options.conversation);
  if (options.continueLast === true) {
    const [latest] = await context.cody.list({ limit: 1 });
    if (latest === undefined)
      throw new UsageError('Nothing to continue: there are no saved conversations yet.');
    return latest.id;
  }
  return options.fresh === true ? undefined : context.cody.active();
}
