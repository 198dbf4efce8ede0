/** What every step of one turn (or one compaction) works with. */
import type { ModelClient, ReasoningLevel } from '../../protocol/index.js';
import type { CodyConfig, Selection } from '../config/index.js';
import type { ModelLimits } from '../selection/index.js';
import type { ToolRuntime } from '../tools/index.js';
import type { ApprovalDesk } from '../turn/index.js';
import type { ContextBudget } from './context-budget.js';
import type { ConversationHandle } from '../conversation/index.js';
import type { TurnStateMachine } from './turn-state.js';
import type { HookCommonInput, HookRecord, HookSet } from '../hooks/index.js';

/** What a conversation remembers about its hooks between turns. */
export interface HookSessionState {
  /** The SessionStart to run before the next turn's prompt: a new conversation, one opened again, after a compaction. */
  pendingStart?: 'startup' | 'resume' | 'compact';
  /** Whether a SessionStart ran (SessionEnd runs when the conversation closes only then). */
  started: boolean;
}

export interface TurnContext {
  /** Set once this turn recorded its ghost snapshot (one per turn, before the first change). */
  snapshotTaken?: boolean;
  /** The id of that snapshot, when one was taken: the turn's change set is measured from it. */
  snapshotId?: string;
  handle: ConversationHandle;
  /** The working directory recorded with the turn. */
  cwd: string;
  config: CodyConfig;
  selection: Selection;
  /** The address the client calls (config's base URL, the provider's variable, else its default). */
  endpoint?: string;
  limits: ModelLimits;
  client: ModelClient;
  budget: ContextBudget;
  states: TurnStateMachine;
  tools: ToolRuntime | undefined;
  approvals: ApprovalDesk;
  /** How long an approval request waits before it is declined with "no answer" (0: until answered). */
  approvalTimeoutMs: number;
  /** The approval policy the conversation keeps, recorded beside the one in force when they differ. */
  keptApprovalPolicy?: string;
  /**
   * Whether someone answers approval requests; when not, an 'ask' is a denial. A function is asked at
   * each approval (a server: is a client attached to this conversation's events?).
   */
  canAsk: boolean | (() => Promise<boolean>);
  signal: AbortSignal | undefined;
  /**
   * Every secret Cody knows (and its base64 and hex forms) replaced, as in events and the rollout: what
   * each tool's output passes through before it enters the history the model is sent.
   */
  redact: (text: string) => string;
  /** The project instructions in effect for this turn (read at its start), if any file is. */
  instructions?: string;
  /** The engine's hooks (undefined: none can run). */
  hooks?: HookSet;
  hookState?: HookSessionState;
  /** The fields every hook's input carries. */
  hookCommon?: HookCommonInput;
  /** A hook ended the turn (`continue: false`) with this reason: the turn stops after the current calls. */
  hookStop?: string;
  /** Hook runs before the turn's user message is on disk: recorded right after it. */
  pendingHookRecords?: HookRecord[];
  /** The conversation's reasoning level for this turn (recorded in turn_context); absent: the API's default. */
  reasoning?: ReasoningLevel;
}
