/**
 * One conversation, live: composes the parts of the engine (src/core/turn, src/core/conversation) — the conversation handle
 * (lock, reload, record), the turn loop, compaction, approval requests and the turn state — behind
 * `submit`, `compact`, `respond` and `status`. A failed turn throws a `CodyError` after recording why;
 * `Conversation` (the public API) turns that into a `turn-failed` event.
 */
import { randomUUID } from 'node:crypto';
import {
  type ClientOptions,
  type ContentPart,
  type ModelClient,
  type ReasoningLevel,
  type ResponseItem,
} from '../../protocol/index.js';
import { createModelClient } from '../../providers/index.js';
import { ApprovalDesk } from './approvals.js';
import { type CompactionReport, runCompaction } from '../turn/index.js';
import { ContextBudget } from '../turn/index.js';
import { ConversationHandle, type ConversationHandleOptions } from './conversation-handle.js';
import { runTurn } from '../turn/index.js';
import type { TurnContext } from '../turn/index.js';
import { TurnStateMachine } from '../turn/index.js';
import type { CodyConfig, Selection } from '../config/index.js';
import { type ResolvedSelection, resolveConversationSelection } from '../selection/index.js';
import type { ConversationManager } from '../store/index.js';
import type { ConversationEngine, SelectionChoice, SessionStatus } from './session-surface.js';
import { CodyError, UsageError } from '../errors.js';
import {
  APPROVAL_POLICIES,
  DEFAULT_APPROVAL_POLICY,
  isApprovalPolicy,
  type ApprovalPolicy,
} from '../tools/index.js';
import { checkImagesFor } from '../images/index.js';
import {
  acceptsImages,
  configuredReasoning,
  isReasoningModel,
  lookupModelLimits,
  reasoningSupport,
} from '../selection/index.js';
import { levelFromCodexEffort, parseReasoningLevel, unusableReasoningWarning } from '../turn/index.js';
import type { RecorderOptions } from '../rollout/index.js';
import { knownSecrets } from '../redact/index.js';
import { compileMatchers, type Matchers, redactDeep, redactText, replaceSecrets } from '../redact/index.js';
import { redactEvents } from '../redact/index.js';
import { loadProjectInstructions, type ProjectInstructions } from '../project/index.js';
import {
  loadPromptCommands,
  parseCommandMessage,
  type PromptCommand,
  resolveSlashMessage,
} from '../project/index.js';
import type { ApprovalDecision, PendingApproval, SessionEvent, TurnState } from './session-events.js';
import type { ToolRuntime } from '../tools/index.js';

export { MAX_AUTO_COMPACTIONS_PER_TURN, MAX_TOOL_ROUNDS_PER_TURN } from '../turn/index.js';
export { UnsentMessageError } from '../errors.js';
export type { CompactionReport } from '../turn/index.js';
export { TurnFailedError } from './turn-failure.js';

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
  recorderOptions?: Omit<RecorderOptions, 'redact'>;
  /**
   * A conversation not written yet: it starts from `initialItems`, and `create` writes its rollout with
   * the selection in force when its first turn (or compaction) starts.
   */
  draft?: { initialItems: readonly ResponseItem[]; create: (selection: ResolvedSelection) => Promise<void> };
  /**
   * Exact values to redact besides the keys Cody reads (`cody serve` passes its token). Events and the
   * rollout are redacted of these, of the known key shapes and of config.json's `redact` patterns.
   */
  secrets?: readonly string[];
  /**
   * Whether someone can answer `approval-requested` events (a terminal, an API client, code). When
   * false, a call the policy would ask about is denied with a reason the model sees; nothing waits.
   */
  canAsk?: boolean | (() => Promise<boolean>);
  /**
   * The front end was given no approval policy of its own (no `--approval`): the policy the
   * conversation's last turn ran under, when one was recorded, wins over the configured default.
   */
  followConversationPolicy?: boolean;
  /**
   * How long an approval request waits for `respond` before the call is declined with "no answer" and
   * the turn goes on. Default: none (a terminal asks a person who sees the question); `createCody` sets
   * config.json's `approvalTimeoutMs`, else 10 minutes.
   */
  approvalTimeoutMs?: number;
  /**
   * The reasoning level the front end was given (`--reasoning`); without one the conversation keeps the
   * level its last turn recorded, else config's (`models.<id>.reasoningEffort`, then `reasoning`).
   */
  reasoning?: ReasoningLevel;
}

export interface SubmitOptions {
  signal?: AbortSignal;
  /** The conversation's reasoning level from this turn on (as `setReasoning`). */
  reasoning?: ReasoningLevel;
}

export type { SelectionChoice, SessionStatus };

export class Session implements ConversationEngine {
  readonly id: string;
  private readonly options: SessionOptions;
  private readonly handle: ConversationHandle;
  private readonly budget: ContextBudget;
  private readonly states = new TurnStateMachine();
  private readonly approvals = new ApprovalDesk();
  /** What is redacted from this conversation's events and rollout. */
  private readonly matchers: Matchers;
  private readonly config: CodyConfig;
  /** A caller's choice for this conversation (`setSelection`): it wins over what the rollout recorded. */
  private choice: SelectionChoice | undefined;
  /** The conversation's reasoning level, once chosen or recorded; else config's applies. */
  private reasoning: ReasoningLevel | undefined;
  /** Models already warned about in this session that they cannot use the reasoning level. */
  private readonly reasoningWarned = new Set<string>();
  /**
   * The approval policy this conversation keeps for its next runs: the one recorded with it (what
   * `/approval`, a flag or a run without a flag chose), else the configured default. A flag's full-auto
   * is in force for its run only and leaves this as it is.
   */
  private keptPolicy: { policy: ApprovalPolicy; recorded: boolean };

  private constructor(options: SessionOptions, matchers: Matchers) {
    this.options = options;
    this.id = options.conversationId;
    this.config = options.config;
    this.matchers = matchers;
    this.keptPolicy = { policy: options.config.approval ?? DEFAULT_APPROVAL_POLICY, recorded: false };
    this.handle = new ConversationHandle({
      manager: options.manager,
      conversationId: options.conversationId,
      config: options.config,
      ...(options.onLockWait ? { onLockWait: options.onLockWait } : {}),
      recorderOptions: { ...options.recorderOptions, redact: (text) => redactText(text, matchers) },
      ...(options.draft ? { draft: draftOf(options.draft, () => this.selection()) } : {}),
    });
    this.budget = new ContextBudget(this.handle, () => this.config, options.tools);
  }

  /** Loads the conversation's live history from its rollout. */
  static async open(options: SessionOptions): Promise<Session> {
    const secrets = await knownSecrets(options.env, options.manager.paths.home);
    const matchers = compileMatchers({
      patterns: options.config.redact ?? [],
      secrets: [...secrets, ...(options.secrets ?? [])],
    });
    const session = new Session(options, matchers);
    await session.handle.reload();
    const recorded = session.handle.lastApprovalPolicy;
    if (isApprovalPolicy(recorded)) session.keptPolicy = { policy: recorded, recorded: true };
    // A policy given for this run (a flag) is what the conversation keeps from now on, except full-auto:
    // only an explicit `/approval full-auto` (setApprovalPolicy) makes a conversation keep that.
    const given = options.tools?.permissions?.().approvalPolicy;
    if (options.followConversationPolicy !== true && isApprovalPolicy(given) && given !== 'full-auto')
      session.keptPolicy = { policy: given, recorded: true };
    if (options.followConversationPolicy === true && isApprovalPolicy(recorded))
      options.tools?.setPolicy?.(recorded);
    session.reasoning = options.reasoning ?? levelFromCodexEffort(session.handle.lastReasoningEffort);
    return session;
  }

  /**
   * Changes the approval policy of this conversation's next tool calls; recorded with the next turn
   * (turn_context), so the conversation keeps it when it is opened again without an explicit policy.
   */
  setApprovalPolicy(policy: string): void {
    if (!isApprovalPolicy(policy)) {
      throw new UsageError(
        `Unknown approval policy '${policy}'. Choose one of: ${APPROVAL_POLICIES.join(', ')}.`,
      );
    }
    const tools = this.options.tools;
    if (!tools?.setPolicy)
      throw new UsageError('This conversation has no tools, so no approval policy applies.');
    tools.setPolicy(policy);
    this.keptPolicy = { policy, recorded: true };
  }

  /**
   * The approval policy the conversation keeps (what a run without `--approval` uses), and whether it was
   * recorded with the conversation or is the configured default.
   */
  keptApprovalPolicy(): { policy: ApprovalPolicy; recorded: boolean } {
    return { ...this.keptPolicy };
  }

  /**
   * Sets how hard the model reasons from the next turn on (`off`, `minimal`, `low`, `medium`, `high`);
   * recorded with each turn (turn_context `effort`/`summary`), so the conversation keeps it.
   */
  setReasoning(level: string): ReasoningLevel {
    this.reasoning = parseReasoningLevel(level);
    return this.reasoning;
  }

  /** The reasoning level of the next turn: the conversation's, else config's; undefined: each API's default. */
  reasoningLevel(): ReasoningLevel | undefined {
    return this.reasoning ?? configuredReasoning(this.selection().model, this.config);
  }

  /** The live history (what the next prompt is built from). */
  get history(): readonly ResponseItem[] {
    return this.handle.history;
  }

  get state(): TurnState {
    return this.states.current;
  }

  /**
   * What the next turn runs with: this conversation's own selection, set-provider's later choice, the
   * config, the defaults — resolved by the one function every front end uses (resolve-selection.ts).
   */
  selection(): ResolvedSelection {
    return resolveConversationSelection({
      ...(this.handle.recordedSelection ? { recorded: this.handle.recordedSelection } : {}),
      ...(this.choice ? { choice: this.choice } : {}),
      config: this.config,
    });
  }

  /** Uses another provider/API/model for this conversation's next turns (the config file is untouched). */
  setSelection(choice: SelectionChoice): Selection {
    const selection = resolveConversationSelection({ choice, config: this.config });
    this.choice = { ...choice };
    if (choice.reasoning !== undefined) this.setReasoning(choice.reasoning);
    return selection;
  }

  status(): SessionStatus {
    const selection = this.selection();
    const limits = lookupModelLimits(selection.model, this.config);
    return {
      id: this.id,
      state: this.states.current,
      provider: selection.provider,
      api: selection.api,
      model: selection.model,
      contextWindow: limits.contextWindow,
      contextTokens: this.budget.contextTokens(),
      autoCompactLimit: this.budget.limitFor(limits),
      compactions: this.handle.compactionCount,
      items: this.handle.history.length,
      ...reasoningStatus(this.reasoningLevel(), this.handle.totalTokenUsage?.reasoningTokens),
      ...(this.handle.plan ? { plan: this.handle.plan } : {}),
      ...(this.options.tools?.permissions
        ? { approvalPolicy: this.options.tools.permissions().approvalPolicy }
        : {}),
      ...(this.options.tools?.sandboxed
        ? { sandbox: this.options.tools.sandboxed() ? ('bubblewrap' as const) : ('none' as const) }
        : {}),
    };
  }

  /**
   * Answers an `approval-requested` event. Returns false when no request with that id is waiting (already
   * answered, or the turn ended).
   */
  respond(approvalId: string, decision: ApprovalDecision, reason?: string): boolean {
    return this.approvals.respond(approvalId, decision, reason);
  }

  /** The approval requests waiting for an answer, oldest first (redacted like the events). */
  pendingApprovals(): PendingApproval[] {
    return redactDeep(this.approvals.list(), (text) => redactText(text, this.matchers));
  }

  /** Whether an approval request with this id is waiting for an answer. */
  isWaitingFor(approvalId: string): boolean {
    return this.approvals.has(approvalId);
  }

  /**
   * Runs one user turn. Throws a `CodyError` when the turn cannot complete (after recording why). Its
   * events carry no secret: deltas pass through a streaming redactor, other events are redacted whole.
   */
  submit(input: string | ContentPart[], submitOptions: SubmitOptions = {}): AsyncGenerator<SessionEvent> {
    return redactEvents(this.turn(input, submitOptions), this.matchers);
  }

  /** Compacts on request, even when the window is already overflowing. */
  compact(focus?: string, signal?: AbortSignal): AsyncGenerator<SessionEvent, CompactionReport> {
    return redactEvents(this.compaction(focus, signal), this.matchers);
  }

  private async *turn(
    input: string | ContentPart[],
    submitOptions: SubmitOptions,
  ): AsyncGenerator<SessionEvent> {
    if (submitOptions.reasoning !== undefined) this.setReasoning(submitOptions.reasoning);
    // A `/name` message is the user's own command, expanded; an unknown one is never sent.
    const message =
      typeof input === 'string' ? await this.expandCommand(input) : await this.expandLead(input);
    // MCP servers connect (and list their tools) before the first request that offers them.
    await this.options.tools?.prepare?.();
    const release = await this.handle.lock();
    try {
      // Secrets learnt since the conversation opened (a sign-in refreshed, a key stored) count from here.
      const known = await knownSecrets(this.options.env, this.options.manager.paths.home);
      replaceSecrets(this.matchers, [...known, ...(this.options.secrets ?? [])]);
      const turn = await this.turnContext(submitOptions.signal);
      const { selection, limits } = turn;
      const content: ContentPart[] =
        typeof message === 'string' ? [{ type: 'input_text', text: message }] : message;
      // Before the turn starts: a model or API that cannot take the images gets nothing at all.
      checkImagesFor(content, {
        api: selection.api,
        model: selection.model,
        acceptsImages: acceptsImages(selection.model, this.config),
      });
      const turnId = randomUUID();
      yield {
        type: 'turn-started',
        turnId,
        provider: selection.provider,
        api: selection.api,
        model: selection.model,
      };
      for (const message of this.handle.takeReadWarnings()) yield { type: 'warning', message };
      const unusable = this.reasoningWarned.has(selection.model)
        ? undefined
        : unusableReasoningWarning(
            selection.model,
            turn.reasoning,
            reasoningSupport(selection.model, this.config),
          );
      if (unusable !== undefined) {
        this.reasoningWarned.add(selection.model);
        yield { type: 'warning', message: unusable };
      }
      if (limits.source === 'default' && this.handle.lastModel !== selection.model) {
        yield {
          type: 'warning',
          message: `Model '${selection.model}' is not in Cody's catalogue: assuming a ${limits.contextWindow}-token context window. Set models.${selection.model}.contextWindow in config.json to change it.`,
        };
      }
      yield* runTurn(turn, turnId, content);
    } catch (error) {
      yield* this.states.finish(isInterrupted(error) ? 'Interrupted' : 'PermanentFailure');
      throw error;
    } finally {
      // The consumer stopped reading (or a bug): the turn still ends recorded, as interrupted, and the
      // state machine returns to Idle (its events have no reader any more), so the next submit runs.
      this.states.finish('Interrupted');
      await this.handle.closeOpenTurn('interrupted');
      this.approvals.abortAll();
      await this.handle.close();
      await release();
    }
  }

  private async *compaction(
    focus: string | undefined,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<SessionEvent, CompactionReport> {
    const release = await this.handle.lock();
    try {
      const turn = await this.turnContext(signal);
      const report = yield* runCompaction(turn, {
        trigger: 'manual',
        ...(focus !== undefined ? { focus } : {}),
      });
      if (this.handle.saveFailure) throw this.handle.saveFailure;
      const idle = this.states.to('Idle');
      if (idle) yield idle;
      return report;
    } catch (error) {
      yield* this.states.finish(isInterrupted(error) ? 'Interrupted' : 'PermanentFailure');
      throw error;
    } finally {
      await this.handle.close();
      await release();
    }
  }

  /** Everything a turn's steps need; the client is built before anything is recorded (a missing key fails cleanly). */
  private async turnContext(signal: AbortSignal | undefined): Promise<TurnContext> {
    const selection = this.selection();
    const factory = this.options.clientFactory ?? createModelClient;
    const { clientCredentials } = await import('../auth/resolve-credentials.js');
    const reasoning = this.reasoningLevel();
    // Read at every turn: an edit applies at once.
    const instructions = await this.projectInstructions();
    // The level reaches only a model that takes its API's control: any other would answer 400.
    const effort = reasoningSupport(selection.model, this.config).effort ? reasoning : undefined;
    const client = await factory({
      api: selection.api,
      model: selection.model,
      env: this.options.env,
      ...(selection.baseUrl ? { baseUrl: selection.baseUrl } : {}),
      ...(await clientCredentials(selection, this.options.env, this.options.manager.paths.home)),
      // Only reasoning models are asked for encrypted reasoning (others answer 400).
      reasoning: isReasoningModel(selection.model, this.options.config),
      ...(effort !== undefined ? { reasoningEffort: effort } : {}),
    });
    return {
      handle: this.handle,
      cwd: this.options.cwd,
      config: this.config,
      selection,
      limits: lookupModelLimits(selection.model, this.config),
      client,
      budget: this.budget,
      states: this.states,
      tools: this.options.tools,
      approvals: this.approvals,
      approvalTimeoutMs: this.options.approvalTimeoutMs ?? 0,
      keptApprovalPolicy: this.keptPolicy.policy,
      canAsk: typeof this.options.canAsk === 'function' ? this.options.canAsk : this.options.canAsk === true,
      signal,
      ...(reasoning !== undefined ? { reasoning } : {}),
      ...(instructions.text !== undefined ? { instructions: instructions.text } : {}),
    };
  }

  /** The prompt commands (`$CODY_HOME/prompts`, `.cody/prompts`, `/init`) available here. */
  promptCommands(): Promise<Map<string, PromptCommand>> {
    return loadPromptCommands(this.options.manager.paths.home, this.options.cwd);
  }

  /** Content whose first part is a `/name` message (a command sent with images): that part expanded. */
  private async expandLead(content: ContentPart[]): Promise<ContentPart[]> {
    const [first, ...rest] = content;
    if (first?.type !== 'input_text') return content;
    const text = await this.expandCommand(first.text);
    return text === first.text ? content : [{ ...first, text }, ...rest];
  }

  private async expandCommand(text: string): Promise<string> {
    if (parseCommandMessage(text) === undefined) return text;
    const resolved = resolveSlashMessage(text, await this.promptCommands());
    if (resolved.kind === 'unknown') {
      throw new UsageError(
        `Unknown command /${resolved.name}: no prompt file ${resolved.name}.md in ${this.options.manager.paths.home}/prompts or .cody/prompts; nothing was sent.`,
      );
    }
    return resolved.kind === 'command' ? resolved.text : text;
  }

  /** The instruction files in effect for this conversation's working directory (read now). */
  projectInstructions(): Promise<ProjectInstructions> {
    return loadProjectInstructions({
      home: this.options.manager.paths.home,
      cwd: this.options.cwd,
      config: this.config,
    });
  }
}

/** The status fields of reasoning: the level (when one applies) and the reasoning tokens so far. */
function reasoningStatus(
  level: ReasoningLevel | undefined,
  tokens: number | undefined,
): Pick<SessionStatus, 'reasoning' | 'reasoningTokens'> {
  return {
    ...(level !== undefined ? { reasoning: level } : {}),
    ...(tokens !== undefined ? { reasoningTokens: tokens } : {}),
  };
}

/** The handle's draft: created with the selection of the moment it is written. */
function draftOf(
  draft: NonNullable<SessionOptions['draft']>,
  selection: () => ResolvedSelection,
): NonNullable<ConversationHandleOptions['draft']> {
  return { initialItems: draft.initialItems, create: () => draft.create(selection()) };
}

function isInterrupted(error: unknown): boolean {
  return error instanceof CodyError && error.kind === 'interrupted';
}
