/**
 * What `Cody` tells of its setting rather than of a conversation: the config it read and its paths, the
 * approval policy new conversations start with, each provider's sign-in, the MCP servers' state, the
 * workspace's hooks (and trusting its `.cody/hooks.json`).
 */
import { authStatus } from '../auth/index.js';
import type { Cody } from './cody-api.js';
import type { Engine } from './engine-state.js';
import { hookSetOf } from './engine-hooks.js';

type SettingMethods = Pick<
  Cody,
  'settings' | 'startingApproval' | 'signIns' | 'mcpStatus' | 'hooks' | 'trustProjectHooks'
>;

export function settingMethods(engine: Engine): SettingMethods {
  const { load } = engine;
  return {
    settings: async () => {
      const { config, paths } = await load();
      return { config, paths };
    },
    startingApproval: async () => {
      const { runtime } = await load();
      return { policy: runtime.startingPolicy, unconfined: () => runtime.unconfinedWarning() };
    },
    signIns: async (options = {}) => {
      const { config, paths } = await load();
      return authStatus(config, engine.env, paths.home, { offline: options.offline === true });
    },
    mcpStatus: async () => {
      const { config } = await load();
      const servers = config.mcpServers ?? {};
      if (Object.keys(servers).length === 0) return [];
      // The MCP client loads only here.
      const { McpManager } = await import('../mcp/mcp-manager.js');
      const manager = new McpManager({
        servers,
        cwd: engine.cwd,
        clientVersion: engine.options.version ?? 'library',
      });
      try {
        await manager.prepare();
        return manager.status();
      } finally {
        await manager.close();
      }
    },
    hooks: async () => (await hookSetOf(engine)).listing(),
    trustProjectHooks: async (sha256) => (await hookSetOf(engine)).trustProject(sha256),
  };
}
