import type { CodyConfig } from './config.js';
import { resolveSelection } from './config.js';
import type { ConversationManager } from './conversation-manager.js';
import { buildSystemMessage } from './system-prompt.js';

/** Creates a conversation for the configured selection, with Cody's initial context; returns its id. */
export async function startConversation(
  manager: ConversationManager,
  config: CodyConfig,
  options: { cwd: string; tools?: readonly string[]; now?: Date },
): Promise<string> {
  const selection = resolveSelection(config);
  const system = buildSystemMessage({
    cwd: options.cwd,
    date: options.now ?? new Date(),
    tools: options.tools ?? [],
  });
  const { id } = await manager.newConversation({
    provider: selection.provider,
    api: selection.api,
    model: selection.model,
    modelProvider: selection.provider,
    cwd: options.cwd,
    initialItems: [system],
  });
  return id;
}
