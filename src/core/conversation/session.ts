/**
 * One conversation, live: composes the parts of the engine (src/core/turn, src/core/conversation) — the conversation handle
 * (lock, reload, record), the turn loop, compaction, approval requests and the turn state — behind
 * `submit`, `compact`, `respond` and `status`. A failed turn throws a `CodyError` after recording why;
 * `Conversation` (the public API) turns that into a `turn-failed` event.
 */
import type { ContentPart, ReasoningLevel, ResponseItem } from '../../protocol/index.js';
import { ApprovalDesk } from '../turn/index.js';
import { type CompactionReport, ContextBudget, TurnStateMachine } from '../turn/index.js';
import { ConversationHandle, type ConversationHandleOptions } from './conversation-handle.js';
import type { CodyConfig, Selection } from '../config/index.js';
import {
  configuredReasoning,
  listedLimits,
  lookupModelLimits,
  reasoningSupport,
  type ResolvedSelection,
  resolveConversationSelection,
} from '../selection/index.js';
import type { ConversationEngine, SelectionChoice, SessionStatus } from './session-surface.js';
import { UsageError } from '../errors.js';
import {
  APPROVAL_POLICIES,
  DEFAULT_APPROVAL_POLICY,
  isApprovalPolicy,
  type ApprovalPolicy,
} from '../tools/index.js';
import {
  levelFromCodexEffort,
  parseReasoningLevel,
  unusableReasoningWarning,
  type HookSessionState,
} from '../turn/index.js';
import { compileMatchers, knownSecrets, type Matchers, redactDeep, redactText } from '../redact/index.js';
import { redactEvents } from '../redact/index.js';
import { loadProjectInstructions, type ProjectInstructions } from '../project/index.js';
import { loadPromptCommands, type PromptCommand } from '../project/index.js';
import type { ApprovalDecision, PendingApproval, SessionEvent, TurnState } from './session-events.js';
import type { SessionOptions, SubmitOptions } from './session-options.js';
import { runSessionCompaction, runSessionTurn, type SessionParts } from './session-turn.js';

export { MAX_AUTO_COMPACTIONS_PER_TURN, MAX_TOOL_ROUNDS_PER_TURN } from '../turn/index.js';
export { UnsentMessageError } from '../errors.js';
export type { CompactionReport } from '../turn/index.js';
export { TurnFailedError } from '../turn/index.js';
export type { SessionOptions, SubmitOptions };

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
  /** What a turn or a compaction works with (session-turn.ts). */
  private readonly parts: SessionParts;
  /** The SessionStart due, and whether one ran (then SessionEnd runs at close). */
  private readonly hookState: HookSessionState = { started: false };

  private constructor(options: SessionOptions, matchers: Matchers) {
    this.options = options;
    this.id = options.conversationId;
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
    this.parts = {
      options,
      config: options.config,
      handle: this.handle,
      budget: this.budget,
      states: this.states,
      approvals: this.approvals,
      matchers,
      reasoningWarned: this.reasoningWarned,
      prompts: { home: options.manager.paths.home, commands: () => this.promptCommands() },
      hookState: this.hookState,
      selection: () => this.selection(),
      reasoningLevel: () => this.reasoningLevel(),
      setReasoning: (level) => this.setReasoning(level),
      keptPolicy: () => this.keptPolicy.policy,
      projectInstructions: () => this.projectInstructions(),
    };
  }

  /** The configuration in force (config.json as the last turn began, with `readConfig`). */
  private get config(): CodyConfig {
    return this.parts.config;
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
    session.hookState.pendingStart = session.handle.firstUserMessage === undefined ? 'startup' : 'resume';
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
    const listed = listedLimits(this.options.manager.paths.home, selection, selection.model);
    const limits = lookupModelLimits(selection.model, this.config, listed);
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
      ...reasoningStatus(
        selection.model,
        this.reasoningLevel(),
        this.handle.totalTokenUsage?.reasoningTokens,
        this.config,
      ),
      ...(this.handle.plan ? { plan: this.handle.plan } : {}),
      ...(this.options.tools?.permissions
        ? { approvalPolicy: this.options.tools.permissions().approvalPolicy }
        : {}),
      ...(this.options.tools?.sandboxed
        ? { sandbox: this.options.tools.sandboxed() ? ('bubblewrap' as const) : ('none' as const) }
        : {}),
      ...(this.options.tools?.unconfined?.() === true ? { confinement: 'off' as const } : {}),
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
    return redactEvents(runSessionTurn(this.parts, input, submitOptions), this.matchers);
  }

  /** Compacts on request, even when the window is already overflowing. */
  compact(focus?: string, signal?: AbortSignal): AsyncGenerator<SessionEvent, CompactionReport> {
    return redactEvents(runSessionCompaction(this.parts, focus, signal), this.matchers);
  }

  /**
   * SessionEnd hooks, when the conversation closes after a SessionStart ran; returns what the person
   * should be told (their warnings). Never throws.
   */
  async endHooks(reason: string): Promise<string[]> {
    const hooks = this.options.hooks;
    if (!hooks?.has('SessionEnd') || !this.hookState.started) return [];
    this.hookState.started = false;
    const { hookInput } = await import('../hooks/index.js');
    const input = hookInput(
      'SessionEnd',
      {
        session_id: this.id,
        transcript_path: this.handle.filePath,
        cwd: this.options.cwd,
        permission_mode: this.options.tools?.permissions?.().approvalPolicy ?? 'none',
      },
      { reason },
    );
    const run = await hooks.run('SessionEnd', input, { value: reason }).catch(() => undefined);
    return (run?.outcome.messages ?? []).map((message) => redactText(`Hook: ${message}`, this.matchers));
  }

  /** The prompt commands (`$CODY_HOME/prompts`, `.cody/prompts`, `/init`) available here. */
  promptCommands(): Promise<Map<string, PromptCommand>> {
    return loadPromptCommands(this.options.manager.paths.home, this.options.cwd);
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
/** The level, whether the model reasons (the catalogue's or config's word) and why a level is ignored. */
function reasoningStatus(
  model: string,
  level: ReasoningLevel | undefined,
  tokens: number | undefined,
  config: CodyConfig,
): Pick<SessionStatus, 'reasoning' | 'reasoningTokens' | 'modelReasons' | 'reasoningIgnored'> {
  const support = reasoningSupport(model, config);
  const ignored = unusableReasoningWarning(model, level, support);
  return {
    modelReasons: support.reasons,
    ...(ignored !== undefined ? { reasoningIgnored: ignored } : {}),
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
