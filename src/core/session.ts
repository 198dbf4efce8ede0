/**
 * One conversation, live: records the user's message durably, builds the prompt from history, streams
 * from a `ModelClient` with retry, compacts when the window fills, runs approved tools, and records every
 * completed item, as an async generator of `SessionEvent`s.
 */
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type {
  ClientOptions,
  ContentPart,
  FinishReason,
  FunctionCallItem,
  ModelClient,
  ProviderError,
  ResponseItem,
  TokenUsage,
} from '../protocol/index.js';
import { createModelClient, normalizeItems } from '../providers/index.js';
import {
  autoCompactLimit,
  compactHistory,
  truncateToolOutput,
  type CompactionOutcome,
} from './compact/index.js';
import {
  type CodyConfig,
  DEFAULT_COMPACT_THRESHOLD,
  DEFAULT_TOOL_OUTPUT_TOKENS,
  errorMessage,
  resolveSelection,
  retryPolicyOf,
  type Selection,
} from './config.js';
import type { ConversationManager } from './conversation-manager.js';
import { lookupModelLimits, type ModelLimits } from './model-catalog.js';
import { backoffDelayMs, sleep } from './retry.js';
import {
  acquireConversationLock,
  DEFAULT_LOCK_TIMEOUT_MS,
  RolloutRecorder,
  type RecorderOptions,
} from './rollout/index.js';
import type {
  ApprovalDecision,
  CompactionTrigger,
  SessionEvent,
  ToolFinishStatus,
} from './session-events.js';
import { countMessages, firstUserPreview, previewOf, tokenCountEvent } from './conversation-stats.js';
import { describeProviderFailure, TurnFailedError } from './turn-failure.js';

export { TurnFailedError } from './turn-failure.js';
import { createTokenEstimator, heuristicEstimator, TokenAccountant } from './tokens/index.js';
import type { ToolRuntime } from './tools/tool-runtime.js';

/** Automatic compactions allowed in one turn before it stops instead of looping. */
export const MAX_AUTO_COMPACTIONS_PER_TURN = 3;

/**
 * Model requests one turn may make while the model keeps calling tools. Real agent turns rarely need
 * more than a few dozen rounds; past this the model is looping, and the person should take over.
 */
export const MAX_TOOL_ROUNDS_PER_TURN = 100;

/**
 * Below this share of the auto-compact limit the heuristic estimate decides alone: it never undercounts
 * by more than 10%, so a history estimated under 90% of the limit is under the limit for certain.
 */
const EXACT_COUNT_BAND = 0.9;

export interface SessionOptions {
  manager: ConversationManager;
  /** A resolved conversation id. */
  conversationId: string;
  config: CodyConfig;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  clientFactory?: (options: ClientOptions) => Promise<ModelClient>;
  tools?: ToolRuntime;
  /** Called once when another process holds the conversation lock and this one starts waiting. */
  onLockWait?: () => void;
  /** File-system wrapping for the recorder (tests inject write failures through it). */
  recorderOptions?: RecorderOptions;
  /**
   * Whether someone can answer `approval-requested` events (a terminal, an API client, code). When
   * false, a call the policy would ask about is denied with a reason the model sees; nothing waits.
   */
  canAsk?: boolean;
}

export interface SubmitOptions {
  signal?: AbortSignal;
}

export interface SessionStatus {
  id: string;
  provider: string;
  api: string;
  model: string;
  contextWindow: number;
  contextTokens: number;
  autoCompactLimit: number;
  compactions: number;
  items: number;
}

interface RequestSuccess {
  kind: 'ok';
  items: ResponseItem[];
  usage: TokenUsage | undefined;
  finishReason: FinishReason;
}

/** Whether a tool call runs; when not, what the model is told, and whether the turn stops. */
interface ToolVerdict {
  run: boolean;
  output?: string;
  abort?: boolean;
}

interface RequestOverflow {
  kind: 'overflow';
  error: ProviderError;
}

export class Session {
  readonly id: string;
  private readonly options: SessionOptions;
  private readonly filePath: string;
  private historyItems: ResponseItem[] = [];
  private accountant = new TokenAccountant(heuristicEstimator());
  private compactionCount = 0;
  private messageCount = 0;
  private firstUserMessage: string | undefined;
  private lastModel: string | undefined;
  private knownFileSize = -1;
  private recorder: RolloutRecorder | undefined;
  private saveFailed = false;
  /** What reading the rollout noticed (e.g. a torn last line), told at the start of the next turn. */
  private readWarnings: string[] = [];
  /** Approval requests waiting for `respond`, by id. */
  private readonly pendingApprovals = new Map<string, (decision: ApprovalDecision) => void>();

  private constructor(options: SessionOptions, filePath: string) {
    this.options = options;
    this.id = options.conversationId;
    this.filePath = filePath;
  }

  /** Loads the conversation's live history from its rollout. */
  static async open(options: SessionOptions): Promise<Session> {
    const session = new Session(options, options.manager.rolloutPath(options.conversationId));
    await session.reload();
    return session;
  }

  /** The live history (what the next prompt is built from). */
  get history(): readonly ResponseItem[] {
    return this.historyItems;
  }

  selection(): Selection {
    return resolveSelection(this.options.config);
  }

  status(): SessionStatus {
    const selection = this.selection();
    const limits = lookupModelLimits(selection.model, this.options.config);
    return {
      id: this.id,
      provider: selection.provider,
      api: selection.apiName,
      model: selection.model,
      contextWindow: limits.contextWindow,
      contextTokens: this.contextTokens(),
      autoCompactLimit: this.limitFor(limits),
      compactions: this.compactionCount,
      items: this.historyItems.length,
    };
  }

  /**
   * Answers an `approval-requested` event. Returns false when no request with that id is waiting (already
   * answered, or the turn ended).
   */
  respond(approvalId: string, decision: ApprovalDecision): boolean {
    const resolve = this.pendingApprovals.get(approvalId);
    if (!resolve) return false;
    this.pendingApprovals.delete(approvalId);
    resolve(decision);
    return true;
  }

  /** Runs one user turn. Throws a `CodyError` when the turn cannot complete (after recording why). */
  async *submit(
    input: string | ContentPart[],
    submitOptions: SubmitOptions = {},
  ): AsyncGenerator<SessionEvent> {
    const release = await this.lock();
    try {
      await this.reloadIfChanged();
      const selection = this.selection();
      const limits = lookupModelLimits(selection.model, this.options.config);
      // Built before anything is recorded: a missing key fails the turn with nothing written.
      const client = await this.createClient(selection);
      const turnId = randomUUID();
      yield {
        type: 'turn-started',
        turnId,
        provider: selection.provider,
        api: selection.api,
        model: selection.model,
      };
      for (const message of this.readWarnings.splice(0)) yield { type: 'warning', message };
      if (limits.source === 'default' && this.lastModel !== selection.model) {
        yield {
          type: 'warning',
          message: `Model '${selection.model}' is not in Cody's catalogue: assuming a ${limits.contextWindow}-token context window. Set models.${selection.model}.contextWindow in config.json to change it.`,
        };
      }
      yield* this.append((recorder) =>
        recorder.appendTurnContext({
          turn_id: turnId,
          cwd: this.options.cwd,
          provider: selection.provider,
          api: selection.api,
          model: selection.model,
          context_window: limits.contextWindow,
        }),
      );
      this.lastModel = selection.model;
      const content: ContentPart[] =
        typeof input === 'string' ? [{ type: 'input_text', text: input }] : input;
      yield* this.record({ type: 'message', role: 'user', content });

      let compactionsThisTurn = 0;
      let toolRounds = 0;
      let finishReason: FinishReason = 'stop';
      let lastUsage: TokenUsage | undefined;
      for (;;) {
        if (await this.overLimit(selection, limits)) {
          if (compactionsThisTurn >= MAX_AUTO_COMPACTIONS_PER_TURN) {
            yield* this.abortTurn('compaction-limit');
            throw new TurnFailedError(
              `Stopped: the conversation still exceeds the context limit after ${MAX_AUTO_COMPACTIONS_PER_TURN} compactions in this turn. Run 'cody compact', or raise models.${selection.model}.contextWindow if the window is larger.`,
              'failure',
            );
          }
          compactionsThisTurn += 1;
          yield* this.runCompaction('auto', client, limits, undefined, submitOptions.signal);
        }
        const result = yield* this.requestWithRetry(client, limits, submitOptions.signal);
        if (result.kind === 'overflow') {
          if (compactionsThisTurn >= MAX_AUTO_COMPACTIONS_PER_TURN) {
            yield* this.abortTurn('context-overflow');
            throw new TurnFailedError(
              `Stopped: the provider still reports the context window exceeded after ${MAX_AUTO_COMPACTIONS_PER_TURN} compactions in this turn (${result.error.message}).`,
              'provider',
              result.error,
            );
          }
          compactionsThisTurn += 1;
          yield* this.runCompaction('overflow', client, limits, undefined, submitOptions.signal);
          continue;
        }
        for (const item of result.items) yield* this.record(item);
        finishReason = result.finishReason;
        if (result.usage) {
          lastUsage = result.usage;
          this.accountant.recordUsage(result.usage, this.historyItems.length);
          yield* this.append((recorder) =>
            recorder.appendEvent(tokenCountEvent(result.usage ?? {}, limits.contextWindow)),
          );
          yield {
            type: 'usage',
            usage: result.usage,
            contextTokens: this.contextTokens(),
            contextWindow: limits.contextWindow,
          };
        }
        const calls = result.items.filter((item): item is FunctionCallItem => item.type === 'function_call');
        if (calls.length === 0) break;
        for (const call of calls) yield* this.runTool(call, submitOptions.signal);
        toolRounds += 1;
        if (toolRounds >= MAX_TOOL_ROUNDS_PER_TURN) {
          yield* this.abortTurn('tool-round-limit');
          throw new TurnFailedError(
            `Stopped after ${MAX_TOOL_ROUNDS_PER_TURN} rounds of tool calls in one turn; the conversation is saved. Send a message to steer it.`,
            'failure',
          );
        }
      }
      yield* this.append((recorder) =>
        recorder.appendEvent({
          type: 'turn_complete',
          turn_id: turnId,
          provider: selection.provider,
          api: selection.api,
          model: selection.model,
          message_count: this.messageCount,
          compaction_count: this.compactionCount,
          ...(this.firstUserMessage !== undefined ? { first_user_message: this.firstUserMessage } : {}),
        }),
      );
      yield {
        type: 'turn-complete',
        turnId,
        finishReason,
        status: 'completed',
        ...(lastUsage ? { usage: lastUsage } : {}),
      };
    } finally {
      await this.closeRecorder();
      await release();
    }
  }

  /** Compacts on request (`cody compact`), even when the window is already overflowing. */
  async *compact(focus?: string, signal?: AbortSignal): AsyncGenerator<SessionEvent, CompactionOutcome> {
    const release = await this.lock();
    try {
      await this.reloadIfChanged();
      const selection = this.selection();
      const limits = lookupModelLimits(selection.model, this.options.config);
      const client = await this.createClient(selection);
      return yield* this.runCompaction('manual', client, limits, focus, signal);
    } finally {
      await this.closeRecorder();
      await release();
    }
  }

  private async *runCompaction(
    trigger: CompactionTrigger,
    client: ModelClient,
    limits: ModelLimits,
    focus: string | undefined,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<SessionEvent, CompactionOutcome> {
    const tokensBefore = this.contextTokens();
    yield { type: 'compaction-started', trigger, tokensBefore };
    const progress: SessionEvent[] = [];
    const outcome = await compactHistory({
      history: this.historyItems,
      client,
      estimator: this.accountant.estimator,
      contextWindow: limits.contextWindow,
      autoCompactLimit: this.limitFor(limits),
      maxOutputTokens: limits.maxOutputTokens,
      ...(focus !== undefined ? { focus } : {}),
      retryPolicy: retryPolicyOf(this.options.config),
      ...(signal ? { signal } : {}),
      onProgress: (event) => {
        if (event.type === 'retry') {
          progress.push({
            type: 'retry',
            attempt: event.attempt,
            maxRetries: retryPolicyOf(this.options.config).maxRetries,
            delayMs: event.delayMs,
            reason: event.error.message,
            discardedPartial: false,
          });
        }
      },
    });
    yield* progress;
    if (outcome.status === 'compacted') {
      const replacement = outcome.replacementHistory;
      this.compactionCount += 1;
      const compactionCount = this.compactionCount;
      yield* this.append((recorder) =>
        recorder.appendCompacted({
          message: outcome.summary,
          replacement_history: replacement,
          compaction_count: compactionCount,
        }),
      );
      yield* this.append((recorder) =>
        recorder.appendEvent({
          type: 'context_compacted',
          trigger,
          tokens_before: outcome.tokensBefore,
          tokens_after: outcome.tokensAfter,
          trimmed_items: outcome.trimmedItems,
          summary_failed: outcome.summaryFailed,
        }),
      );
      this.historyItems = [...replacement];
      this.accountant.reset();
      if (outcome.summaryFailed) {
        yield {
          type: 'warning',
          message: 'The summary request failed; compacted with a placeholder summary.',
        };
      }
      yield {
        type: 'compaction-finished',
        trigger,
        status: outcome.status,
        // Measured the way the trigger measures (tool definitions included), so the figures compare.
        tokensBefore,
        tokensAfter: this.contextTokens(),
        trimmedItems: outcome.trimmedItems,
        summaryFailed: outcome.summaryFailed,
      };
    } else {
      const after =
        'tokensAfter' in outcome && typeof outcome.tokensAfter === 'number'
          ? outcome.tokensAfter
          : tokensBefore;
      yield {
        type: 'compaction-finished',
        trigger,
        status: outcome.status,
        tokensBefore,
        tokensAfter: after,
        trimmedItems: 0,
        summaryFailed: false,
      };
    }
    return outcome;
  }

  private async *requestWithRetry(
    client: ModelClient,
    limits: ModelLimits,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<SessionEvent, RequestSuccess | RequestOverflow> {
    const policy = retryPolicyOf(this.options.config);
    const tools = this.options.tools?.specs() ?? [];
    for (let attempt = 0; ; attempt += 1) {
      let shownText = false;
      const items: ResponseItem[] = [];
      let usage: TokenUsage | undefined;
      let failure: ProviderError | undefined;
      let finishReason: FinishReason = 'other';
      const stream = client.stream({
        items: normalizeItems(this.historyItems),
        tools,
        maxOutputTokens: limits.maxOutputTokens,
        ...(signal ? { signal } : {}),
      });
      for await (const event of stream) {
        switch (event.type) {
          case 'text-delta':
            shownText = true;
            yield { type: 'text-delta', text: event.text };
            break;
          case 'reasoning-delta':
            yield { type: 'reasoning-delta', text: event.text };
            break;
          case 'tool-call-delta':
            break;
          case 'item':
            items.push(event.item);
            break;
          case 'usage':
            usage = event.usage;
            break;
          case 'error':
            failure = event.error;
            break;
          case 'finish':
            finishReason = event.reason;
            break;
          default: {
            const exhaustive: never = event;
            throw new Error(`unknown stream event ${JSON.stringify(exhaustive)}`);
          }
        }
      }
      if (!failure) return { kind: 'ok', items, usage, finishReason };
      if (failure.kind === 'context-overflow') return { kind: 'overflow', error: failure };
      if (failure.kind === 'aborted' || signal?.aborted) {
        yield* this.abortTurn('interrupted');
        throw new TurnFailedError('Interrupted.', 'interrupted', failure);
      }
      if (failure.isRetryable && attempt < policy.maxRetries) {
        const delayMs = backoffDelayMs(policy, attempt + 1, failure.retryAfterMs);
        yield {
          type: 'retry',
          attempt: attempt + 1,
          maxRetries: policy.maxRetries,
          delayMs,
          reason: failure.message,
          discardedPartial: shownText,
        };
        await sleep(delayMs, signal);
        continue;
      }
      yield* this.abortTurn(failure.kind);
      throw new TurnFailedError(
        describeProviderFailure(failure, attempt),
        failure.kind === 'auth' ? 'auth' : 'provider',
        failure,
      );
    }
  }

  private async *runTool(
    call: FunctionCallItem,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<SessionEvent> {
    const tools = this.options.tools;
    const verdict = tools?.has(call.name)
      ? yield* this.approveTool(tools, call, signal)
      : { run: false, output: `Error: no tool named '${call.name}' is available.` };
    yield { type: 'tool-call', call, approved: verdict.run };
    let output: string;
    let status: ToolFinishStatus = 'denied';
    let exitCode: number | undefined;
    const started = Date.now();
    if (verdict.run && tools) {
      yield { type: 'tool-started', call };
      const result = await tools.run(call, { ...(signal ? { signal } : {}) });
      output = result.output;
      status = result.status;
      exitCode = result.exitCode;
    } else {
      output = verdict.output ?? '';
    }
    const maxTokens = this.options.config.toolOutputTokens ?? DEFAULT_TOOL_OUTPUT_TOKENS;
    const truncated = truncateToolOutput(output, maxTokens, this.accountant.estimator);
    yield* this.record({ type: 'function_call_output', call_id: call.call_id, output: truncated });
    yield {
      type: 'tool-finished',
      callId: call.call_id,
      durationMs: Date.now() - started,
      status,
      ...(exitCode !== undefined ? { exitCode } : {}),
    };
    if (verdict.abort) {
      yield* this.abortTurn('interrupted');
      throw new TurnFailedError('Interrupted.', 'interrupted');
    }
  }

  /** Asks the policy, and when it asks, whoever can answer; decides whether the call runs. */
  private async *approveTool(
    tools: ToolRuntime,
    call: FunctionCallItem,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<SessionEvent, ToolVerdict> {
    const decision = await tools.decide(call);
    if (decision.kind === 'allow') return { run: true };
    if (decision.kind === 'deny') return { run: false, output: `Declined by policy: ${decision.reason}` };
    if (this.options.canAsk !== true) {
      return {
        run: false,
        output: `Declined: this call needs approval (${decision.reason}) and nobody can approve it here. Ask the user how to proceed.`,
      };
    }
    const id = randomUUID();
    const answer = new Promise<ApprovalDecision>((resolve) => {
      this.pendingApprovals.set(id, resolve);
      signal?.addEventListener('abort', () => this.respond(id, 'abort'), { once: true });
    });
    yield {
      type: 'approval-requested',
      id,
      call,
      reason: decision.reason,
      ...(decision.preview !== undefined ? { preview: decision.preview } : {}),
    };
    const answered = signal?.aborted ? 'abort' : await answer;
    this.pendingApprovals.delete(id);
    yield { type: 'approval-resolved', id, decision: answered };
    if (answered === 'approve-session') tools.rememberApproval(call);
    if (answered === 'approve' || answered === 'approve-session') return { run: true };
    if (answered === 'abort')
      return { run: false, output: 'The user stopped the turn instead of running this call.', abort: true };
    return { run: false, output: 'The user declined to run this tool call. Ask them how to proceed.' };
  }

  private async overLimit(selection: Selection, limits: ModelLimits): Promise<boolean> {
    if (this.options.config.compact?.auto === false) return false;
    const limit = this.limitFor(limits);
    let estimate = this.contextTokens();
    if (estimate < EXACT_COUNT_BAND * limit) return false;
    if (this.accountant.estimator.kind === 'heuristic') {
      const exact = await createTokenEstimator({ api: selection.api, model: selection.model, exact: true });
      if (exact.kind !== 'heuristic') {
        this.accountant.setEstimator(exact);
        estimate = this.contextTokens();
      }
    }
    return estimate >= limit;
  }

  /**
   * Tokens the next request will occupy: the accountant's figure, plus the tool definitions when no
   * provider report (which would include them) underlies it.
   */
  private contextTokens(): number {
    const history = this.accountant.estimateHistory(this.historyItems);
    if (this.accountant.hasReport) return history;
    const specs = this.options.tools?.specs() ?? [];
    return history + (specs.length > 0 ? this.accountant.estimator.countText(JSON.stringify(specs)) : 0);
  }

  private limitFor(limits: ModelLimits): number {
    const compact = this.options.config.compact;
    return autoCompactLimit({
      contextWindow: limits.contextWindow,
      maxOutputTokens: limits.maxOutputTokens,
      threshold: compact?.threshold ?? DEFAULT_COMPACT_THRESHOLD,
      ...(compact?.tokenLimit !== undefined ? { tokenLimit: compact.tokenLimit } : {}),
    });
  }

  private async createClient(selection: Selection): Promise<ModelClient> {
    const factory = this.options.clientFactory ?? createModelClient;
    const { clientCredentials } = await import('./auth/resolve-credentials.js');
    return factory({
      api: selection.api,
      model: selection.model,
      env: this.options.env,
      ...(selection.baseUrl ? { baseUrl: selection.baseUrl } : {}),
      ...(await clientCredentials(selection, this.options.env, this.options.manager.paths.home)),
    });
  }

  private async *record(item: ResponseItem): AsyncGenerator<SessionEvent> {
    this.historyItems.push(item);
    if (item.type === 'message' && (item.role === 'user' || item.role === 'assistant')) {
      this.messageCount += 1;
      if (item.role === 'user' && this.firstUserMessage === undefined)
        this.firstUserMessage = previewOf(item);
    }
    yield* this.append((recorder) => recorder.appendItem(item));
    yield { type: 'item-recorded', item };
  }

  /** Appends through the recorder; a failed write becomes a warning (once per turn) and the turn goes on. */
  private async *append(write: (recorder: RolloutRecorder) => Promise<void>): AsyncGenerator<SessionEvent> {
    try {
      this.recorder ??= await RolloutRecorder.open(this.filePath, this.options.recorderOptions);
      await write(this.recorder);
    } catch (error) {
      if (!this.saveFailed) {
        this.saveFailed = true;
        yield {
          type: 'warning',
          message: `${errorMessage(error).replace(/\.?$/, '.')} The reply is still shown, but this turn may be missing from the saved conversation.`,
        };
      }
    }
  }

  private async *abortTurn(reason: string): AsyncGenerator<SessionEvent> {
    yield* this.append((recorder) => recorder.appendEvent({ type: 'turn_aborted', reason }));
  }

  private async lock(): Promise<() => Promise<void>> {
    this.saveFailed = false;
    return acquireConversationLock(this.filePath, {
      timeoutMs: this.options.config.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
      ...(this.options.onLockWait ? { onWaiting: this.options.onLockWait } : {}),
    });
  }

  private async closeRecorder(): Promise<void> {
    const recorder = this.recorder;
    this.recorder = undefined;
    if (recorder) await recorder.close();
    this.knownFileSize = await fileSize(this.filePath);
  }

  private async reloadIfChanged(): Promise<void> {
    if ((await fileSize(this.filePath)) !== this.knownFileSize) await this.reload();
  }

  private async reload(): Promise<void> {
    const resumed = await this.options.manager.resumeConversation(this.id);
    this.historyItems = [...resumed.history];
    this.readWarnings = [...resumed.warnings];
    this.compactionCount = resumed.compactionCount;
    this.lastModel = resumed.lastTurnContext?.model;
    this.messageCount = resumed.messageCount ?? countMessages(resumed.history);
    this.firstUserMessage = resumed.firstUserMessage ?? firstUserPreview(resumed.history);
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
