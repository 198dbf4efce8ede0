import type { ApprovalPolicy } from './policy.js';
import type {
  ContentPart,
  FunctionCallItem,
  GhostSnapshotItem,
  ToolSpec,
  WireApi,
} from '../../protocol/index.js';
import type { TurnChangesPayload } from '../undo/index.js';

/**
 * What the policy says about one call: run it, ask whoever is in charge (the person, an API client, the
 * program embedding Cody), or refuse it with a reason the model is told.
 */
export type ToolDecision =
  | { kind: 'allow' }
  | {
      kind: 'ask';
      reason: string;
      preview?: string;
      alwaysScope?: AlwaysScope;
      /**
       * The policy merely asks about an action inside the workspace (a remembered "always" would let it
       * run): a hook's `allow` may answer it. Absent for what asks whatever was said before — the
       * workspace boundary, a dangerous command, `.git`/`.cody`, a deletion, a command Cody cannot check.
       */
      hookMayAllow?: boolean;
    }
  | {
      kind: 'deny';
      reason: string;
      /**
       * The call cannot apply as it stands (checked against the files, or the address, before asking):
       * `reason` is one sentence, what the model is told as the call's error and what front ends show.
       */
      cannotApply?: true;
    };

/**
 * What answering "always" to an approval covers for the rest of the session (see approval-scope.ts).
 * `kind` is 'command' (a shell program and subcommand, or one exact compound line), 'file' (the same
 * tool on the same files) or 'call' (an external tool with the same arguments); `label` is what the
 * question names: `git status`, `edits to app.js`. Absent when "always" is not offered (a deletion).
 */
export interface AlwaysScope {
  kind: 'command' | 'file' | 'call';
  label: string;
}

/** What a request's tool specs are for: its wire API (MCP schemas Gemini takes only part of are said once). */
export interface SpecsTarget {
  api: WireApi;
}

/** What running a call produced. Failures are reported in `output` (the model reads it), never thrown. */
export interface ToolResult {
  /** What the call produced, as text (what front ends show). */
  output: string;
  /** What the model is given instead of `output`, when it is more than text (`view_image`'s image). */
  content?: ContentPart[];
  exitCode?: number;
  status: 'ok' | 'error' | 'aborted';
}

export interface ToolRunContext {
  signal?: AbortSignal;
  /** Output as it is produced (a shell command's stdout/stderr), for front ends to show live. */
  onOutput?: (chunk: string) => void;
}

/**
 * The tools a conversation offers the model and the policy that governs them. The engine asks
 * `decide`, turns an 'ask' into an `approval-requested` event (or a denial when nobody can answer),
 * and runs allowed calls.
 */
export interface ToolRuntime {
  /** Specs sent with every request; `target` is the request's wire API, when known. */
  specs(target?: SpecsTarget): ToolSpec[];
  has(name: string): boolean;
  /** Pure policy: whether this call may run, needs asking, or is refused. Never prompts. */
  decide(call: FunctionCallItem): Promise<ToolDecision>;
  /**
   * A hook allowed a call the policy asked about (`hookMayAllow`): it runs as one the policy allowed
   * (a shell command inside the sandbox, where there is one).
   */
  allowUnasked?(call: FunctionCallItem): void;
  /** The person approved this call's `alwaysScope` for the rest of the session ('approve-session'). */
  rememberApproval(call: FunctionCallItem): void;
  /** Read-only calls may run concurrently. */
  isReadOnly(call: FunctionCallItem): boolean;
  /** Runs a call that was allowed or approved. */
  run(call: FunctionCallItem, context: ToolRunContext): Promise<ToolResult>;
  /** Releases what the tools hold (MCP servers shut down). */
  close?(): Promise<void>;
  /** Starts what the tools need before a turn offers them (MCP servers connect and list tools). */
  prepare?(): Promise<void>;
  /**
   * A ghost snapshot of the work tree, taken once per turn before the first call that may change files
   * runs; undefined when none can be taken (not a git work tree).
   */
  snapshot?(): Promise<GhostSnapshotItem | undefined>;
  /**
   * At the end of a turn that took a snapshot: the work tree as the turn left it, and what differs from
   * the snapshot `before` (the turn's change set); undefined when it cannot be taken.
   */
  snapshotChanges?(before: string): Promise<TurnChangesPayload | undefined>;
  /** The approval policy and sandbox in force, recorded in each turn_context. */
  permissions?(): ToolPermissions;
  /** Changes the approval policy for the calls that follow (per conversation). */
  setPolicy?(policy: ApprovalPolicy): void;
  /** Whether shell commands that run without asking are confined by a sandbox. */
  sandboxed?(): boolean;
  /** Whether the person turned confinement off (`--dangerously-skip-confinement`). */
  unconfined?(): boolean;
}

export interface ToolPermissions {
  /** Cody's approval policy: read-only, ask, auto-edit or full-auto. */
  approvalPolicy: string;
  /** What shell commands that run without asking are confined to (Codex's sandbox_policy shape). */
  sandboxPolicy:
    | { type: 'read-only' }
    | { type: 'workspace-write'; writable_roots: string[]; network_access: boolean }
    | { type: 'danger-full-access' };
}
