/**
 * The engine as a library: `createCody({ home, env, cwd })` is the conversation store (list, create,
 * get, delete, import, fork, transcript, export, undo, diff) and hands out live conversations (`open`).
 * Every front end — the CLI, `cody serve`, a program embedding Cody — does everything through it
 * (its API: cody-api.ts).
 *
 * Live conversations are registered per process (live-conversations.ts): `open(id)` twice gives the same
 * handle, so one turn at a time per conversation holds for everyone in the process (a second submit is
 * refused with 'busy'), and an approval request is answered by its id alone (`respond`).
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type CodyConfig } from '../config/index.js';
import { LiveConversations } from './live-conversations.js';
import { ConversationManager } from '../store/index.js';
import { ensureCodyHome, resolveCodyPaths, type CodyPaths } from '../config/index.js';
import { engineRuntime } from './engine-runtime.js';
import type { Cody, CreateCodyOptions } from './cody-api.js';
import type { Engine, OpenedStore } from './engine-state.js';
import { storeMethods } from './store-methods.js';
import { historyMethods } from './history-methods.js';
import { settingMethods } from './setting-methods.js';
import { lazyLive, type EngineLiveOptions } from '../live-channel/index.js';

export type { Cody, CreateCodyOptions } from './cody-api.js';

export function createCody(options: CreateCodyOptions = {}): Cody {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const homePaths = resolveCodyPaths(options.home !== undefined ? { ...env, CODY_HOME: options.home } : env);
  let scratch: string | undefined;
  let store: Promise<OpenedStore> | undefined;
  const load = (): Promise<OpenedStore> =>
    (store ??= openStore(options, homePaths, env, cwd).then((opened) => {
      scratch = opened.scratch;
      return opened.store;
    }));
  const live = new LiveConversations(
    options.idleCloseMs !== undefined ? { idleCloseMs: options.idleCloseMs } : {},
  );
  const engine: Engine = {
    options,
    env,
    cwd,
    load,
    live,
    // Every turn is offered to other processes on the live channel (not an ephemeral conversation's).
    liveChannel: lazyLive(liveOptions(options, homePaths.home, env, load)),
    closing: new Set(),
    home: homePaths.home,
  };
  const cody: Cody = {
    ...storeMethods(engine),
    ...historyMethods(engine),
    ...settingMethods(engine),
    abort: (id) => live.abort(id),
    respond: (approvalId, decision, reason) => live.respond(approvalId, decision, reason),
    hold: (id) => live.hold(id),
    onClose: (listener) => live.onClose(listener),
    watchLive: (id, onRun) => engine.liveChannel.watch(id, onRun),
    close: async () => {
      engine.liveChannel.close();
      await live.closeAll();
      await Promise.all(engine.closing);
      if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
    },
  };
  return cody;
}

/**
 * What the engine's live channel needs: where it lives, and the engine's secrets to redact with; none
 * for an ephemeral engine (its conversations are nobody else's).
 */
function liveOptions(
  options: CreateCodyOptions,
  home: string,
  env: Readonly<Record<string, string | undefined>>,
  load: () => Promise<{ config: CodyConfig }>,
): EngineLiveOptions | undefined {
  if (options.ephemeral) return undefined;
  return {
    home,
    env,
    secrets: options.secrets ?? [],
    patterns: async () => (await load()).config.redact ?? [],
  };
}

/** Reads config.json, turns it into the runtime, and opens the conversation store (a scratch one with `ephemeral`). */
async function openStore(
  options: CreateCodyOptions,
  homePaths: CodyPaths,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Promise<{ store: OpenedStore; scratch?: string }> {
  let paths = homePaths;
  let scratch: string | undefined;
  const config = await loadConfig(homePaths.configFile);
  const runtime = engineRuntime(config, {
    cwd,
    env,
    home: homePaths.home,
    version: options.version ?? 'library',
    approvalPolicy: options.approvalPolicy,
    approvalTimeoutMs: options.approvalTimeoutMs,
    unconfined: options.unconfined,
    tools: options.tools,
    onNotice: options.onNotice,
    editorFiles: options.editorFiles,
    mcpServers: options.mcpServers,
  });
  if (options.ephemeral) {
    scratch = await mkdtemp(join(tmpdir(), 'cody-ephemeral-'));
    paths = await scratchPaths(homePaths, scratch);
  }
  const manager = new ConversationManager(paths, runtime.managerOptions);
  const from = typeof options.ephemeral === 'object' ? options.ephemeral.from : undefined;
  if (from !== undefined) {
    const home = new ConversationManager(homePaths, runtime.managerOptions);
    await copyFile(home.rolloutPath(from), manager.rolloutPath(from));
    await manager.setActive(from);
  }
  const store: OpenedStore = {
    paths,
    config,
    manager,
    runtime,
    start: async (start = {}) => {
      await ensureCodyHome(paths);
      const { startConversation } = await import('../conversation/start-conversation.js');
      // config.json as it is now: a provider set since the engine started is the new conversation's.
      return startConversation(manager, start.config ?? (await loadConfig(homePaths.configFile)), {
        cwd,
        tools: await runtime.toolNames(),
        ...(start.choice ? { choice: start.choice } : {}),
        ...(start.activate !== undefined ? { activate: start.activate } : {}),
      });
    },
    importRollout: async (path, where = {}) => {
      const { importConversation } = await import('../conversation/start-conversation.js');
      return importConversation(manager, {
        path,
        cwd,
        tools: await runtime.toolNames(),
        ...(where.activate !== undefined ? { activate: where.activate } : {}),
      });
    },
  };
  return { store, ...(scratch !== undefined ? { scratch } : {}) };
}

/** The home's paths with conversations (and the active pointer) in a scratch directory. */
async function scratchPaths(home: CodyPaths, scratch: string): Promise<CodyPaths> {
  const paths: CodyPaths = {
    ...home,
    home: scratch,
    conversationsDir: join(scratch, 'conversations'),
    activeFile: join(scratch, 'active'),
  };
  await ensureCodyHome(paths);
  return paths;
}
