/** What a `Session` is opened with and what one turn takes: the session's inputs, apart from its behaviour. */
import type { ClientOptions, ModelClient, ReasoningLevel, ResponseItem } from '../../protocol/index.js';
import type { RecorderOptions } from '../rollout/index.js';
import type { CodyConfig } from '../config/index.js';
import type { ResolvedSelection } from '../selection/index.js';
import type { ConversationManager } from '../store/index.js';
import type { ToolRuntime } from '../tools/index.js';
import type { HookSet } from '../hooks/index.js';

export interface SessionOptions {
  manager: ConversationManager;
  /** A resolved conversation id. */
  conversationId: string;
  config: CodyConfig;
  /**
   * config.json as it is now, read at the start of each turn and compaction: `cody set-provider` in
   * another terminal applies to an open conversation's next turn (a server's, a REPL's) as it would to a
   * new `cody chat`. Without it the session keeps `config`.
   */
  readConfig?: () => Promise<CodyConfig>;
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
  /** The engine's hooks (config.json's and the workspace's trusted ones); absent: none run. */
  hooks?: HookSet;
}

export interface SubmitOptions {
  signal?: AbortSignal;
  /** The conversation's reasoning level from this turn on (as `setReasoning`). */
  reasoning?: ReasoningLevel;
}
