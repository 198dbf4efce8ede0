/** What every command needs: paths, the conversation manager and the config, created on demand. */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  /** Ephemeral contexts remove their scratch directory here. */
  dispose?: () => Promise<void>;
}

/**
 * `create: false` for commands that only read (list, show, status, export): they never create
 * CODY_HOME, so `cody list` on a fresh machine leaves no trace.
 */
export async function createContext(io: Io, options: { create?: boolean } = {}): Promise<CommandContext> {
  const paths = resolveCodyPaths(io.env);
  if (options.create !== false) await ensureCodyHome(paths);
  const config = await loadConfig(paths.configFile);
  return { io, paths, manager: managerFor(paths, config), config };
}

function managerFor(paths: CodyPaths, config: CodyConfig): ConversationManager {
  return new ConversationManager(paths, {
    cliVersion: CLI_VERSION,
    ...(config.lockTimeoutMs !== undefined ? { lockTimeoutMs: config.lockTimeoutMs } : {}),
  });
}

/**
 * `--ephemeral`: the same config, but conversations live in a private scratch directory that is removed
 * afterwards, so the turn writes no rollout (a continued conversation is copied there first).
 */
export async function ephemeralContext(
  context: CommandContext,
  fromId: string | undefined,
): Promise<CommandContext> {
  const scratch = await mkdtemp(join(tmpdir(), 'cody-ephemeral-'));
  const paths: CodyPaths = {
    ...context.paths,
    home: scratch,
    conversationsDir: join(scratch, 'conversations'),
    activeFile: join(scratch, 'active'),
  };
  await ensureCodyHome(paths);
  const manager = managerFor(paths, context.config);
  if (fromId !== undefined) {
    await copyFile(context.manager.rolloutPath(fromId), manager.rolloutPath(fromId));
    await manager.setActive(fromId);
  }
  return {
    ...context,
    paths,
    manager,
    dispose: () => rm(scratch, { recursive: true, force: true }),
  };
}

/**
 * Opens a conversation's session with the context's manager, config and environment. The session module
 * (and with it zod, the token counter and the provider factory) loads only here, never for `cody list`.
 */
export async function openSession(
  context: CommandContext,
  conversationId: string,
  extra: Pick<
    SessionOptions,
    'tools' | 'onLockWait' | 'canAsk' | 'followConversationPolicy' | 'reasoning'
  > = {},
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
