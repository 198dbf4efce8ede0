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
    cwd: options.cwd,
    initialItems: [system],
  });
  return id;
}

/**
 * Imports a Codex rollout as a new conversation (made active) whose turns run with Cody's own
 * instructions: Codex's history is kept, Codex's harness instructions are not sent. Returns its id.
 */
export async function importConversation(
  manager: ConversationManager,
  options: { path: string; cwd: string; tools?: readonly string[]; now?: Date },
): Promise<{ id: string; itemCount: number }> {
  const instructions = buildSystemMessage({
    cwd: options.cwd,
    date: options.now ?? new Date(),
    tools: options.tools ?? [],
  });
  const { id, itemCount } = await manager.importCodexRollout(options.path, { instructions });
  return { id, itemCount };
}
