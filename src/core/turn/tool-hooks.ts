/**
 * Hooks around one tool call. PreToolUse runs after Cody's policy decided: a `deny` refuses, an `ask`
 * makes the call a question, an `allow` answers only a question the policy asks about an action inside
 * the workspace (`hookMayAllow`: never the workspace boundary, a dangerous command, `.git`/`.cody`, a
 * deletion), and `updatedInput` rewrites the call, which the policy then decides again. PermissionRequest
 * runs when Cody would ask, and may answer the same way. PostToolUse may add what the model is told.
 */
import { isRecord, type FunctionCallItem } from '../../protocol/index.js';
import type { SessionEvent } from '../conversation/index.js';
import { claudeToolInput, codyArgumentsFrom, type HookEventName, type HookOutcome } from '../hooks/index.js';
import type { ToolDecision, ToolResult, ToolRuntime } from '../tools/index.js';
import { hookText, runHooks } from './hook-step.js';
import type { TurnContext } from './turn-context.js';

/** What the hooks before a call made of it. */
export interface PreToolResult {
  /** The call as it will run (rewritten by `updatedInput`, or as the model sent it). */
  call: FunctionCallItem;
  decision: ToolDecision;
  /** A hook refused the call, with this reason (for the model). */
  denied?: string;
  /** A hook ended the turn (`continue: false`). */
  stop?: string;
  /** Added to what the model is told with the call's output. */
  notes: string[];
}

function argumentsOf(call: FunctionCallItem): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(call.arguments.trim() === '' ? '{}' : call.arguments);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function toolFields(turn: TurnContext, call: FunctionCallItem): Record<string, unknown> {
  return {
    tool_name: call.name,
    tool_input: claudeToolInput(call.name, argumentsOf(call), turn.cwd),
    tool_use_id: call.call_id,
  };
}

/** The call with a hook's `updatedInput` laid over its arguments, or undefined when it changes nothing. */
function rewritten(
  turn: TurnContext,
  call: FunctionCallItem,
  updated: unknown,
): FunctionCallItem | undefined {
  const original = argumentsOf(call);
  const sent = claudeToolInput(call.name, original, turn.cwd);
  const args = codyArgumentsFrom(call.name, original, sent, updated);
  if (!args) return undefined;
  const text = JSON.stringify(args);
  return text === JSON.stringify(original) ? undefined : { ...call, arguments: text };
}

/** Applies a hook's permission answer to Cody's decision, within what a hook may change. */
function applyPermission(
  turn: TurnContext,
  tools: ToolRuntime,
  result: PreToolResult,
  outcome: HookOutcome,
  event: HookEventName,
): void {
  const reason = outcome.reason !== undefined ? turn.redact(outcome.reason) : undefined;
  if (outcome.permission === 'deny') result.denied = reason ?? `a ${event} hook refused this call`;
  else if (outcome.permission === 'ask' && result.decision.kind === 'allow')
    result.decision = { kind: 'ask', reason: `a hook asks${reason !== undefined ? `: ${reason}` : ''}` };
  else if (
    outcome.permission === 'allow' &&
    result.decision.kind === 'ask' &&
    result.decision.hookMayAllow === true
  ) {
    result.decision = { kind: 'allow' };
    tools.allowUnasked?.(result.call);
  }
}

/** PreToolUse: after the policy's decision, before anything is asked or run. */
export async function* preToolHooks(
  turn: TurnContext,
  tools: ToolRuntime,
  call: FunctionCallItem,
  decision: ToolDecision,
): AsyncGenerator<SessionEvent, PreToolResult> {
  const result: PreToolResult = { call, decision, notes: [] };
  if (!turn.hooks?.has('PreToolUse')) return result;
  const outcome = yield* runHooks(turn, 'PreToolUse', toolFields(turn, call), { tool: call.name });
  if (outcome.stop !== undefined) result.stop = turn.redact(outcome.stop);
  if (outcome.context?.length) result.notes.push(hookText(turn, outcome.context));
  const changed = outcome.permission !== 'deny' ? rewritten(turn, call, outcome.updatedInput) : undefined;
  if (changed) {
    // The rewritten call is Cody's policy's to decide again, from scratch.
    result.call = changed;
    result.decision = await tools.decide(changed);
  }
  applyPermission(turn, tools, result, outcome, 'PreToolUse');
  return result;
}

/** PermissionRequest: Cody is about to ask about the call; a hook may answer instead. */
export async function* permissionHooks(
  turn: TurnContext,
  tools: ToolRuntime,
  pre: PreToolResult,
): AsyncGenerator<SessionEvent, PreToolResult> {
  if (!turn.hooks?.has('PermissionRequest') || pre.decision.kind !== 'ask') return pre;
  const outcome = yield* runHooks(turn, 'PermissionRequest', toolFields(turn, pre.call), {
    tool: pre.call.name,
  });
  if (outcome.stop !== undefined) pre.stop = turn.redact(outcome.stop);
  const changed =
    outcome.permission === 'allow' ? rewritten(turn, pre.call, outcome.updatedInput) : undefined;
  if (changed) {
    pre.call = changed;
    pre.decision = await tools.decide(changed);
    if (pre.decision.kind !== 'ask') return pre;
  }
  // Only allow and deny answer here ('ask' is what happens anyway).
  if (outcome.permission !== 'ask') applyPermission(turn, tools, pre, outcome, 'PermissionRequest');
  return pre;
}

/** PostToolUse: after a call ran; returns what is added to the output the model reads. */
export async function* postToolHooks(
  turn: TurnContext,
  call: FunctionCallItem,
  result: ToolResult,
): AsyncGenerator<SessionEvent, string[]> {
  if (!turn.hooks?.has('PostToolUse')) return [];
  const response = {
    output: result.output,
    status: result.status,
    success: result.status === 'ok',
    ...(result.exitCode !== undefined ? { exit_code: result.exitCode } : {}),
  };
  const outcome = yield* runHooks(
    turn,
    'PostToolUse',
    { ...toolFields(turn, call), tool_response: response },
    { tool: call.name },
  );
  const notes: string[] = [];
  if (outcome.block === true)
    notes.push(`A PostToolUse hook objects: ${hookText(turn, [outcome.reason ?? ''])}`);
  if (outcome.context?.length) notes.push(hookText(turn, outcome.context));
  if (outcome.stop !== undefined) turn.hookStop ??= hookText(turn, [outcome.stop]);
  return notes;
}
