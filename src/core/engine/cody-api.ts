/**
 * What `createCody` gives: the engine's one door. Every front end (the CLI and its REPL, `cody serve`, the
 * editor and MCP front ends, a program embedding Cody) does everything through `Cody` and the live
 * `Conversation`s it hands out; none reaches the conversation store, the session or the tool runtime.
 */
import type { CodyConfig, CodyPaths } from '../config/index.js';
import type { ApprovalDecision, CodyNotice, Conversation, SelectionChoice } from '../conversation/index.js';
import type { ProviderAuthStatus } from '../auth/index.js';
import type { McpServerStatus } from '../mcp/index.js';
import type { ExportFormat, ForkOptions } from '../store/index.js';
import type { ConversationSummary, RecapMessage, Transcript } from '../rollout/index.js';
import type { TranscriptPage, TranscriptPageOptions } from '../rollout/index.js';
import type { ApprovalPolicy, EditorFiles, ToolRuntime } from '../tools/index.js';
import type { DiffStat, UndoResult } from '../undo/index.js';
import type { ClientOptions, ModelClient } from '../../protocol/index.js';
import type { LiveRun, LiveWatch } from '../live-channel/index.js';
import type { HookListing } from '../hooks/index.js';

export interface CreateCodyOptions {
  /** Cody's home (conversations, config); default `$CODY_HOME`, else `~/.cody`. */
  home?: string;
  /** Where API keys and settings are read from; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The working directory tools run in and turns record; default `process.cwd()`. */
  cwd?: string;
  /** The approval policy of the built-in tools; default config.json's `approval`, else 'ask'. */
  approvalPolicy?: ApprovalPolicy;
  /**
   * Without a sandbox, full-auto runs unasked even the commands Cody cannot show stay in the workspace
   * (`--dangerously-skip-confinement`); default config.json's `dangerouslySkipConfinement`, else false.
   */
  unconfined?: boolean;
  /**
   * Whether the caller answers `approval-requested` events (default true). When false, a call the policy
   * would ask about is denied with a reason the model sees, and nothing waits. A function is asked at
   * each approval, with the conversation's id (a server answers whether a client is attached).
   */
  canAsk?: boolean | ((conversationId: string) => Promise<boolean>);
  /**
   * How long an `approval-requested` waits for `respond` before the call is declined with the reason
   * "no answer" and the turn goes on; default config.json's `approvalTimeoutMs`, else 10 minutes. 0: it
   * waits until answered or aborted.
   */
  approvalTimeoutMs?: number;
  /**
   * Closes a live conversation with no turn running, no `hold` and no use for this long (a server that
   * runs for days); default: never. A closed `Conversation` refuses new turns; `open` gives a new one.
   */
  idleCloseMs?: number;
  /** Replaces the built-in tools (tests; programs with tools of their own). `false`: no tools at all. */
  tools?: ToolRuntime | false;
  /** Builds the model client (tests point it elsewhere). */
  clientFactory?: (options: ClientOptions) => Promise<ModelClient>;
  /** Recorded in each new conversation's session_meta. */
  version?: string;
  /**
   * Exact values redacted from every event and rollout, besides the keys Cody reads (provider key
   * variables, stored keys, `cody serve`'s token file), the known key shapes and config.json's `redact`.
   */
  secrets?: readonly string[];
  /** Told what the person should know outside a turn: bubblewrap missing, an MCP server failing. */
  onNotice?: (notice: CodyNotice) => void;
  /** Called once when another process holds a conversation's lock and this one starts waiting. */
  onLockWait?: (conversationId: string) => void;
  /**
   * Conversations live in a private scratch directory, removed by `close()`: nothing is saved. `from`
   * (a resolved id in the home) is copied there first and made active, to continue it.
   */
  ephemeral?: boolean | { from?: string };
  /**
   * An editor's buffers: read_file reads a file it has checked (in the workspace or allowed, a regular
   * file, not too large) as the editor has it, unsaved edits included (`cody acp`).
   */
  editorFiles?: EditorFiles;
  /**
   * MCP servers this engine's conversations use besides config.json's (an editor's, `cody acp`); a name
   * config.json also has keeps config.json's server.
   */
  mcpServers?: NonNullable<CodyConfig['mcpServers']>;
}

export interface Cody {
  /** The conversations, newest activity first (what `cody list` shows); the first `limit` of them. */
  list(options?: { limit?: number }): Promise<ConversationSummary[]>;
  /** The full id of an id or unique prefix (an unknown or ambiguous one is refused). */
  resolve(id: string): Promise<string>;
  /** The CLI's active conversation (what `cody chat` continues), if any. */
  active(): Promise<string | undefined>;
  /** Makes a conversation the CLI's active one. */
  activate(id: string): Promise<void>;
  /** A new conversation, with the configured provider/model unless `selection` says otherwise. */
  create(selection?: SelectionChoice): Promise<Conversation>;
  /** A new conversation written now but not opened (`cody new`); its id. */
  start(options?: StartOptions): Promise<string>;
  /**
   * A new conversation shown before it exists: its id now, the live conversation from `open()`; its
   * rollout is written (and made the CLI's active conversation with `activate`) when its first turn
   * starts, so one nobody speaks in leaves nothing behind.
   */
  draft(options?: { selection?: SelectionChoice; activate?: boolean }): ConversationDraft;
  /** The live conversation with that id (or unique prefix); the same object for every caller. */
  open(id: string): Promise<Conversation>;
  get(id: string): Promise<ConversationSummary>;
  /**
   * Deletes a conversation: refused with 'busy' while a turn runs on it, unless `abortRunning` (the turn
   * is then interrupted and recorded before the file goes).
   */
  delete(id: string, options?: { abortRunning?: boolean }): Promise<void>;
  /**
   * Sets the title `list` and `get` show (what `cody rename` does; '' goes back to the generated one);
   * answers with the summary as renamed.
   */
  rename(id: string, title: string): Promise<ConversationSummary>;
  /**
   * Imports a Codex rollout as a new conversation (made the CLI's active one with `activate`);
   * `importedItems`: how many of its items it holds.
   */
  import(
    path: string,
    options?: { activate?: boolean },
  ): Promise<ConversationSummary & { importedItems: number }>;
  /** A new conversation branching from another: the whole history, or what came before user turn n. */
  fork(id: string, options?: ForkOptions): Promise<Conversation>;
  /** The same fork, written but not opened (`cody fork`); its id (made the CLI's active one with `activate`). */
  startFork(id: string, options?: ForkOptions & { activate?: boolean }): Promise<string>;
  /** Every recorded item, a page at a time: `after` is the `next` cursor of the previous page. */
  transcript(id: string, options?: TranscriptPageOptions): Promise<TranscriptPage>;
  /** The whole transcript at once, with the warnings of its reading (`cody show`). */
  fullTranscript(id: string): Promise<Transcript>;
  /** What resuming a conversation finds, without opening it (`cody resume`). */
  peek(id: string): Promise<ConversationPeek>;
  /** The typed user messages and the replies at the end of a conversation (a resume's recap). */
  recap(id: string): Promise<RecapMessage[]>;
  /**
   * The whole conversation written out (what `cody export` and `/export` write), redacted with the
   * config's patterns and every secret Cody knows unless `redact: false`; `onWarning` is told what was
   * skipped while reading it.
   */
  export(id: string, format: ExportFormat, options?: ExportOptions): Promise<string>;
  /** Takes back what the last `turns` turns that changed files did (`cody undo`, `/undo`). */
  undo(id: string, options: UndoRequest): Promise<UndoResult>;
  /** What one turn changed (the last turn that changed files by default), from its snapshots (`cody diff`). */
  diff(id: string, options?: { turn?: number }): Promise<TurnDiff>;
  /** The config.json this engine read and where its files are. */
  settings(): Promise<{ config: CodyConfig; paths: CodyPaths }>;
  /** The approval policy new conversations start with (undefined: no tools), and full-auto's no-sandbox warning. */
  startingApproval(): Promise<{
    policy: ApprovalPolicy | undefined;
    unconfined(): Promise<string | undefined>;
  }>;
  /** Each provider's sign-in: where its key or sign-in comes from (`cody auth status`). */
  signIns(options?: { offline?: boolean }): Promise<ProviderAuthStatus[]>;
  /** Starts each configured MCP server, lists its state and tools, and shuts them down (`cody mcp list`). */
  mcpStatus(): Promise<McpServerStatus[]>;
  /** The hooks configured for this engine's workspace (config.json's, `.cody/hooks.json`'s and whether it is trusted). */
  hooks(): Promise<HookListing>;
  /**
   * Trusts the workspace's `.cody/hooks.json` as it is now, when its content is still `sha256` (what the
   * person was shown in `hooks()`): its commands run from the next turn on. Recorded in $CODY_HOME.
   */
  trustProjectHooks(sha256: string): Promise<HookListing>;
  /** Interrupts the turn running on that conversation in this process, if any. */
  abort(id: string): boolean;
  /**
   * Answers an approval request by its id, on whichever live conversation asked it: that conversation's
   * id, or undefined when no request with that id waits (answered already, declined "no answer", ended).
   */
  respond(approvalId: string, decision: ApprovalDecision, reason?: string): string | undefined;
  /** Keeps a live conversation from being closed for idleness until the returned function is called. */
  hold(id: string): () => void;
  /** Called with the id of each live conversation closed (idle, deleted, or found deleted). */
  onClose(listener: (id: string) => void): () => void;
  /**
   * Watches the turns (and compactions) another process runs on that conversation — `cody chat` in a
   * terminal while a server shows it: `onRun` is told of the one going on now and of each that begins
   * later, with its events from its start (redacted with this engine's secrets too). This engine's own
   * runs are not told. `ready` resolves once the run going on now, if any, was told.
   */
  watchLive(id: string, onRun: (run: LiveRun) => void): LiveWatch;
  /** Interrupts every running turn and forgets the live conversations. */
  close(): Promise<void>;
}

export interface ConversationPeek {
  id: string;
  /** The provider, API (its name) and model its last turn ran with (its start's, before any turn). */
  ranWith: { provider: string; api: string; model: string };
  /** User and assistant messages in the context. */
  messages: number;
  /** What its next turn runs with (the current selection). */
  next: { provider: string; apiName: string; api: string; model: string };
  /** What was skipped while reading it. */
  warnings: string[];
}

/** What `Cody.start` takes: a selection, or a config changed since it was read (`cody new --model` saves it). */
export interface StartOptions {
  selection?: SelectionChoice;
  config?: CodyConfig;
  /** Made the CLI's active conversation (default false). */
  activate?: boolean;
}

export interface ConversationDraft {
  id: string;
  open(): Promise<Conversation>;
}

export interface ExportOptions {
  /** Default true. */
  redact?: boolean;
  onWarning?: (warning: string) => void;
}

export interface UndoRequest {
  turns: number;
  /** Restore paths changed since the turn too, once `confirm` agrees. */
  force?: boolean;
  /** Asked before overwriting paths changed since the turn (force); false: nothing is done. */
  confirm?: (paths: readonly string[]) => Promise<boolean>;
}

/** One turn's change set: its number, the snapshots before and after, its diff and stat computed on demand. */
export interface TurnDiff {
  turn: number;
  snapshot: string;
  unified(): Promise<string>;
  stat(): Promise<DiffStat>;
}
