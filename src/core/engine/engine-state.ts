/**
 * What the engine's parts share inside core: the store opened once per `Cody` (paths, config, the
 * conversation manager, the runtime) and the live conversations. No front end sees any of it: they go
 * through `Cody` (cody-api.ts).
 */
import type { CodyConfig, CodyPaths } from '../config/index.js';
import type { SelectionChoice } from '../conversation/index.js';
import type { ConversationManager } from '../store/index.js';
import type { LazyLive } from '../live-channel/index.js';
import type { HookSet } from '../hooks/index.js';
import type { CreateCodyOptions } from './cody-api.js';
import type { EngineRuntime } from './engine-runtime.js';
import type { LiveConversations } from './live-conversations.js';

export interface OpenedStore {
  paths: CodyPaths;
  config: CodyConfig;
  manager: ConversationManager;
  runtime: EngineRuntime;
  /**
   * Creates a conversation without opening it; returns its id. With `choice` (a caller's provider, API,
   * model) or `config` (a config changed since it was read, as `cody new --model` saves it) instead of
   * the store's config; made the CLI's active conversation unless `activate: false`.
   */
  start(options?: { choice?: SelectionChoice; config?: CodyConfig; activate?: boolean }): Promise<string>;
  /** Imports a Codex rollout as a new conversation (made active unless `activate: false`). */
  importRollout(path: string, where?: { activate?: boolean }): Promise<{ id: string; itemCount: number }>;
}

/** What the engine's parts share: its options, where it runs, its store (opened once) and its live conversations. */
export interface Engine {
  options: CreateCodyOptions;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  load: () => Promise<OpenedStore>;
  live: LiveConversations;
  liveChannel: LazyLive;
  /** Tool runtimes of closed conversations still shutting down. */
  closing: Set<Promise<unknown>>;
  /** The real home (an ephemeral engine's too): where trusted project hooks are recorded. */
  home: string;
  /** The engine's hooks, made at the first conversation opened (or the first `hooks()`). */
  hookSet?: Promise<HookSet>;
}
