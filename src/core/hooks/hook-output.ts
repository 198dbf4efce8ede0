/**
 * What one hook's run means, as Claude Code defines it. Exit 0: success (stdout is added context for
 * UserPromptSubmit and SessionStart, or a JSON object of decisions); exit 2: block, stderr is the reason;
 * any other exit, a timeout, a crash: a warning for the person, and the step goes on. Garbage where JSON
 * was meant is a warning too, never a decision.
 */
import { z } from 'zod';
import type { HookEventName } from './hook-config.js';

/** What one hook (or all the hooks of one event, combined) decided. */
export interface HookOutcome {
  /** PreToolUse / PermissionRequest: the permission answer. */
  permission?: 'allow' | 'deny' | 'ask';
  /** UserPromptSubmit, PostToolUse, Stop: `decision: "block"` or exit 2. */
  block?: boolean;
  /** Why (a deny, a block): told to the model, or to the person where the model cannot act on it. */
  reason?: string;
  /** Text added to what the model sees. */
  context?: string[];
  /** PreToolUse / PermissionRequest: the call's arguments rewritten. */
  updatedInput?: Record<string, unknown>;
  /** `continue: false`: the turn stops, with `stopReason`. */
  stop?: string;
  /** Shown to the person: `systemMessage`, a non-blocking error, garbage output. */
  messages?: string[];
}

/** How the process ended, with its (bounded) output. */
export interface HookProcessResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Why it could not be started, or how it died (a signal). */
  failure?: string;
}

const looseText = z.string().max(1_000_000);
const jsonOutput = z
  .object({
    continue: z.boolean().optional(),
    stopReason: looseText.optional(),
    suppressOutput: z.boolean().optional(),
    systemMessage: looseText.optional(),
    decision: z.enum(['block', 'approve', 'allow', 'deny']).optional(),
    reason: looseText.optional(),
    hookSpecificOutput: z
      .object({
        hookEventName: z.string().optional(),
        permissionDecision: z.enum(['allow', 'deny', 'ask']).optional(),
        permissionDecisionReason: looseText.optional(),
        updatedInput: z.record(z.string(), z.unknown()).optional(),
        additionalContext: looseText.optional(),
        decision: z
          .object({
            behavior: z.enum(['allow', 'deny']),
            updatedInput: z.record(z.string(), z.unknown()).optional(),
            message: looseText.optional(),
          })
          .passthrough()
          .optional(),
      })
      .passthrough()
      .optional(),
  })
  .passthrough();

type JsonOutput = z.infer<typeof jsonOutput>;

/** Events whose plain stdout (exit 0) is context for the model. */
const STDOUT_IS_CONTEXT: ReadonlySet<HookEventName> = new Set(['UserPromptSubmit', 'SessionStart']);

/** Events where exit 2 is a permission denial. */
const DENIES: ReadonlySet<HookEventName> = new Set(['PreToolUse', 'PermissionRequest']);

/** Events where exit 2 / `decision: "block"` blocks the step. */
const BLOCKS: ReadonlySet<HookEventName> = new Set(['UserPromptSubmit', 'PostToolUse', 'Stop']);

export function parseHookOutput(event: HookEventName, result: HookProcessResult, name: string): HookOutcome {
  if (result.timedOut) return { messages: [`hook ${name} timed out and was stopped`] };
  if (result.failure !== undefined) return { messages: [`hook ${name} failed: ${result.failure}`] };
  const stderr = result.stderr.trim();
  if (result.exitCode === 2) {
    const reason = stderr || `hook ${name} exited with status 2`;
    if (DENIES.has(event)) return { permission: 'deny', reason };
    if (BLOCKS.has(event)) return { block: true, reason };
    return { messages: [`hook ${name}: ${reason}`] };
  }
  if (result.exitCode !== 0) {
    return {
      messages: [
        `hook ${name} exited with status ${String(result.exitCode)}${stderr ? `: ${firstLine(stderr)}` : ''}`,
      ],
    };
  }
  const stdout = result.stdout.trim();
  if (stdout === '') return {};
  if (stdout.startsWith('{')) return fromJson(event, stdout, name);
  if (STDOUT_IS_CONTEXT.has(event)) return { context: [stdout] };
  // Plain text elsewhere is the hook's own chatter (a formatter naming the file): ignored, unless binary.
  // eslint-disable-next-line no-control-regex -- looking for control characters is the point
  if (/[\u0000-\u0008\u000e-\u001f\ufffd]/.test(stdout))
    return { messages: [`hook ${name} printed output that is neither text nor JSON; ignored`] };
  return {};
}

function fromJson(event: HookEventName, stdout: string, name: string): HookOutcome {
  let parsed: JsonOutput;
  try {
    const checked = jsonOutput.safeParse(JSON.parse(stdout));
    if (!checked.success) throw new Error(checked.error.issues[0]?.message ?? 'invalid');
    parsed = checked.data;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { messages: [`hook ${name} printed JSON Cody cannot use (${firstLine(why)}); ignored`] };
  }
  const outcome: HookOutcome = {};
  if (parsed.continue === false) outcome.stop = parsed.stopReason ?? `hook ${name} stopped the turn`;
  if (parsed.systemMessage) outcome.messages = [parsed.systemMessage];
  const specific = parsed.hookSpecificOutput;
  if (specific?.additionalContext) outcome.context = [specific.additionalContext];
  if (event === 'PreToolUse') {
    // The older top-level form: "approve" / "block".
    const legacy = parsed.decision === 'approve' ? 'allow' : parsed.decision === 'block' ? 'deny' : undefined;
    const permission = specific?.permissionDecision ?? legacy;
    if (permission) outcome.permission = permission;
    const reason = specific?.permissionDecisionReason ?? parsed.reason;
    if (reason) outcome.reason = reason;
    if (specific?.updatedInput) outcome.updatedInput = specific.updatedInput;
  } else if (event === 'PermissionRequest') {
    const answer = specific?.decision;
    if (answer) {
      outcome.permission = answer.behavior;
      if (answer.message) outcome.reason = answer.message;
      if (answer.updatedInput) outcome.updatedInput = answer.updatedInput;
    }
  } else if (BLOCKS.has(event) && parsed.decision === 'block') {
    outcome.block = true;
    outcome.reason = parsed.reason ?? `hook ${name} blocked this`;
  }
  return outcome;
}

/** The outcomes of one event's hooks as one: deny over ask over allow, every context and message kept. */
export function combineOutcomes(outcomes: readonly HookOutcome[]): HookOutcome {
  const combined: HookOutcome = {};
  const rank = { deny: 3, ask: 2, allow: 1 } as const;
  for (const outcome of outcomes) {
    if (
      outcome.permission &&
      (!combined.permission || rank[outcome.permission] > rank[combined.permission])
    ) {
      combined.permission = outcome.permission;
      if (outcome.reason !== undefined) combined.reason = outcome.reason;
      else delete combined.reason;
    }
    if (outcome.block === true && combined.block !== true) {
      combined.block = true;
      if (outcome.reason !== undefined) combined.reason = outcome.reason;
    }
    if (outcome.updatedInput && !combined.updatedInput) combined.updatedInput = outcome.updatedInput;
    if (outcome.stop !== undefined && combined.stop === undefined) combined.stop = outcome.stop;
    if (outcome.context) combined.context = [...(combined.context ?? []), ...outcome.context];
    if (outcome.messages) combined.messages = [...(combined.messages ?? []), ...outcome.messages];
  }
  return combined;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** The one-word decision a `hook` event reports. */
export function decisionWord(outcome: HookOutcome): string | undefined {
  if (outcome.stop !== undefined) return 'stop';
  if (outcome.permission) return outcome.permission;
  if (outcome.block === true) return 'block';
  if (outcome.updatedInput) return 'rewrite';
  if (outcome.context && outcome.context.length > 0) return 'context';
  return undefined;
}
