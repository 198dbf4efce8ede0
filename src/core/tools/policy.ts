/**
 * Approval policies: what runs freely, what asks, what is refused. Pure: the runtime describes a call as
 * the accesses it makes, and `decidePolicy` answers. The workspace boundary, the dangerous-command list
 * and writes to `.git` or `.cody` (protected-paths.ts) apply whatever the policy.
 */
import type { ToolDecision } from './tool-decision.js';

export const APPROVAL_POLICIES = ['read-only', 'ask', 'auto-edit', 'full-auto'] as const;
export type ApprovalPolicy = (typeof APPROVAL_POLICIES)[number];
export const DEFAULT_APPROVAL_POLICY: ApprovalPolicy = 'ask';

export function isApprovalPolicy(value: unknown): value is ApprovalPolicy {
  return typeof value === 'string' && (APPROVAL_POLICIES as readonly string[]).includes(value);
}

/**
 * What front ends show for as long as it holds (banner, status): full-auto with nothing confining the
 * commands it runs unasked, louder when the person turned confinement off. Undefined otherwise.
 */
export function noSandboxWarning(
  policy: string | undefined,
  sandboxed: boolean | undefined,
  unconfined = false,
): string | undefined {
  if (policy !== 'full-auto' || sandboxed !== false) return undefined;
  if (unconfined)
    return 'full-auto without a sandbox and with confinement off (--dangerously-skip-confinement): commands run unconfined, even those Cody cannot check (only those seen reaching outside the workspace ask)';
  return 'full-auto without a sandbox: commands run unconfined, so only those Cody can show stay in the workspace run unasked (the rest ask)';
}

/** What a call does, as far as approval is concerned. */
export type Access =
  /** Reads files; `outside` lists the paths outside the workspace. */
  | { kind: 'read'; outside: readonly string[] }
  /**
   * Changes files; `outside` lists the paths outside the workspace, `deletes` the files it deletes,
   * `protectedPaths` those under `.git` or `.cody` as `path — what it is` (protected-paths.ts).
   */
  | {
      kind: 'write';
      outside: readonly string[];
      summary: string;
      deletes?: readonly string[];
      protectedPaths?: readonly string[];
    }
  /**
   * Runs a command; `danger` says why it must ask whatever the policy; `outsideCwd` when it runs outside;
   * the rest is what shell-analysis found (absent fields: nothing found).
   */
  | {
      kind: 'exec';
      command: string;
      danger?: string;
      outsideCwd?: string;
      /** Paths outside the workspace (or unknown) it may change or work in. */
      escapes?: readonly string[];
      /** Paths outside the workspace it reads. */
      readsOutside?: readonly string[];
      /** Why the command line cannot be checked. */
      unparsable?: string;
      /** A read-only command of the safe list, every path inside the workspace. */
      safe?: boolean;
      /**
       * Every part is a program whose every effect Cody knows, every path inside the workspace: what
       * full-auto runs unasked without a sandbox. Absent: not shown.
       */
      staysInside?: boolean;
      /** Why it could not be shown to stay inside (an interpreter, a wrapper, an unknown program…). */
      leaves?: string;
    }
  /** Calls an external (MCP) tool; `readOnly` when the server marks it so. */
  | { kind: 'external'; name: string; readOnly: boolean }
  /** Reads a URL from the network (web_fetch); `allowed` when its host is in `webFetch.allowedHosts`. */
  | { kind: 'network'; url: string; allowed: boolean };

export interface PolicyContext {
  policy: ApprovalPolicy;
  /** Whether this session already said "always" to a scope this call falls in (approval-scope.ts). */
  remembered: boolean;
  /** Whether commands that run without asking run in a sandbox (bubblewrap); default: no. */
  sandbox?: boolean;
  /**
   * The user turned confinement off explicitly (`--dangerously-skip-confinement`, config key
   * `dangerouslySkipConfinement`): the only way past the asks that hold under every other setting.
   */
  unconfined?: boolean;
}

/** The policy's answer for one access. Never prompts. */
export function decidePolicy(access: Access, context: PolicyContext): ToolDecision {
  const { policy } = context;
  switch (access.kind) {
    case 'read':
      if (access.outside.length === 0) return { kind: 'allow' };
      return boundary(policy, `reads ${list(access.outside)}, outside the workspace`);
    case 'write':
      if (access.outside.length > 0)
        return boundary(policy, `writes ${list(access.outside)}, outside the workspace`);
      if (policy === 'read-only') return deny(policy, `would change files (${access.summary})`);
      // Git's data and Cody's settings ask every time, whatever the policy or was said before.
      if (
        access.protectedPaths !== undefined &&
        access.protectedPaths.length > 0 &&
        context.unconfined !== true
      )
        return { kind: 'ask', reason: `edit ${list(access.protectedPaths)}` };
      // Deleting a file asks every time, whatever was said before, unless the policy is full-auto.
      if (access.deletes !== undefined && access.deletes.length > 0 && policy !== 'full-auto')
        return { kind: 'ask', reason: `deletes ${list(access.deletes)}: ${access.summary}` };
      if (policy === 'auto-edit' || policy === 'full-auto' || context.remembered) return { kind: 'allow' };
      return { kind: 'ask', reason: access.summary };
    case 'exec':
      return decideExec(access, context);
    case 'external':
      // A tool its server marks read-only runs freely; Cody cannot see where an MCP tool reaches.
      if (access.readOnly) return { kind: 'allow' };
      if (policy === 'read-only') return deny(policy, `would call ${access.name}`);
      if (policy === 'full-auto' || context.remembered) return { kind: 'allow' };
      return { kind: 'ask', reason: `call ${access.name}` };
    case 'network':
      if (policy === 'read-only') return deny(policy, `would fetch ${access.url} from the network`);
      if (access.allowed || policy === 'full-auto' || context.remembered) return { kind: 'allow' };
      return { kind: 'ask', reason: `fetch ${access.url} (network access)` };
    default: {
      const exhaustive: never = access;
      throw new Error(`unknown access ${JSON.stringify(exhaustive)}`);
    }
  }
}

/**
 * A command: reading outside the workspace asks like read_file; a safe read-only command runs under every
 * policy; without a sandbox, reaching outside the workspace asks whatever the policy, and a command the
 * analysis cannot check asks under every policy but full-auto with a sandbox. Without a sandbox, full-auto
 * runs unasked only the commands shown to stay inside, unless the person turned confinement off.
 */
function decideExec(access: Extract<Access, { kind: 'exec' }>, context: PolicyContext): ToolDecision {
  const { policy } = context;
  const sandbox = context.sandbox === true;
  const command = access.command;
  if (access.readsOutside && access.readsOutside.length > 0)
    return boundary(policy, `reads ${list(access.readsOutside)}, outside the workspace: ${command}`);
  if (access.safe === true && access.danger === undefined && access.outsideCwd === undefined)
    return { kind: 'allow' };
  if (policy === 'read-only') return deny(policy, `would run a command (${command})`);
  if (access.danger !== undefined) return { kind: 'ask', reason: `${access.danger}: ${command}` };
  if (access.outsideCwd !== undefined)
    return { kind: 'ask', reason: `runs in ${access.outsideCwd}, outside the workspace: ${command}` };
  if (!sandbox && access.escapes && access.escapes.length > 0)
    return {
      kind: 'ask',
      reason: `reaches ${list(access.escapes)}, outside the workspace, with no sandbox: ${command}`,
    };
  const confined = sandbox || context.unconfined === true;
  if (access.unparsable !== undefined && (policy !== 'full-auto' || !confined))
    return { kind: 'ask', reason: `Cody cannot check this command (${access.unparsable}): ${command}` };
  if (context.remembered) return { kind: 'allow' };
  if (policy === 'full-auto' && !confined && access.staysInside !== true)
    return {
      kind: 'ask',
      reason: `with no sandbox, full-auto runs unasked only what Cody can show stays in the workspace, and ${access.leaves ?? 'this command is not shown to'}: ${command}`,
    };
  if (policy === 'full-auto') return { kind: 'allow' };
  return { kind: 'ask', reason: `run: ${command}` };
}

/** Outside the workspace: always asks, and read-only refuses outright. */
function boundary(policy: ApprovalPolicy, what: string): ToolDecision {
  return policy === 'read-only' ? deny(policy, what) : { kind: 'ask', reason: what };
}

function deny(policy: ApprovalPolicy, what: string): ToolDecision {
  return { kind: 'deny', reason: `the ${policy} approval policy refuses this: the call ${what}.` };
}

function list(paths: readonly string[]): string {
  return paths.join(', ');
}
