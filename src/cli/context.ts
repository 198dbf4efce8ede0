/** What every command needs: paths, the conversation manager and the config, created on demand. */
import { loadConfig, type CodyConfig } from '../core/config.js';
import { ConversationManager } from '../core/conversation-manager.js';
import { ensureCodyHome, resolveCodyPaths, type CodyPaths } from '../core/paths.js';
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
