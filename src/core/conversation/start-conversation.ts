import type { ResponseItem, WireApi } from '../../protocol/index.js';
import type { CodyConfig } from '../config/index.js';
import type { ConversationManager } from '../store/index.js';
import type { SelectionChoice } from './session-surface.js';
import { resolveConversationSelection } from '../selection/index.js';
import { buildSystemMessage } from '../project/index.js';

export interface StartOptions {
  cwd: string;
  tools?: readonly string[];
  now?: Date;
  /** The caller's choice of provider/API/model; else config.json's selection, else the defaults. */
  choice?: SelectionChoice;
  /**
   * Whether it becomes the CLI's active conversation (default true: the CLI's commands and REPL); the
   * library and `cody serve` pass false and never change which one `cody chat` continues.
   */
  activate?: boolean;
}

/** Creates a conversation for the chosen selection, with Cody's initial context; returns its id. */
export async function startConversation(
  manager: ConversationManager,
  config: CodyConfig,
  options: StartOptions,
): Promise<string> {
  const selection = resolveConversationSelection({
    config,
    ...(options.choice ? { choice: options.choice } : {}),
  });
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
    activate: options.activate !== false,
  });
  return id;
}

/**
 * Imports a Codex rollout as a new conversation whose turns run with Cody's own instructions: Codex's
 * history is kept, Codex's harness instructions are not sent. Returns its id. `activate` as above.
 */
export async function importConversation(
  manager: ConversationManager,
  options: { path: string; cwd: string; tools?: readonly string[]; now?: Date; activate?: boolean },
): Promise<{ id: string; itemCount: number }> {
  const instructions = buildSystemMessage({
    cwd: options.cwd,
    date: options.now ?? new Date(),
    tools: options.tools ?? [],
  });
  const { id, itemCount } = await manager.importCodexRollout(options.path, {
    instructions,
    activate: options.activate !== false,
  });
  return { id, itemCount };
}

/**
 * A new conversation held in memory until its first turn: the items it starts with, and `create`, which
 * writes its rollout (with the selection in force then) under the id chosen now.
 */
export function conversationDraft(
  manager: ConversationManager,
  options: { id: string; cwd: string; tools?: readonly string[]; now?: Date; activate?: boolean },
): {
  initialItems: ResponseItem[];
  create: (selection: { provider: string; api: WireApi; model: string }) => Promise<void>;
} {
  const system = buildSystemMessage({
    cwd: options.cwd,
    date: options.now ?? new Date(),
    tools: options.tools ?? [],
  });
  return {
    initialItems: [system],
    create: async (selection) => {
      await manager.newConversation({
        id: options.id,
        provider: selection.provider,
        api: selection.api,
        model: selection.model,
        cwd: options.cwd,
        initialItems: [system],
        activate: options.activate !== false,
      });
    },
  };
}
