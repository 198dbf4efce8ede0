/**
 * One conversation's durable side: its live history (reloaded when another process changed the file),
 * the cross-process lock, and recording. Writes before the turn's user message are required (a failure
 * stops the turn before anything is sent); after it, a failed write stops further writes for the turn,
 * so the rollout never holds an answer without its question, and the turn ends with a storage error.
 */
import { unansweredNote } from '../rollout/index.js';
import { stat } from 'node:fs/promises';
import type { ResponseItem, TokenUsage } from '../../protocol/index.js';
import type { CodyConfig } from '../config/index.js';
import { type RecordedSelection, recordedSelectionOf } from '../selection/index.js';
import { countMessages, firstUserPreview, previewOf } from '../store/index.js';
import { isCountedMessage, typedUserText } from '../rollout/index.js';
import type { ConversationManager } from '../store/index.js';
import { errorMessage, StorageError } from '../errors.js';
import { type Plan, planFromHistory } from '../tools/index.js';
import {
  acquireConversationLock,
  DEFAULT_LOCK_TIMEOUT_MS,
  type RolloutRecorder,
  type RecorderOptions,
} from '../rollout/index.js';
import type { SessionEvent } from './session-events.js';
import { heuristicEstimator, TokenAccountant } from '../tokens/index.js';

export interface ConversationHandleOptions {
  manager: ConversationManager;
  conversationId: string;
  config: CodyConfig;
  /** Called once when another process holds the conversation lock and this one starts waiting. */
  onLockWait?: () => void;
  /** File-system wrapping for the recorder (tests inject write failures through it). */
  recorderOptions?: RecorderOptions;
  /**
   * A conversation not written yet: its history starts as `initialItems`, and `create` writes its rollout
   * when the first turn (or compaction) takes the lock, so one nobody speaks in leaves no file.
   */
  draft?: { initialItems: readonly ResponseItem[]; create: () => Promise<void> };
}

export class ConversationHandle {
  readonly id: string;
  readonly filePath: string;
  private readonly options: ConversationHandleOptions;
  private items: ResponseItem[] = [];
  accountant = new TokenAccountant(heuristicEstimator());
  compactionCount = 0;
  messageCount = 0;
  firstUserMessage: string | undefined;
  /** The model of the last recorded turn (a new one gets a catalogue warning). */
  lastModel: string | undefined;
  /**
   * The approval policy the conversation keeps (Cody's name), if one was recorded: what its last turn ran
   * under, unless that turn's policy was chosen for its run only.
   */
  lastApprovalPolicy: string | undefined;
  /** The reasoning effort the conversation's last turn recorded (Codex's `effort`), if any. */
  lastReasoningEffort: string | undefined;
  /** What the conversation last ran with (its last turn, else what it was created with). */
  recordedSelection: RecordedSelection | undefined;
  /** The conversation's running token total, recorded with each `token_count` (Codex's `total_token_usage`). */
  totalTokenUsage: TokenUsage | undefined;
  /** The plan the model last set (`update_plan`), restored from the rollout on resume. */
  plan: Plan | undefined;
  private knownFileSize = -1;
  private recorder: RolloutRecorder | undefined;
  /** The first write that failed in this turn; nothing more is written until the lock is taken again. */
  private writeFailure: StorageError | undefined;
  /** What reading the rollout noticed (e.g. a torn last line), told at the start of the next turn. */
  private readWarnings: string[] = [];
  /** A turn a dead process left open, found when the rollout was last read. */
  private openTurnId: string | undefined;
  /** This process started a turn (its context is recorded) that has not been closed yet. */
  private turnOpen = false;
  /** Set while the conversation is a draft (no rollout yet). */
  private draft: ConversationHandleOptions['draft'];

  constructor(options: ConversationHandleOptions) {
    this.options = options;
    this.id = options.conversationId;
    this.filePath = options.manager.rolloutPath(options.conversationId);
    this.draft = options.draft;
  }

  /** Whether the conversation exists only here, its rollout not written yet. */
  get isDraft(): boolean {
    return this.draft !== undefined;
  }

  /** The live history (what the next prompt is built from). */
  get history(): readonly ResponseItem[] {
    return this.items;
  }

  /** The first write that failed since the lock was taken. */
  get saveFailure(): StorageError | undefined {
    return this.writeFailure;
  }

  /** Replaces the live history (a compaction did, and recorded it). */
  replaceHistory(items: readonly ResponseItem[]): void {
    this.items = [...items];
    this.accountant.reset();
  }

  /**
   * Takes the cross-process lock, brings the history up to date, and closes a turn a crashed process
   * left open (recorded as interrupted). Resolves with the release function.
   */
  async lock(): Promise<() => Promise<void>> {
    this.writeFailure = undefined;
    if (this.draft) {
      await this.draft.create();
      this.draft = undefined;
    }
    const release = await acquireConversationLock(this.filePath, {
      timeoutMs: this.options.config.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
      ...(this.options.onLockWait ? { onWaiting: this.options.onLockWait } : {}),
    });
    try {
      await this.reloadIfChanged();
      if (this.openTurnId !== undefined) {
        // We hold the lock, so the process that started that turn is gone.
        await this.write((recorder) => recorder.appendEvent({ type: 'turn_aborted', reason: 'interrupted' }));
        this.noteUnanswered('interrupted');
        this.openTurnId = undefined;
      }
    } catch (error) {
      await this.close();
      await release();
      throw error;
    }
    return release;
  }

  /** A turn's context is recorded: from now on the turn must end with `turn_complete` or `turn_aborted`. */
  openTurn(): void {
    this.turnOpen = true;
  }

  /** Records the end of the open turn (`turn_complete` or `turn_aborted`), best effort. */
  async *endTurn(payload: Parameters<RolloutRecorder['appendEvent']>[0]): AsyncGenerator<SessionEvent> {
    this.turnOpen = false;
    yield* this.append((recorder) => recorder.appendEvent(payload));
    if (payload.type === 'turn_aborted') this.noteUnanswered(payload.reason);
  }

  /** After a turn that ended without a reply, the history the model sees says so (see unanswered-turn). */
  private noteUnanswered(reason: unknown): void {
    const note = unansweredNote(this.items, reason);
    if (note) this.items.push(note);
  }

  /** Closes a turn that ended without saying how (its consumer stopped reading, or a bug). */
  async closeOpenTurn(reason: string): Promise<void> {
    if (!this.turnOpen) return;
    this.turnOpen = false;
    if (this.writeFailure) return;
    await this.write((recorder) => recorder.appendEvent({ type: 'turn_aborted', reason })).catch(
      () => undefined,
    );
    this.noteUnanswered(reason);
  }

  /** Warnings from reading the rollout, each told once. */
  takeReadWarnings(): string[] {
    return this.readWarnings.splice(0);
  }

  /** Appends the item to the history and the rollout; events: `item-recorded` (and a warning on failure). */
  async *record(item: ResponseItem): AsyncGenerator<SessionEvent> {
    yield* this.append((recorder) => recorder.appendItem(item));
    yield* this.noteRecorded(item);
  }

  /** Adds an item already written (with `write`) to the history; event: `item-recorded`. */
  async *noteRecorded(item: ResponseItem): AsyncGenerator<SessionEvent> {
    this.items.push(item);
    if (item.type === 'message' && isCountedMessage(item)) {
      this.messageCount += 1;
      if (item.role === 'user' && this.firstUserMessage === undefined && typedUserText(item) !== undefined)
        this.firstUserMessage = previewOf(item);
    }
    yield { type: 'item-recorded', item };
  }

  /** Adds contextual text already written (project instructions): not a message of the conversation. */
  addContext(item: ResponseItem): void {
    this.items.push(item);
  }

  /** Writes and throws a StorageError when the write fails (nothing has been sent yet). */
  async write(write: (recorder: RolloutRecorder) => Promise<void>): Promise<void> {
    if (this.writeFailure) throw this.writeFailure;
    try {
      this.recorder ??= await this.options.manager.store.openForAppend(this.id, this.options.recorderOptions);
      await write(this.recorder);
    } catch (error) {
      this.writeFailure =
        error instanceof StorageError
          ? error
          : new StorageError(`The conversation could not be saved: ${errorMessage(error)}`, { cause: error });
      throw this.writeFailure;
    }
  }

  /**
   * Writes after the turn's user message: a failure becomes one warning and the turn goes on (the reply
   * is still shown); later writes of the turn are skipped, and the turn ends with the storage error.
   */
  async *append(write: (recorder: RolloutRecorder) => Promise<void>): AsyncGenerator<SessionEvent> {
    if (this.writeFailure) return;
    try {
      await this.write(write);
    } catch (error) {
      yield {
        type: 'warning',
        message: `${errorMessage(error).replace(/\.?$/, '.')} The reply is still shown, but the rest of this turn is not saved.`,
      };
    }
  }

  /** Closes the recorder (end of a turn or a compaction) and remembers the file's size. */
  async close(): Promise<void> {
    const recorder = this.recorder;
    this.recorder = undefined;
    if (recorder) await recorder.close().catch(() => undefined);
    this.knownFileSize = await fileSize(this.filePath);
  }

  async reloadIfChanged(): Promise<void> {
    if ((await fileSize(this.filePath)) !== this.knownFileSize) await this.reload();
  }

  async reload(): Promise<void> {
    if (this.draft) {
      this.items = [...this.draft.initialItems];
      return;
    }
    const resumed = await this.options.manager.resumeConversation(this.id);
    this.items = [...resumed.history];
    // After a compaction the call may be summarised away: the plan this process knew stays.
    this.plan = planFromHistory(resumed.history) ?? this.plan;
    this.readWarnings = [...resumed.warnings];
    this.compactionCount = resumed.compactionCount;
    this.lastModel = resumed.lastTurnContext?.model;
    this.lastApprovalPolicy =
      resumed.lastTurnContext?.cody_approval_kept ?? resumed.lastTurnContext?.cody_approval_policy;
    this.lastReasoningEffort = resumed.lastTurnContext?.effort;
    this.recordedSelection = recordedSelectionOf(resumed);
    this.messageCount = resumed.messageCount ?? countMessages(resumed.history);
    this.firstUserMessage = resumed.firstUserMessage ?? firstUserPreview(resumed.history);
    this.openTurnId = resumed.openTurnId;
    this.totalTokenUsage = resumed.totalTokenUsage;
    this.accountant = new TokenAccountant(this.accountant.estimator);
    const report = resumed.lastTokenCount;
    if (report) this.accountant.recordUsage(report.usage, report.historyLengthAtReport);
    this.knownFileSize = await fileSize(this.filePath);
  }
}

async function fileSize(filePath: string): Promise<number> {
  try {
    return (await stat(filePath)).size;
  } catch {
    return -1;
  }
}
