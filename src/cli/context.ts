/** What every command needs: paths, the conversation manager and the config, created on demand. */
import { loadConfig, type CodyConfig } from '../core/config.js';
import { ConversationManager } from '../core/conversation-manager.js';
import { ensureCodyHome, resolveCodyPaths, type CodyPaths } from '../core/paths.js';
import type { Session, SessionOptions } from '../core/session.js';
import type { Io } from './io.js';
import { CLI_VERSION } from './version.js';

export interface CommandContext {
  io: Io;
  paths: CodyPaths;
  manager: ConversationManager;
  config: CodyConfig;
}

export async function createContext(io: Io): Promise<CommandContext> {
  const paths = resolveCodyPaths(io.env);
  await ensureCodyHome(paths);
  const config = await loadConfig(paths.configFile);
  const manager = new ConversationManager(paths, {
    cliVersion: CLI_VERSION,
    ...(config.lockTimeoutMs !== undefined ? { lockTimeoutMs: config.lockTimeoutMs } : {}),
  });
  return { io, paths, manager, config };
}

/**
 * Opens a conversation's session with the context's manager, config and environment. The session module
 * (and with it zod, the token counter and the provider factory) loads only here, never for `cody list`.
 */
export async function openSession(
  context: CommandContext,
  conversationId: string,
  extra: Pick<SessionOptions, 'tools' | 'onLockWait'> = {},
): Promise<Session> {
  const { Session } = await import('../core/session.js');
  return Session.open({
    manager: context.manager,
    conversationId,
    config: context.config,
    env: context.io.env,
    cwd: context.io.cwd,
    ...extra,
  });
}
