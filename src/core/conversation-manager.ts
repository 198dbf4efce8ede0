/**
 * Conversations as files: create, resolve ids and prefixes, list, resume, delete, import. The heavy
 * modules (zod-validated reader, recorder, importer) are loaded only by the operations that need them,
 * so `cody list` pays for none of them.
 */
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResponseItem, WireApi } from '../protocol/index.js';
import { assertValidConversationIdOrPrefix, newConversationId } from './conversation-id.js';
import {
  AmbiguousConversationError,
  errorMessage,
  isErrno,
  StorageError,
  UnknownConversationError,
} from './errors.js';
import type { CodyPaths } from './paths.js';
import type { ResumedRollout } from './rollout/reader.js';
import { type ConversationSummary, readConversationSummary } from './rollout/summary-reader.js';

export type { ConversationSummary } from './rollout/summary-reader.js';

export interface ConversationManagerOptions {
  cliVersion: string;
  now?: () => Date;
  lockTimeoutMs?: number;
}

export interface NewConversationOptions {
  provider: string;
  api: WireApi;
  model: string;
  modelProvider?: string;
  cwd: string;
  initialItems?: ResponseItem[];
}

const ROLLOUT_SUFFIX = '.jsonl';

export class ConversationManager {
  readonly paths: CodyPaths;
  private readonly options: ConversationManagerOptions;

  constructor(paths: CodyPaths, options: ConversationManagerOptions) {
    this.paths = paths;
    this.options = options;
  }

  rolloutPath(id: string): string {
    return join(this.paths.conversationsDir, `${id}${ROLLOUT_SUFFIX}`);
  }

  async newConversation(options: NewConversationOptions): Promise<{ id: string; filePath: string }> {
    const { RolloutRecorder } = await import('./rollout/recorder.js');
    const now = this.now();
    const id = newConversationId(now.getTime());
    const filePath = this.rolloutPath(id);
    const recorder = await RolloutRecorder.create(
      filePath,
      {
        id,
        timestamp: now.toISOString(),
        cwd: options.cwd,
        originator: 'cody',
        cli_version: this.options.cliVersion,
        provider: options.provider,
        api: options.api,
        model: options.model,
        model_provider: options.modelProvider ?? options.provider,
      },
      { now: () => this.now() },
    );
    try {
      await recorder.appendItems(options.initialItems ?? []);
    } finally {
      await recorder.close();
    }
    await this.setActive(id);
    return { id, filePath };
  }

  /** An exact id, or a prefix matching exactly one conversation. */
  async resolveId(idOrPrefix: string): Promise<string> {
    const wanted = assertValidConversationIdOrPrefix(idOrPrefix);
    const ids = await this.allIds();
    if (ids.includes(wanted)) return wanted;
    const matches = ids.filter((id) => id.startsWith(wanted));
    if (matches.length === 1 && matches[0] !== undefined) return matches[0];
    if (matches.length > 1) throw new AmbiguousConversationError(idOrPrefix, matches.sort());
    throw new UnknownConversationError(idOrPrefix);
  }

  async resumeConversation(idOrPrefix: string): Promise<ResumedRollout & { id: string; filePath: string }> {
    const id = await this.resolveId(idOrPrefix);
    const filePath = this.rolloutPath(id);
    const { readRolloutForResume } = await import('./rollout/reader.js');
    return { ...(await readRolloutForResume(filePath)), id, filePath };
  }

  async setActive(id: string): Promise<void> {
    try {
      await writeFile(this.paths.activeFile, `${id}\n`, { mode: 0o600 });
    } catch (error) {
      throw new StorageError(`Cannot write ${this.paths.activeFile}: ${errorMessage(error)}`, {
        cause: error,
      });
    }
  }

  /** The active conversation, if it still exists. */
  async getActiveId(): Promise<string | undefined> {
    let text: string;
    try {
      text = (await readFile(this.paths.activeFile, 'utf8')).trim();
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return undefined;
      throw new StorageError(`Cannot read ${this.paths.activeFile}: ${errorMessage(error)}`, {
        cause: error,
      });
    }
    if (!/^[0-9a-f-]{36}$/.test(text)) return undefined;
    try {
      await stat(this.rolloutPath(text));
      return text;
    } catch {
      return undefined;
    }
  }

  /** Newest activity first; each file's head and tail only. */
  async listConversations(options: { limit?: number } = {}): Promise<ConversationSummary[]> {
    const ids = await this.allIds();
    const summaries = ids.map((id) => readConversationSummary(this.rolloutPath(id)));
    // ISO timestamps and UUIDv7 ids sort correctly as plain strings (and much faster than localeCompare).
    const key = (summary: ConversationSummary): string => `${summary.updatedAt} ${summary.id}`;
    summaries.sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0));
    return options.limit !== undefined ? summaries.slice(0, options.limit) : summaries;
  }

  async deleteConversation(idOrPrefix: string): Promise<string> {
    const id = await this.resolveId(idOrPrefix);
    const filePath = this.rolloutPath(id);
    const siblings = (await readdir(this.paths.conversationsDir)).filter(
      (name) => name.startsWith(`${id}${ROLLOUT_SUFFIX}`) && name !== `${id}${ROLLOUT_SUFFIX}`,
    );
    await rm(filePath, { force: true });
    for (const name of siblings)
      await rm(join(this.paths.conversationsDir, name), { recursive: true, force: true });
    if ((await this.getActiveId()) === undefined) await rm(this.paths.activeFile, { force: true });
    return id;
  }

  async importCodexRollout(sourcePath: string): Promise<{ id: string; filePath: string; itemCount: number }> {
    const [{ readCodexRollout, importedMeta, writeCodexRecords }, { RolloutRecorder }] = await Promise.all([
      import('./rollout/codex-import.js'),
      import('./rollout/recorder.js'),
    ]);
    const rollout = await readCodexRollout(sourcePath);
    const now = this.now();
    const id = newConversationId(now.getTime());
    const filePath = this.rolloutPath(id);
    const recorder = await RolloutRecorder.create(filePath, {
      ...importedMeta(rollout, sourcePath, id, this.options.cliVersion),
      timestamp: now.toISOString(),
    });
    let written: Awaited<ReturnType<typeof writeCodexRecords>>;
    try {
      written = await writeCodexRecords(recorder, rollout);
      await recorder.appendEvent({
        type: 'turn_complete',
        turn_id: 'import',
        provider: 'openai',
        api: 'openai-responses',
        model: rollout.model,
        message_count: written.messageCount,
        ...(written.firstUserMessage !== undefined ? { first_user_message: written.firstUserMessage } : {}),
      });
    } catch (error) {
      await recorder.close();
      await rm(filePath, { force: true });
      throw error;
    }
    await recorder.close();
    await this.setActive(id);
    return { id, filePath, itemCount: written.itemCount };
  }

  private async allIds(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.paths.conversationsDir);
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return [];
      throw new StorageError(`Cannot read ${this.paths.conversationsDir}: ${errorMessage(error)}`, {
        cause: error,
      });
    }
    return names
      .filter((name) => name.endsWith(ROLLOUT_SUFFIX))
      .map((name) => name.slice(0, -ROLLOUT_SUFFIX.length));
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }
}
