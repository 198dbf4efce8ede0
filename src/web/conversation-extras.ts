/**
 * The parts of an open conversation the page shows beside its messages, kept from `GET …/state` and the
 * live events: each tool call's live view (by call id), the approval requests waiting, the plan, whether a
 * compaction runs, and the context meter's figures. Pure: `applyExtrasEvent` returns a new state.
 */
import type { ApprovalRequestView } from './components/approval-card.js';
import { countRequest, NO_USAGE, type MeterCost, type UsageTotals } from './meter-cost.js';
import type { PlanView } from './components/plan-checklist.js';
import {
  applyToolEvent,
  newToolCall,
  outputText,
  parseShellOutput,
  recordedStatus,
  type FunctionCall,
  type ToolCallView,
  type ToolEvent,
} from './tool-calls.js';

export interface ContextFigures {
  contextTokens: number;
  contextWindow: number;
  autoCompactLimit?: number;
}

export interface ExtrasState {
  /** Tool calls seen live, by call id (recorded ones are built from the transcript). */
  toolCalls: Readonly<Record<string, ToolCallView>>;
  approvals: readonly ApprovalRequestView[];
  plan?: PlanView;
  compacting: boolean;
  context?: ContextFigures;
  /** Tokens of the model requests this page saw (each `usage` event). */
  usage: UsageTotals;
  /** What those requests cost at list prices (each `usage` event's `costUsd`; see meter-cost.ts). */
  cost?: MeterCost;
}

export const NO_EXTRAS: ExtrasState = { toolCalls: {}, approvals: [], compacting: false, usage: NO_USAGE };

/** What `GET …/state` says, as the page reads it (fields it does not know are ignored). */
export interface StateView {
  pendingApprovals?: readonly object[];
  plan?: unknown;
  status?: unknown;
}

/** The state of a conversation just opened: what waits, its plan and its context figures. */
export function extrasFromState(state: StateView): ExtrasState {
  const approvals = (state.pendingApprovals ?? []).map(pendingRequest).filter(isApprovalRequest);
  const plan = isPlan(state.plan) ? state.plan : undefined;
  const status = isRecord(state.status) ? state.status : {};
  const context =
    typeof status.contextTokens === 'number' && typeof status.contextWindow === 'number'
      ? {
          contextTokens: status.contextTokens,
          contextWindow: status.contextWindow,
          ...(typeof status.autoCompactLimit === 'number'
            ? { autoCompactLimit: status.autoCompactLimit }
            : {}),
        }
      : undefined;
  return {
    ...NO_EXTRAS,
    approvals,
    ...(plan !== undefined ? { plan } : {}),
    ...(context !== undefined ? { context } : {}),
  };
}

/** A live event as the page receives it: `type` and the fields of that type. */
export type ExtrasEvent = { type: string } & Record<string, unknown>;

export function applyExtrasEvent(state: ExtrasState, event: ExtrasEvent): ExtrasState {
  switch (event.type) {
    case 'tool-call': {
      const call = event.call as FunctionCall;
      const view = state.toolCalls[call.call_id] ?? newToolCall(call);
      return withCall(state, applyToolEvent(view, event as unknown as ToolEvent));
    }
    case 'approval-requested': {
      if (!isApprovalRequest(event)) return state;
      // The event replaces what the state route listed for it (the event carries `alwaysScope`).
      const approvals = state.approvals.some((request) => request.id === event.id)
        ? state.approvals.map((request) => (request.id === event.id ? event : request))
        : [...state.approvals, event];
      const view = state.toolCalls[event.call.call_id] ?? newToolCall(event.call);
      return { ...withCall(state, { ...view, status: 'waiting-approval' }), approvals };
    }
    case 'approval-resolved':
      return { ...state, approvals: state.approvals.filter((request) => request.id !== event.id) };
    case 'tool-started':
    case 'tool-output':
    case 'tool-finished': {
      const callId =
        event.type === 'tool-started' ? (event.call as FunctionCall).call_id : String(event.callId);
      const view =
        state.toolCalls[callId] ??
        (event.type === 'tool-started' ? newToolCall(event.call as FunctionCall) : undefined);
      return view ? withCall(state, applyToolEvent(view, event as unknown as ToolEvent)) : state;
    }
    case 'plan-updated':
      return isPlan(event)
        ? {
            ...state,
            plan: {
              plan: event.plan,
              ...(typeof event.explanation === 'string' ? { explanation: event.explanation } : {}),
            },
          }
        : state;
    case 'compaction-started':
      return { ...state, compacting: true };
    case 'compaction-finished':
      return {
        ...state,
        compacting: false,
        ...(state.context && typeof event.tokensAfter === 'number'
          ? { context: { ...state.context, contextTokens: event.tokensAfter } }
          : {}),
      };
    case 'usage': {
      // Each request's usage counts (see countRequest); `turn-complete` repeats the last one.
      const counted = isRecord(event.usage)
        ? {
            ...state,
            ...countRequest(
              state,
              event.usage,
              typeof event.costUsd === 'number' ? event.costUsd : undefined,
            ),
          }
        : state;
      return typeof event.contextTokens === 'number' && typeof event.contextWindow === 'number'
        ? {
            ...counted,
            context: {
              ...counted.context,
              contextTokens: event.contextTokens,
              contextWindow: event.contextWindow,
            },
          }
        : counted;
    }
    case 'turn-failed':
      // A turn that ends leaves nothing waiting (the server answers its approvals "no" or drops them).
      return { ...state, approvals: [], compacting: false };
    default:
      return state;
  }
}

function withCall(state: ExtrasState, view: ToolCallView): ExtrasState {
  return { ...state, toolCalls: { ...state.toolCalls, [view.callId]: view } };
}

/**
 * The view of a recorded call: live when this page saw it run, else from its recorded output (absent:
 * the call never got one, as in a turn that was cut short).
 */
export function recordedToolCall(
  call: FunctionCall,
  output: unknown,
  live: Readonly<Record<string, ToolCallView>>,
): ToolCallView {
  const seen = live[call.call_id];
  if (seen !== undefined && (seen.status === 'running' || output === undefined)) return seen;
  if (output === undefined) return { ...newToolCall(call), status: seen?.status ?? 'asked' };
  const text = outputText(output);
  const shell = call.name === 'shell' ? parseShellOutput(text) : undefined;
  if (shell !== undefined) {
    return {
      ...newToolCall(call, shell.status),
      output: shell.output,
      durationMs: seen?.durationMs ?? shell.durationMs,
      ...(shell.exitCode !== undefined ? { exitCode: shell.exitCode } : {}),
    };
  }
  return {
    ...newToolCall(call, seen?.status === 'error' ? 'error' : recordedStatus(text)),
    output: text,
    ...(seen?.exitCode !== undefined ? { exitCode: seen.exitCode } : {}),
    ...(seen?.durationMs !== undefined ? { durationMs: seen.durationMs } : {}),
  };
}

/** The outputs of the recorded calls, by call id (the transcript shows each under its call). */
export function outputsByCall(
  items: ReadonlyArray<{ type: string; call_id?: string; output?: unknown }>,
): Map<string, unknown> {
  const outputs = new Map<string, unknown>();
  for (const item of items)
    if (item.type === 'function_call_output' && item.call_id !== undefined)
      outputs.set(item.call_id, item.output);
  return outputs;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A waiting approval's question: the event as it was sent (it carries `alwaysScope`), else one made from
 * the listed fields.
 */
function pendingRequest(pending: object): unknown {
  const record = pending as Record<string, unknown>;
  if (isApprovalRequest(record.request)) return record.request;
  return {
    id: record.id,
    call: { name: record.tool, arguments: record.arguments, call_id: record.callId },
    reason: record.reason,
    ...(typeof record.preview === 'string' ? { preview: record.preview } : {}),
  };
}

function isApprovalRequest(value: unknown): value is ApprovalRequestView {
  if (!isRecord(value) || typeof value.id !== 'string' || typeof value.reason !== 'string') return false;
  const call = value.call;
  return isRecord(call) && typeof call.name === 'string' && typeof call.call_id === 'string';
}

function isPlan(value: unknown): value is PlanView {
  return (
    isRecord(value) &&
    Array.isArray(value.plan) &&
    value.plan.every(
      (step) => isRecord(step) && typeof step.step === 'string' && typeof step.status === 'string',
    )
  );
}
