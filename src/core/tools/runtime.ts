/**
 * Cody's tool runtime: the built-in tools (and any MCP tools) under an approval policy and the workspace
 * boundary. `decide` is pure policy; `run` validates arguments with zod before anything happens, runs
 * shell commands that did not need asking inside bubblewrap where it is installed, and never throws.
 */
import { isAbsolute, relative } from 'node:path';
import {
  type FunctionCallItem,
  type GhostSnapshotItem,
  isRecord,
  type ToolSpec,
} from '../../protocol/index.js';
import { alwaysScopeOf, ApprovalMemory, type ScopedApproval } from './approval-scope.js';
import { DEFAULT_DANGEROUS_COMMANDS, type DangerousCommand } from './command-safety.js';
import type { BoundCall, EditorFiles, HandlerContext, SandboxSettings, ToolHandler } from './handler.js';
import { findRipgrep } from './file-search.js';
import { gitConfigStamp } from './git-config-stamp.js';
import { DEFAULT_SAFE_COMMANDS } from './safe-commands.js';
import { detectSandbox, type SandboxState } from './sandbox.js';
import { toolEnvironment, type ShellEnvironmentPolicy } from './tool-environment.js';
import { decidePolicy, type Access, type ApprovalPolicy } from './policy.js';
import type {
  SpecsTarget,
  ToolDecision,
  ToolPermissions,
  ToolResult,
  ToolRunContext,
  ToolRuntime,
} from './tool-runtime.js';
import { BUILTIN_TOOL_SPECS, READ_ONLY_TOOLS } from './tool-specs.js';
import { openWorkspace, type Workspace } from './workspace.js';
import type { WebFetchSettings } from './web-fetch.js';

/** Default shell timeout: long enough for a test run, short enough that a hung command ends the wait. */
export const DEFAULT_SHELL_TIMEOUT_MS = 120_000;

/** Tools from elsewhere (MCP servers), offered beside the built-in ones. */
export interface ExternalTools {
  /** Starts what is needed to list the tools (MCP servers connect); idempotent. */
  prepare(): Promise<void>;
  /** The tools' specs; `target`: the request's wire API, when known. */
  specs(target?: SpecsTarget): ToolSpec[];
  has(name: string): boolean;
  isReadOnly(name: string): boolean;
  call(name: string, args: Record<string, unknown>, context: ToolRunContext): Promise<ToolResult>;
  close(): Promise<void>;
}

export interface ToolRuntimeOptions {
  cwd: string;
  policy: ApprovalPolicy;
  /** Replaces the default list of commands that always ask. */
  dangerousCommands?: readonly DangerousCommand[];
  /** Bubblewrap for shell commands that run without asking (default on, network off). */
  sandbox?: { enabled?: boolean; network?: boolean };
  /** Sign-in files (Cody's, Codex's, Claude Code's) hidden from commands in the sandbox. */
  credentialFiles?: readonly string[];
  /** Whether a sandbox can be used here (tests inject it; default: bwrap on PATH and a trial run). */
  detectSandbox?: typeof detectSandbox;
  /** Read-only commands that run without asking (default DEFAULT_SAFE_COMMANDS). */
  safeCommands?: readonly string[];
  /** What tool processes inherit (Cody's credentials never). */
  shellEnvironment?: ShellEnvironmentPolicy;
  shellTimeoutMs?: number;
  /** Told once about things the person should know (e.g. bubblewrap missing). */
  onNotice?: (message: string) => void;
  external?: ExternalTools;
  env?: NodeJS.ProcessEnv;
  /** web_fetch's hosts that need no asking, and whether private addresses may be fetched. */
  webFetch?: WebFetchSettings;
  /**
   * `--dangerously-skip-confinement` (config `dangerouslySkipConfinement`): without a sandbox, full-auto
   * runs unasked commands Cody cannot show stay in the workspace.
   */
  unconfined?: boolean;
  /** read_file reads through the editor's buffers (after the same checks). */
  editorFiles?: EditorFiles;
}

/** The `sandbox_policy` recorded in turn_context, in Codex's shape. */
export type SandboxPolicy = ToolPermissions['sandboxPolicy'];

export interface CodyToolRuntime extends ToolRuntime {
  specs(target?: SpecsTarget): ToolSpec[];
  has(name: string): boolean;
  decide(call: FunctionCallItem): Promise<ToolDecision>;
  rememberApproval(call: FunctionCallItem): void;
  allowUnasked(call: FunctionCallItem): void;
  isReadOnly(call: FunctionCallItem): boolean;
  run(call: FunctionCallItem, context: ToolRunContext): Promise<ToolResult>;
  close(): Promise<void>;
  /** Starts external tool sources before the first request that offers tools. */
  prepare(): Promise<void>;
  /**
   * A ghost snapshot of the work tree, taken before the first call of a turn that may change files;
   * undefined outside a git work tree (or when git fails: said once through onNotice).
   */
  snapshot(): Promise<GhostSnapshotItem | undefined>;
  readonly workspace: Workspace;
  policy(): ApprovalPolicy;
  setPolicy(policy: ApprovalPolicy): void;
  sandboxPolicy(): SandboxPolicy;
  /** Whether shell commands that run unasked are confined (bubblewrap works here). */
  sandboxed(): boolean;
  unconfined(): boolean;
}

// eslint-disable-next-line max-lines-per-function -- a closure factory: its methods share the policy, the remembered approvals and the sandbox state
export function createToolRuntime(options: ToolRuntimeOptions): CodyToolRuntime {
  const workspace = openWorkspace(options.cwd);
  /** The repository's git config as the session found it (see git-config-stamp). */
  const gitStamp = gitConfigStamp(workspace.root);
  const dangerous = options.dangerousCommands ?? DEFAULT_DANGEROUS_COMMANDS;
  const external = options.external;
  let policy = options.policy;
  let handlers: Promise<Record<string, ToolHandler>> | undefined;
  const loadHandlers = (): Promise<Record<string, ToolHandler>> =>
    (handlers ??= import('./builtin-handlers.js').then((module) =>
      module.builtinHandlers(
        {
          dangerous,
          safeCommands: options.safeCommands ?? DEFAULT_SAFE_COMMANDS,
          trustGitConfig: () => gitConfigStamp(workspace.root) === gitStamp,
          environment: shellEnv,
        },
        options.webFetch,
      ),
    ));
  const remembered = new ApprovalMemory();
  /**
   * The "always" scope offered with each call that asked, by call id, until it is answered; null when
   * the question offered none (approve-session then approves that call only).
   */
  const offered = new Map<string, ScopedApproval | null>();
  /** Calls that were allowed by policy alone (they run sandboxed). */
  const unasked = new Set<string>();
  /**
   * Each decided built-in call, by call id, until it runs: it runs as bound when decided, so a path it
   * resolved for the decision is the path it changes (see resolvedOnce in file-tools).
   */
  const decided = new Map<string, BoundCall>();
  const sandboxSettings = options.sandbox ?? {};
  let sandboxState: SandboxState | undefined;
  /** Detected once, silently: the policy and turn_context depend on it. */
  const sandbox = (): SandboxState =>
    (sandboxState ??= (options.detectSandbox ?? detectSandbox)(
      sandboxSettings,
      workspace,
      options.env ?? process.env,
    ));
  let toldNoSandbox = false;
  let toldNoSnapshot = false;
  /** bwrap for a command that runs unasked; said once when there is none (unless config turned it off). */
  const usableBwrap = (): string | undefined => {
    const state = sandbox();
    if (state.available) return state.bwrap;
    if (!toldNoSandbox && sandboxSettings.enabled !== false) {
      toldNoSandbox = true;
      options.onNotice?.(`${state.why}: shell commands run without a sandbox.`);
    }
    return undefined;
  };
  const shellEnv = toolEnvironment(process.env, options.shellEnvironment);
  const builtinNames = new Set(BUILTIN_TOOL_SPECS.map((spec) => spec.name));

  /**
   * The policy's answer, given what "always" answers this session remembered. An 'ask' carries the scope
   * an "always" would have, only when remembering it would let such a call run (never for a call that
   * asks whatever was said before: a deletion, a dangerous command, a path outside the workspace).
   */
  const decideScoped = (access: Access, scoped: ScopedApproval | undefined, callId: string): ToolDecision => {
    const confined =
      access.kind === 'exec'
        ? { sandbox: sandbox().available, ...(options.unconfined === true ? { unconfined: true } : {}) }
        : {};
    const decision = decidePolicy(access, { policy, remembered: remembered.covers(scoped), ...confined });
    if (decision.kind !== 'ask') return decision;
    const mereAsk = decidePolicy(access, { policy, remembered: true, ...confined }).kind === 'allow';
    const offer = scoped !== undefined && mereAsk ? scoped : null;
    offered.set(callId, offer);
    // A declined call's offer is never taken back: keep only the latest few.
    if (offered.size > 32) offered.delete(offered.keys().next().value ?? callId);
    const asked = mereAsk ? { ...decision, hookMayAllow: true } : decision;
    return offer === null ? asked : { ...asked, alwaysScope: offer.scope };
  };

  const scopeOf = (call: FunctionCallItem): ScopedApproval | undefined => {
    const args = parseArguments(call.arguments);
    const isExternal = !builtinNames.has(call.name) && external?.has(call.name) === true;
    return args ? alwaysScopeOf(call.name, args, workspace, isExternal) : undefined;
  };

  const sandboxPolicy = (): SandboxPolicy => {
    if (policy === 'read-only') return { type: 'read-only' };
    if (!sandbox().available) return { type: 'danger-full-access' };
    return {
      type: 'workspace-write',
      writable_roots: [workspace.root],
      network_access: options.sandbox?.network === true,
    };
  };

  return {
    workspace,
    policy: () => policy,
    setPolicy: (next) => {
      policy = next;
    },
    sandboxPolicy,
    sandboxed: () => sandbox().available,
    unconfined: () => options.unconfined === true,
    snapshot: async () => {
      if (!workspace.isGit) return undefined;
      try {
        const { createGhostSnapshot } = await import('../undo/ghost-snapshot.js');
        return await createGhostSnapshot(workspace.root);
      } catch (error) {
        if (!toldNoSnapshot) {
          toldNoSnapshot = true;
          options.onNotice?.(
            `Could not snapshot the work tree before changes (${error instanceof Error ? error.message : String(error)}): this turn cannot be undone.`,
          );
        }
        return undefined;
      }
    },
    snapshotChanges: async (before) => {
      if (!workspace.isGit) return undefined;
      try {
        const { takeTurnChanges } = await import('../undo/turn-changes.js');
        return await takeTurnChanges(workspace.root, before);
      } catch {
        // Undo then falls back to the next snapshot (or the work tree) as this turn's end.
        return undefined;
      }
    },
    permissions: () => ({ approvalPolicy: policy, sandboxPolicy: sandboxPolicy() }),
    prepare: async () => {
      await external?.prepare();
    },
    specs: (target) => [...BUILTIN_TOOL_SPECS, ...(external?.specs(target) ?? [])],
    has: (name) => builtinNames.has(name) || external?.has(name) === true,
    isReadOnly: (call) =>
      READ_ONLY_TOOLS.has(call.name) ||
      (!builtinNames.has(call.name) && external?.isReadOnly(call.name) === true),
    decide: async (call) => {
      const args = parseArguments(call.arguments);
      let access: Access;
      if (builtinNames.has(call.name)) {
        const bound = (await loadHandlers())[call.name]?.bind(args ?? call.arguments);
        // Invalid arguments run nothing: `run` reports the problem to the model.
        if (!bound?.ok) return { kind: 'allow' };
        access = bound.call.access(workspace);
        // A call that cannot apply is refused before anyone is asked (its reason goes to the model).
        const refusal = await refusalOf(bound.call, access, workspace);
        if (refusal !== undefined) return { kind: 'deny', reason: refusal, cannotApply: true };
        decided.set(call.call_id, bound.call);
        // A call decided but never run (declined) is forgotten after a while.
        if (decided.size > 32) decided.delete(decided.keys().next().value ?? call.call_id);
        const scoped = args ? alwaysScopeOf(call.name, args, workspace, false) : undefined;
        const decision = decideScoped(access, scoped, call.call_id);
        if (decision.kind === 'allow') unasked.add(call.call_id);
        if (decision.kind !== 'ask' || !bound.call.preview) return decision;
        const preview = await bound.call.preview(workspace).catch(() => undefined);
        return preview === undefined ? decision : { ...decision, preview };
      }
      if (external?.has(call.name)) {
        access = { kind: 'external', name: call.name, readOnly: external.isReadOnly(call.name) };
        const scoped = args ? alwaysScopeOf(call.name, args, workspace, true) : undefined;
        return decideScoped(access, scoped, call.call_id);
      }
      return { kind: 'deny', reason: `No tool named '${call.name}' is available.` };
    },
    allowUnasked: (call) => {
      if (builtinNames.has(call.name)) unasked.add(call.call_id);
    },
    rememberApproval: (call) => {
      // What the question offered; a call never asked about (a caller of the runtime itself) gets its scope.
      const scoped = offered.has(call.call_id) ? offered.get(call.call_id) : scopeOf(call);
      offered.delete(call.call_id);
      if (scoped) remembered.remember(scoped);
    },
    run: async (call, context) => {
      const args = parseArguments(call.arguments);
      if (args === undefined)
        return {
          output: `Error: the arguments of ${call.name} are not a JSON object: ${call.arguments}`,
          status: 'error',
        };
      try {
        if (!builtinNames.has(call.name)) {
          if (!external?.has(call.name))
            return { output: `Error: no tool named '${call.name}' is available.`, status: 'error' };
          return await external.call(call.name, args, context);
        }
        const decidedCall = decided.get(call.call_id);
        decided.delete(call.call_id);
        const bound = decidedCall
          ? { ok: true as const, call: decidedCall }
          : (await loadHandlers())[call.name]?.bind(args);
        if (!bound) return { output: `Error: no tool named '${call.name}' is available.`, status: 'error' };
        if (!bound.ok) return { output: bound.error, status: 'error' };
        let confined: SandboxSettings | undefined;
        if (call.name === 'shell' && unasked.has(call.call_id) && sandboxSettings.enabled !== false) {
          const found = usableBwrap();
          if (found)
            confined = {
              bwrap: found,
              network: sandboxSettings.network === true,
              hide: options.credentialFiles ?? [],
            };
        }
        unasked.delete(call.call_id);
        const handlerContext: HandlerContext = {
          ...context,
          workspace,
          env: shellEnv,
          defaultShellTimeoutMs: options.shellTimeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS,
          ...(confined ? { sandbox: confined } : {}),
          ...(options.editorFiles ? { editorFiles: options.editorFiles } : {}),
        };
        const rg = findRipgrep(options.env ?? process.env);
        if (rg !== undefined) handlerContext.rg = rg;
        return await bound.call.run(handlerContext);
      } catch (error) {
        return { output: `Error: ${fileErrorText(error, workspace) ?? messageOf(error)}`, status: 'error' };
      }
    },
    close: async () => {
      await external?.close();
    },
  };
}

/**
 * Why a bound call cannot apply, from its own check. Files outside the workspace are never read for it:
 * what a check says about a file (whether some text is in it) must not tell the model anything it could
 * not read without asking.
 */
async function refusalOf(call: BoundCall, access: Access, workspace: Workspace): Promise<string | undefined> {
  if (!call.check) return undefined;
  if ((access.kind === 'write' || access.kind === 'read') && access.outside.length > 0) return undefined;
  // A check that fails for its own reasons leaves the decision to the policy (running reports the rest).
  return call.check(workspace).catch(() => undefined);
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * A file system error as a person says it, naming the path as the call gave it (relative to the
 * workspace): `no such file: nope.txt`, not Node's `ENOENT: no such file or directory, open '/…'`.
 */
function fileErrorText(error: unknown, workspace: Workspace): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, path } = error as NodeJS.ErrnoException;
  if (path === undefined) return undefined;
  const shown = relative(workspace.cwd, path);
  const named = shown === '' ? '.' : shown.startsWith('..') || isAbsolute(shown) ? path : shown;
  if (code === 'ENOENT') return `no such file: ${named}`;
  if (code === 'EISDIR') return `${named} is a directory`;
  if (code === 'ENOTDIR') return `not a directory: ${named}`;
  if (code === 'EACCES' || code === 'EPERM') return `permission denied: ${named}`;
  return undefined;
}

function parseArguments(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text.trim() === '' ? '{}' : text);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
