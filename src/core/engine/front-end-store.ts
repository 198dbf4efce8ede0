/**
 * What this package's front ends read beside conversations: the paths, the config and the conversation
 * store behind a `Cody`. Kept out of cody.ts so the library's type declarations never reach the config
 * schema or the conversation manager.
 */
import type { Cody } from './cody.js';
import type { CodyConfig } from '../config/index.js';
import type { Conversation } from '../conversation/index.js';
import type { SelectionChoice } from '../conversation/index.js';
import type { ConversationManager } from '../store/index.js';
import type { EngineRuntime } from './engine-runtime.js';
import { CodyError } from '../errors.js';
import type { CodyPaths } from '../config/index.js';

export interface Store {
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
  /**
   * A new conversation shown before it exists: its id now, the live conversation from `open()`; its
   * rollout is written (and made the CLI's active conversation unless `activate: false`) when its first
   * turn starts, so one nobody speaks in leaves nothing behind.
   */
  draft(options?: { choice?: SelectionChoice; activate?: boolean }): {
    id: string;
    open(): Promise<Conversation>;
  };
  /** Imports a Codex rollout as a new conversation (made active unless `activate: false`). */
  importRollout(path: string, where?: { activate?: boolean }): Promise<{ id: string; itemCount: number }>;
}

const stores = new WeakMap<object, () => Promise<Store>>();

/** Called by createCody for each engine it makes. */
export function registerStore(cody: object, load: () => Promise<Store>): void {
  stores.set(cody, load);
}

/** The store behind a `Cody` (for this package's front ends; not part of the library API). */
export function storeOf(cody: Cody): Promise<Store> {
  const load = stores.get(cody);
  if (!load) throw new CodyError('Not a Cody created by createCody.', 'internal');
  return load();
}
