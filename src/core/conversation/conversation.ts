/**
 * A live conversation as the public API hands it out (`createCody().open(id)`): one turn at a time, its
 * events as an async iterable that always ends with exactly one terminal event — `turn-complete`
 * (status 'completed' or 'interrupted') or `turn-failed` — and never throws once iteration has begun.
 *
 * Busy semantics: a second `submit` (or `compact`) while a turn or compaction runs on the same
 * conversation in this process throws `CodyError` kind 'busy' at once; it does not wait. (Across
 * processes the rollout lock applies: the later writer waits for the earlier one, up to the lock timeout.)
 * The conversation is reserved from the `submit` call until its event stream ends or is abandoned
 * (`return()` on its iterator).
 */
import type { ApprovalPolicy } from '../tools/index.js';
import { randomUUID } from 'node:crypto';
import type { ContentPart, ReasoningLevel, WireApi } from '../../protocol/index.js';
import { CodyError, type ErrorHint, type ErrorKind } from '../errors.js';
import { messageWithImages, type ImageInput } from '../images/index.js';
import { checkSelection } from '../selection/index.js';
import type { ApprovalDecision, PendingApproval, SessionEvent } from './session-events.js';
import type { ProjectInstructions } from '../project/index.js';
import { type PromptCommand, resolveSlashMessage, type SlashMessage } from '../project/index.js';
import type { ConversationEngine, SelectionChoice, SessionStatus } from './session-surface.js';

export interface SubmitOptions {
  signal?: AbortSignal;
  /** The conversation's reasoning level from this turn on (`off` … `high`), as `setReasoning`. */
  reasoning?: ReasoningLevel;
  /**
   * Images sent with the message (PNG, JPEG, GIF or WebP, checked by their bytes; at most 20 MB each):
   * file paths (relative to the process's working directory) or `{ data, name? }` with the bytes or
   * their base64. A file that is no such image, too large, or a model that takes no images fails the
   * turn (`usage`) before anything is sent.
   */
  images?: readonly ImageInput[];
}

/** What the registry of live conversations hears from one (see live-conversations.ts). */
export interface ConversationHooks {
  /** The conversation was closed. */
  onClose(): void;
  /** A turn or compaction released the conversation; `last` is the last event its reader was given. */
  onTurnEnd(last: SessionEvent | undefined): void;
  /** A turn or compaction begins: what to tell of each event its reader is given, and of its end. */
  onRun?(kind: 'turn' | 'compaction'): RunTap | undefined;
}

/** Sees a run's events as its reader gets them (the live channel publishes them to other processes). */
export interface RunTap {
  event(event: SessionEvent): void;
  end(): void;
}

/** What a front end shows for a failure: the kind (mapped to an exit code or HTTP status) and one line. */
export function failureOf(error: unknown): { kind: ErrorKind; message: string; hint?: ErrorHint } {
  if (error instanceof CodyError) {
    return { kind: error.kind, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  }
  const name = error instanceof Error ? error.name : '';
  // Errors from below core that reach here unclassified.
  if (name === 'MissingApiKeyError') return { kind: 'auth', message: (error as Error).message };
  if (name === 'ProviderError') return { kind: 'provider', message: (error as Error).message };
  return { kind: 'internal', message: error instanceof Error ? error.message : String(error) };
}

export class Conversation {
  readonly id: string;
  private readonly session: ConversationEngine;
  private readonly hooks: Partial<ConversationHooks>;
  private running: AbortController | undefined;
  /** Waiting for the running turn to release the conversation (`idle()`). */
  private idleWaiters: Array<() => void> = [];
  private closed = false;

  constructor(session: ConversationEngine, hooks: Partial<ConversationHooks> = {}) {
    this.session = session;
    this.id = session.id;
    this.hooks = hooks;
  }

  /** Runs one turn. Throws `CodyError` 'busy' at once if one is running; otherwise never throws. */
  submit(message: string | ContentPart[], options: SubmitOptions = {}): AsyncGenerator<SessionEvent> {
    const controller = this.reserve(options.signal);
    try {
      // Only once the turn is reserved: a busy conversation keeps its level.
      if (options.reasoning !== undefined) this.session.setReasoning(options.reasoning);
    } catch (error) {
      this.running = undefined;
      throw error;
    }
    return this.guarded(controller, this.turnEvents(message, controller, options.images ?? []), 'turn');
  }

  /** Compacts the history now; events like a turn's, ending with `turn-complete` or `turn-failed`. */
  compact(focus?: string, options: SubmitOptions = {}): AsyncGenerator<SessionEvent> {
    const controller = this.reserve(options.signal);
    return this.guarded(controller, this.compactionEvents(focus, controller), 'compaction');
  }

  /**
   * Answers an `approval-requested` event; false when nothing with that id is waiting. With 'deny', a
   * `reason` (what the person wants the model to know) goes to the model in that call's output.
   */
  respond(approvalId: string, decision: ApprovalDecision, reason?: string): boolean {
    return this.session.respond(approvalId, decision, reason);
  }

  /**
   * The approval requests waiting for an answer (tool, arguments, reason, preview, until when): part of
   * the conversation's state, so a caller that missed the `approval-requested` event can still answer.
   */
  pendingApprovals(): PendingApproval[] {
    return this.session.pendingApprovals();
  }

  status(): SessionStatus {
    return this.session.status();
  }

  /**
   * The instruction files in effect for this conversation (`$CODY_HOME/AGENTS.md`, then the workspace's
   * from its root down to the working directory), with their sizes; read now, as the next turn will.
   */
  async projectInstructions(): Promise<ProjectInstructions> {
    if (!this.session.projectInstructions)
      return { files: [], text: undefined, truncated: false, maxBytes: 0, warnings: [] };
    return this.session.projectInstructions();
  }

  /** The user's own slash commands available to this conversation (`submit('/name …')` expands them). */
  async promptCommands(): Promise<PromptCommand[]> {
    return [...((await this.session.promptCommands?.()) ?? new Map<string, PromptCommand>()).values()];
  }

  /**
   * What `submit(text)` would make of a message: plain text, a command with the text it expands to, or
   * an unknown command (which `submit` refuses, sending nothing). A front end shows the expansion.
   */
  async resolveMessage(text: string): Promise<SlashMessage> {
    const commands = (await this.session.promptCommands?.()) ?? new Map<string, PromptCommand>();
    return resolveSlashMessage(text, commands);
  }

  /** Uses another provider/API/model for this conversation's next turns (config.json is untouched). */
  setSelection(choice: SelectionChoice): SessionStatus {
    checkSelection(choice);
    this.session.setSelection(choice);
    return this.status();
  }

  /**
   * Sets the approval policy ('read-only' | 'ask' | 'auto-edit' | 'full-auto') for this conversation's
   * next tool calls; it is recorded with the next turn and kept when the conversation is opened again.
   */
  setApprovalPolicy(policy: ApprovalPolicy): SessionStatus {
    this.session.setApprovalPolicy(policy);
    return this.status();
  }

  /**
   * The approval policy this conversation keeps for runs given no policy of their own, and whether it was
   * recorded with the conversation (else it is the configured default). A caller's full-auto applies to
   * its run only and does not change it.
   */
  keptApprovalPolicy(): { policy: ApprovalPolicy; recorded: boolean } {
    return this.session.keptApprovalPolicy();
  }

  /**
   * Sets how hard the model reasons ('off' | 'minimal' | 'low' | 'medium' | 'high') from the next turn on;
   * recorded with each turn (turn_context `effort`/`summary`) and kept when the conversation is opened
   * again. A model that cannot reason ignores it, with one warning.
   */
  setReasoning(level: ReasoningLevel): SessionStatus {
    this.session.setReasoning(level);
    return this.status();
  }

  /** Whether a turn or a compaction is running. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Interrupts the running turn (recorded as interrupted); false when none runs. */
  abort(): boolean {
    if (!this.running) return false;
    this.running.abort(new Error('aborted'));
    return true;
  }

  /** Resolves once no turn or compaction runs (at once when none does). */
  idle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Interrupts whatever runs and forgets the conversation; the rollout stays consistent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.abort();
    this.hooks.onClose?.();
  }

  private reserve(signal: AbortSignal | undefined): AbortController {
    if (this.closed) throw new CodyError(`Conversation ${this.id} is closed.`, 'usage');
    if (this.running) {
      throw new CodyError(
        `A turn is already running on conversation ${this.id}; wait for it to end, or abort it.`,
        'busy',
      );
    }
    const controller = new AbortController();
    if (signal?.aborted) controller.abort(signal.reason);
    else signal?.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
    this.running = controller;
    return controller;
  }

  /** Releases the reservation when the stream ends, or when it is abandoned before it began. */
  private guarded(
    controller: AbortController,
    inner: AsyncGenerator<SessionEvent>,
    kind: 'turn' | 'compaction',
  ): AsyncGenerator<SessionEvent> {
    let last: SessionEvent | undefined;
    const tap = this.hooks.onRun?.(kind);
    const release = (): void => {
      if (this.running !== controller) return;
      this.running = undefined;
      tap?.end();
      for (const wake of this.idleWaiters.splice(0)) wake();
      this.hooks.onTurnEnd?.(last);
    };
    const wrapper: AsyncGenerator<SessionEvent> = {
      next: async (...args) => {
        const step = await inner.next(...args);
        if (step.done === true) release();
        else {
          last = step.value;
          tap?.event(step.value);
        }
        return step;
      },
      return: async (value) => {
        controller.abort(new Error('abandoned'));
        try {
          return await inner.return(value);
        } finally {
          release();
        }
      },
      throw: async (error) => {
        try {
          return await inner.throw(error);
        } finally {
          release();
        }
      },
      [Symbol.asyncIterator]() {
        return wrapper;
      },
    };
    return wrapper;
  }

  private async *turnEvents(
    message: string | ContentPart[],
    controller: AbortController,
    images: readonly ImageInput[],
  ): AsyncGenerator<SessionEvent> {
    let turnId = '';
    try {
      const input = images.length > 0 ? await messageWithImages(message, images) : message;
      for await (const event of this.session.submit(input, { signal: controller.signal })) {
        if (event.type === 'turn-started') turnId = event.turnId;
        yield event;
      }
    } catch (error) {
      yield terminalEvent(error, turnId);
    }
  }

  private async *compactionEvents(
    focus: string | undefined,
    controller: AbortController,
  ): AsyncGenerator<SessionEvent> {
    // A compaction is a run like a turn: it starts with `turn-started` and its last event carries the
    // same id, so a client matches every event of it to the request that began it.
    // It starts only once the session could begin it (lock taken, client built): one that cannot (no
    // key) fails without `turn-started` and so without an id, as a turn that cannot start does.
    const turnId = `compaction-${randomUUID()}`;
    const steps = this.session.compact(focus, controller.signal);
    let step: IteratorResult<SessionEvent, unknown>;
    try {
      step = await steps.next();
    } catch (error) {
      yield terminalEvent(error, failureOf(error).kind === 'interrupted' ? turnId : '');
      return;
    }
    try {
      const { provider, api, model } = this.session.status();
      yield { type: 'turn-started', turnId, provider, api: api as WireApi, model };
      for (; step.done !== true; step = await steps.next()) yield step.value;
      yield { type: 'turn-complete', turnId, finishReason: 'stop', status: 'completed' };
    } catch (error) {
      yield terminalEvent(error, turnId);
    }
  }
}

/** The error each synthesized terminal event stands for (see `thrownBy`). */
const causes = new WeakMap<SessionEvent, unknown>();

/**
 * The error a `turn-failed` (or an interrupted `turn-complete`) event was made from, when the turn ended
 * by one; undefined for every other event. This package's CLI reports it as it always did (its exit
 * code, its message, the unsent text of a full disk); not part of the library API.
 */
export function thrownBy(event: SessionEvent): unknown {
  return causes.get(event);
}

function terminalEvent(error: unknown, turnId: string): SessionEvent {
  const failure = failureOf(error);
  const event: SessionEvent =
    failure.kind === 'interrupted'
      ? { type: 'turn-complete', turnId, finishReason: 'other', status: 'interrupted' }
      : { type: 'turn-failed', ...(turnId !== '' ? { turnId } : {}), error: failure };
  causes.set(event, error ?? new Error('unknown failure'));
  return event;
}
