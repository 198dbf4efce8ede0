/**
 * Conversations as files: create, resolve ids and prefixes, list, resume, delete, import. The heavy
 * modules (zod-validated reader, recorder, importer) are loaded only by the operations that need them,
 * so `cody list` pays for none of them.
 */
import { statSync } from 'node:fs';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MessageItem, ResponseItem, WireApi } from '../../protocol/index.js';
import { assertValidConversationIdOrPrefix, isConversationId, newConversationId } from './conversation-id.js';
import { conversationIds, listConversations, readActiveId, ROLLOUT_SUFFIX } from './conversation-list.js';
import {
  AmbiguousConversationError,
  errorMessage,
  StorageError,
  UnknownConversationError,
} from '../errors.js';
import { type CodyPaths, ensureCodyHome } from '../config/index.js';
import type { ResumedRollout } from '../rollout/index.js';
import type { ConversationSummary } from '../rollout/index.js';
import { codexModelProvider } from '../rollout/index.js';
import { RolloutStore } from '../rollout/index.js';

export type { ConversationSummary } from '../rollout/index.js';

export interface ConversationManagerOptions {
  /** Recorded in each new rollout's session_meta. */
  cliVersion: string;
  /** Clock for ids and timestamps. */
  now?: () => Date;
  /** How long to wait for another process's lock (see `DEFAULT_LOCK_TIMEOUT_MS`). */
  lockTimeoutMs?: number;
}

export interface NewConversationOptions {
  provider: string;
  api: WireApi;
  model: string;
  /** Codex's `model_provider`; by default `openai` for OpenAI and none otherwise (`codexModelProvider`). */
  modelProvider?: string;
  cwd: string;
  /** Written right after session_meta (e.g. the system message). */
  initialItems?: ResponseItem[];
  /** A fork: the conversation it branched from, and the user message it branched at (if not the end). */
  forkedFrom?: { id: string; message?: string };
  /** Make it the CLI's active conversation (default true; the library and `cody serve` pass false). */
  activate?: boolean;
  /** The id, chosen earlier (a conversation shown before its first message); default a new one. */
  id?: string;
}

function modelProviderField(modelProvider: string | undefined): { model_provider?: string } {
  return modelProvider !== undefined ? { model_provider: modelProvider } : {};
}
/** The `active` file holds secrets no more than ids do, but CODY_HOME is private throughout. */
const ACTIVE_FILE_MODE = 0o600;

export class ConversationManager {
  readonly paths: CodyPaths;
  private readonly options: ConversationManagerOptions;
  /** The rollout files: every open for append and every read goes through it. */
  readonly store: RolloutStore;

  constructor(paths: CodyPaths, options: ConversationManagerOptions) {
    this.paths = paths;
    this.options = options;
    this.store = new RolloutStore(paths.conversationsDir);
  }

  rolloutPath(id: string): string {
    return this.store.path(id);
  }

  /** Creates the rollout (session_meta and the initial items) and, unless told not to, makes it active. */
  async newConversation(options: NewConversationOptions): Promise<{ id: string; filePath: string }> {
    await ensureCodyHome(this.paths);
    const now = this.now();
    const id = options.id ?? newConversationId(now.getTime());
    const filePath = this.rolloutPath(id);
    const recorder = await this.store.create(
      id,
      {
        id,
        timestamp: now.toISOString(),
        cwd: options.cwd,
        originator: 'cody',
        cli_version: this.options.cliVersion,
        provider: options.provider,
        api: options.api,
        model: options.model,
        ...modelProviderField(options.modelProvider ?? codexModelProvider(options.provider)),
        ...(options.forkedFrom
          ? {
              parent_id: options.forkedFrom.id,
              // The name issue 10 (and Codex's SessionMeta) give the origin of a fork.
              forked_from_id: options.forkedFrom.id,
              ...(options.forkedFrom.message !== undefined
                ? { forked_at_message: options.forkedFrom.message }
                : {}),
            }
          : {}),
      },
      { now: () => this.now() },
    );
    try {
      await recorder.appendItems(options.initialItems ?? []);
    } finally {
      await recorder.close();
    }
    if (options.activate !== false) await this.setActive(id);
    return { id, filePath };
  }

  /**
   * An exact id, or a prefix matching exactly one conversation. A whole id is looked up by its file
   * name alone; only a prefix lists the directory (every file name of a store of thousands).
   */
  async resolveId(idOrPrefix: string): Promise<string> {
    const wanted = assertValidConversationIdOrPrefix(idOrPrefix);
    if (isConversationId(wanted)) {
      if (this.exists(wanted)) return wanted;
      throw new UnknownConversationError(idOrPrefix);
    }
    const ids = conversationIds(this.paths.conversationsDir);
    if (ids.includes(wanted)) return wanted;
    const matches = ids.filter((id) => id.startsWith(wanted));
    if (matches.length === 1 && matches[0] !== undefined) return matches[0];
    if (matches.length > 1) throw new AmbiguousConversationError(idOrPrefix, matches.sort());
    throw new UnknownConversationError(idOrPrefix);
  }

  /** The live history and state of a conversation (does not change the active one). */
  async resumeConversation(idOrPrefix: string): Promise<ResumedRollout & { id: string; filePath: string }> {
    const id = await this.resolveId(idOrPrefix);
    const filePath = this.rolloutPath(id);
    return { ...(await this.store.readForResume(id)), id, filePath };
  }

  async setActive(id: string): Promise<void> {
    try {
      await writeFile(this.paths.activeFile, `${id}\n`, { mode: ACTIVE_FILE_MODE });
    } catch (error) {
      throw new StorageError(`Cannot write ${this.paths.activeFile}: ${errorMessage(error)}`, {
        cause: error,
      });
    }
  }

  /** The active conversation, if it still exists. */
  async getActiveId(): Promise<string | undefined> {
    return readActiveId(this.paths);
  }

  /** Newest activity first, from each file's head and tail only; unreadable files carry a `problem`. */
  async listConversations(options: { limit?: number } = {}): Promise<ConversationSummary[]> {
    return listConversations(this.paths, options);
  }

  /**
   * Removes the rollout with its lock and torn-line sidecars, and clears `active` if it pointed there.
   * Waits for a writer in another process to finish its turn first.
   */
  async deleteConversation(idOrPrefix: string): Promise<string> {
    const id = await this.resolveId(idOrPrefix);
    const filePath = this.rolloutPath(id);
    const { acquireConversationLock } = await import('../rollout/lock.js');
    const release = await acquireConversationLock(filePath, {
      ...(this.options.lockTimeoutMs !== undefined ? { timeoutMs: this.options.lockTimeoutMs } : {}),
    });
    try {
      const sidecars = (await readdir(this.paths.conversationsDir)).filter((name) =>
        name.startsWith(`${id}${ROLLOUT_SUFFIX}.torn-`),
      );
      await rm(filePath, { force: true });
      for (const name of sidecars) await rm(join(this.paths.conversationsDir, name), { force: true });
    } catch (error) {
      throw new StorageError(`Cannot delete ${filePath}: ${errorMessage(error)}`, { cause: error });
    } finally {
      await release(); // removes `<file>.lock`
    }
    if ((await this.getActiveId()) === undefined) await rm(this.paths.activeFile, { force: true });
    return id;
  }

  /**
   * Imports a Codex rollout as a new conversation and (unless told not to) makes it the active one. `instructions` (Cody's
   * system message) replace Codex's harness instructions for the turns Cody runs.
   */
  async importCodexRollout(
    sourcePath: string,
    options: { instructions?: MessageItem; activate?: boolean } = {},
  ): Promise<{ id: string; filePath: string; itemCount: number }> {
    await ensureCodyHome(this.paths);
    const { importCodexRollout } = await import('../rollout/codex-import.js');
    const now = this.now();
    const id = newConversationId(now.getTime());
    const filePath = this.rolloutPath(id);
    const imported = await importCodexRollout(sourcePath, filePath, {
      id,
      cliVersion: this.options.cliVersion,
      now: () => this.now(),
      ...(options.instructions ? { instructions: options.instructions } : {}),
    });
    if (options.activate !== false) await this.setActive(id);
    return { id, filePath, itemCount: imported.itemCount };
  }

  /** Whether the conversation's rollout file is there (a missing store is no conversation). */
  private exists(id: string): boolean {
    const path = this.store.path(id);
    try {
      return statSync(path, { throwIfNoEntry: false }) !== undefined;
    } catch (error) {
      throw new StorageError(`Cannot read ${path}: ${errorMessage(error)}`, { cause: error });
    }
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }
}
