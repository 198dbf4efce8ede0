/**
 * The conversation store's half of `Cody`: list, resolve, the active conversation, create and start,
 * get, delete, rename, import, fork, the transcript (paged, whole, the recap) and export.
 */
import { checkSelection } from '../selection/index.js';
import { applyTitle, checkTitle, readTitles, writeTitle } from '../store/index.js';
import type { ConversationSummary } from '../rollout/index.js';
import type { Cody } from './cody-api.js';
import type { Engine } from './engine-state.js';
import { draftOpener, openLive } from './open-live.js';

type StoreMethods = Pick<
  Cody,
  | 'list'
  | 'resolve'
  | 'active'
  | 'activate'
  | 'create'
  | 'start'
  | 'draft'
  | 'open'
  | 'get'
  | 'delete'
  | 'rename'
  | 'import'
  | 'fork'
  | 'startFork'
>;

export function storeMethods(engine: Engine): StoreMethods {
  const { load, live } = engine;
  const manager = async (): Promise<Awaited<ReturnType<Engine['load']>>['manager']> => (await load()).manager;
  return {
    list: async (options = {}) => (await manager()).listConversations(options),
    resolve: async (id) => (await manager()).resolveId(id),
    active: async () => (await manager()).getActiveId(),
    activate: async (id) => (await manager()).setActive(id),
    create: async (selection) => {
      if (selection) checkSelection(selection);
      // Never the CLI's active conversation: only a CLI command the person aims at one changes that.
      const store = await load();
      return openLive(
        engine,
        await store.start({ ...(selection ? { choice: selection } : {}), activate: false }),
      );
    },
    start: async (options = {}) => {
      const { selection, ...rest } = options;
      if (selection) checkSelection(selection);
      return (await load()).start({
        ...rest,
        ...(selection ? { choice: selection } : {}),
        activate: options.activate === true,
      });
    },
    draft: draftOpener(engine),
    open: (id) => openLive(engine, id),
    get: (id) => getSummary(engine, id),
    delete: async (id, deleteOptions = {}) => {
      const { manager } = await load();
      const resolved = await manager.resolveId(id);
      await live.end(resolved, deleteOptions.abortRunning === true);
      await manager.deleteConversation(resolved);
    },
    import: async (path, where = {}) => {
      const { id, itemCount } = await (
        await load()
      ).importRollout(path, { activate: where.activate ?? false });
      return { ...(await getSummary(engine, id)), importedItems: itemCount };
    },
    fork: async (id, forkOptions = {}) => openLive(engine, await startFork(engine, id, forkOptions, false)),
    startFork: (id, { activate, ...forkOptions } = {}) => startFork(engine, id, forkOptions, activate),
    rename: async (id, title) => {
      const { manager, paths } = await load();
      const resolved = await manager.resolveId(id);
      await writeTitle(paths.home, resolved, checkTitle(title));
      return getSummary(engine, resolved);
    },
  };
}

/** Writes the fork and returns its id; made the CLI's active conversation only with `activate`. */
async function startFork(
  engine: Engine,
  id: string,
  options: Parameters<Cody['fork']>[1] & object,
  activate: boolean | undefined,
): Promise<string> {
  const { manager } = await engine.load();
  const { forkConversation } = await import('../store/fork.js');
  return forkConversation(manager, await manager.resolveId(id), options, { activate: activate === true });
}

async function getSummary(engine: Engine, id: string): Promise<ConversationSummary> {
  const { manager, paths } = await engine.load();
  const resolved = await manager.resolveId(id);
  const summary = manager.store.summary(resolved);
  applyTitle(summary, readTitles(paths.home));
  return summary;
}
