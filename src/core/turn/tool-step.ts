/**
 * One tool call of a turn: the policy decides; an 'ask' becomes an `approval-requested` event answered
 * through `respond` (or a denial when nobody can answer); an allowed call runs with its output streamed;
 * the output is recorded for the model either way.
 */
import type { FunctionCallItem } from '../../protocol/index.js';
import { truncateToolOutput } from '../compact/index.js';
import { DEFAULT_TOOL_OUTPUT_TOKENS } from '../config/index.js';
import { parsePlanArguments, UPDATE_PLAN_TOOL } from '../tools/index.js';
import type { SessionEvent, ToolDeclinedBy, ToolFinishStatus } from '../conversation/index.js';
import { groupCalls } from '../tools/index.js';
import type { ToolResult, ToolRuntime } from '../tools/index.js';
import { NO_ANSWER } from '../turn/index.js';
import { AsyncQueue } from '../turn/index.js';
import type { TurnContext } from './turn-context.js';
import type { ToolDecision } from '../tools/index.js';
import { notify } from './hook-step.js';
import { permissionHooks, postToolHooks, preToolHooks, type PreToolResult } from './tool-hooks.js';

/** Runs a generator to its end, keeping its events to yield later. */
async function drain(events: AsyncGenerator<SessionEvent, unknown>): Promise<SessionEvent[]> {
  const kept: SessionEvent[] = [];
  for await (const event of events) kept.push(event);
  return kept;
}

/** Whether a call runs; when not, what the model is told, and whether the person stopped the turn. */
interface Verdict {
  run: boolean;
  output?: string;
  abort?: boolean;
  /** Why a call that does not run was declined (for the `tool-call` event). */
  declined?: { by: ToolDeclinedBy; reason: string };
  /** The call as it runs, when a PreToolUse hook rewrote its arguments. */
  call?: FunctionCallItem;
  /** What hooks add to the output the model reads. */
  notes?: string[];
}

/** The `tool-call` event: approved, or declined with who declined it and why. */
function toolCallEvent(call: FunctionCallItem, verdict: Verdict): SessionEvent {
  return {
    type: 'tool-call',
    call: verdict.call ?? call,
    approved: verdict.run,
    ...(verdict.declined ? { declinedBy: verdict.declined.by, reason: verdict.declined.reason } : {}),
  };
}

export const DECLINED_BY_USER = 'The user declined to run this tool call. Ask them how to proceed.';

/**
 * Runs one response's calls: each run of consecutive read-only calls at the same time, every other call
 * alone, in order; each call gets exactly one output, recorded in call order. Once the person stops the
 * turn, the remaining calls are recorded as not run. Returns true when the turn was stopped.
 */
export async function* runToolCalls(
  turn: TurnContext,
  calls: readonly FunctionCallItem[],
): AsyncGenerator<SessionEvent, boolean> {
  const { tools } = turn;
  let stopped = false;
  for (const group of groupCalls(calls, (call) => tools?.has(call.name) === true && tools.isReadOnly(call))) {
    if (stopped) {
      for (const call of group.calls)
        yield* finishCall(turn, call, { run: false, output: NOT_RUN }, undefined, Date.now());
    } else if (group.readOnly && group.calls.length > 1 && tools) {
      stopped = yield* runTogether(turn, tools, group.calls);
    } else {
      for (const call of group.calls) {
        if (stopped) yield* finishCall(turn, call, { run: false, output: NOT_RUN }, undefined, Date.now());
        else stopped = yield* runToolCall(turn, call);
      }
    }
  }
  return stopped;
}

const NOT_RUN = 'Not run: the user stopped the turn.';

/** Runs one call; returns true when the person chose to stop the turn instead ('abort'). */
export async function* runToolCall(
  turn: TurnContext,
  call: FunctionCallItem,
): AsyncGenerator<SessionEvent, boolean> {
  const { tools } = turn;
  const verdict: Verdict =
    tools?.has(call.name) === true
      ? yield* approve(turn, tools, call)
      : {
          run: false,
          output: `Error: no tool named '${call.name}' is available.`,
          declined: { by: 'cannot-apply', reason: `no tool named '${call.name}' is available.` },
        };
  yield toolCallEvent(call, verdict);
  const executing = turn.states.to('ExecutingTools');
  if (executing) yield executing;
  let result: ToolResult | undefined;
  if (verdict.run && tools) {
    const running = verdict.call ?? call;
    if (!tools.isReadOnly(running)) yield* snapshotOnce(turn, tools);
    yield { type: 'tool-started', call: running };
    const started = Date.now();
    result = yield* runStreaming(turn, tools, running);
    yield* finishRun(turn, call, verdict, result, started);
  } else {
    yield* finishCall(turn, call, verdict, undefined, Date.now());
  }
  return verdict.abort === true;
}

/** Consecutive read-only calls: asked about in order, then run at the same time. */
async function* runTogether(
  turn: TurnContext,
  tools: ToolRuntime,
  calls: readonly FunctionCallItem[],
): AsyncGenerator<SessionEvent, boolean> {
  const verdicts: Verdict[] = [];
  for (const call of calls) {
    const verdict = verdicts.some((earlier) => earlier.abort === true)
      ? { run: false, output: NOT_RUN }
      : yield* approve(turn, tools, call);
    yield toolCallEvent(call, verdict);
    verdicts.push(verdict);
  }
  const executing = turn.states.to('ExecutingTools');
  if (executing) yield executing;
  const started = Date.now();
  for (const [index, call] of calls.entries())
    if (verdicts[index]?.run === true) yield { type: 'tool-started', call: verdicts[index]?.call ?? call };
  const results = await Promise.all(
    calls.map((call, index) =>
      verdicts[index]?.run === true
        ? tools
            .run(verdicts[index]?.call ?? call, { ...(turn.signal ? { signal: turn.signal } : {}) })
            .catch((error: unknown): ToolResult => ({
              output: `Error: ${error instanceof Error ? error.message : String(error)}`,
              status: 'error',
            }))
        : Promise.resolve(undefined),
    ),
  );
  for (const [index, call] of calls.entries()) {
    const verdict = verdicts[index] ?? { run: false };
    const result = results[index];
    if (result) yield* finishRun(turn, call, verdict, result, started);
    else yield* finishCall(turn, call, verdict, undefined, started);
  }
  return verdicts.some((verdict) => verdict.abort === true);
}

/** A call that ran: its PostToolUse hooks, whose notes join the verdict's, then `finishCall`. */
async function* finishRun(
  turn: TurnContext,
  call: FunctionCallItem,
  verdict: Verdict,
  result: ToolResult,
  started: number,
): AsyncGenerator<SessionEvent> {
  const notes = yield* postToolHooks(turn, verdict.call ?? call, result);
  yield* finishCall(turn, call, { ...verdict, notes: [...(verdict.notes ?? []), ...notes] }, result, started);
}

/** Records a call's output (truncated) and says it finished. */
async function* finishCall(
  turn: TurnContext,
  call: FunctionCallItem,
  verdict: Verdict,
  result: ToolResult | undefined,
  started: number,
): AsyncGenerator<SessionEvent> {
  const output = result ? result.output : (verdict.output ?? '');
  const status: ToolFinishStatus = result ? result.status : verdict.abort ? 'aborted' : 'denied';
  const maxTokens = turn.config.toolOutputTokens ?? DEFAULT_TOOL_OUTPUT_TOKENS;
  // Secrets go before anything is cut (a cut through a key would leave half of it) or recorded: the
  // history the model is sent and the rollout hold the same redacted output. Content (an image from
  // view_image) keeps its image; its text parts are redacted.
  const notes = verdict.notes?.length ? `\n\n[hooks]\n${verdict.notes.join('\n')}` : '';
  const recorded = result?.content
    ? [
        ...result.content.map((part) =>
          part.type === 'input_image' ? part : { ...part, text: turn.redact(part.text) },
        ),
        ...(notes ? [{ type: 'input_text' as const, text: notes.trimStart() }] : []),
      ]
    : truncateToolOutput(turn.redact(output), maxTokens, turn.handle.accountant.estimator) + notes;
  yield* turn.handle.record({ type: 'function_call_output', call_id: call.call_id, output: recorded });
  if (call.name === UPDATE_PLAN_TOOL && result?.status === 'ok') {
    const plan = parsePlanArguments(call.arguments);
    if (plan) {
      turn.handle.plan = plan;
      yield { type: 'plan-updated', callId: call.call_id, ...plan };
    }
  }
  yield {
    type: 'tool-finished',
    callId: call.call_id,
    durationMs: Date.now() - started,
    status,
    ...(result?.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
  };
}

/** The turn's ghost snapshot (its undo point), recorded before its first call that may change files. */
async function* snapshotOnce(turn: TurnContext, tools: ToolRuntime): AsyncGenerator<SessionEvent> {
  if (turn.snapshotTaken === true || !tools.snapshot) return;
  turn.snapshotTaken = true;
  const snapshot = await tools.snapshot();
  if (!snapshot) return;
  if (typeof snapshot.ghost_commit.id === 'string') turn.snapshotId = snapshot.ghost_commit.id;
  yield* turn.handle.record(snapshot);
}

/**
 * At the end of a turn that took a snapshot: its change set (`turn_changes`: the snapshot after the turn
 * and the paths that differ), so undo and diff take back exactly what the turn did.
 */
export async function* recordTurnChanges(turn: TurnContext): AsyncGenerator<SessionEvent> {
  const before = turn.snapshotId;
  if (before === undefined || !turn.tools?.snapshotChanges) return;
  turn.snapshotId = undefined;
  const changes = await turn.tools.snapshotChanges(before);
  if (changes) yield* turn.handle.append((recorder) => recorder.appendEvent({ ...changes }));
}

async function* approve(
  turn: TurnContext,
  tools: ToolRuntime,
  call: FunctionCallItem,
): AsyncGenerator<SessionEvent, Verdict> {
  let pre = yield* preToolHooks(turn, tools, call, await tools.decide(call));
  const hooked = (verdict: Verdict): Verdict => ({
    ...verdict,
    ...(pre.call !== call ? { call: pre.call } : {}),
    ...(pre.notes.length > 0 ? { notes: pre.notes } : {}),
  });
  const refused = refusal(turn, pre);
  if (refused) return hooked(refused);
  pre = yield* permissionHooks(turn, tools, pre);
  const answered = refusal(turn, pre);
  if (answered || pre.decision.kind !== 'ask') return hooked(answered ?? { run: true });
  return hooked(yield* ask(turn, tools, pre.call, pre.decision));
}

/** A call a hook refused or stopped, or the policy denied; the run of an allowed one; undefined: ask. */
function refusal(turn: TurnContext, pre: PreToolResult): Verdict | undefined {
  if (pre.stop !== undefined) {
    turn.hookStop ??= pre.stop;
    return {
      run: false,
      output: `Not run: a hook stopped the turn (${pre.stop}).`,
      declined: { by: 'hook', reason: pre.stop },
    };
  }
  if (pre.denied !== undefined)
    return {
      run: false,
      output: `Blocked by a hook: ${pre.denied}`,
      declined: { by: 'hook', reason: pre.denied },
    };
  const { decision } = pre;
  if (decision.kind === 'allow') return { run: true };
  if (decision.kind === 'deny' && decision.cannotApply === true) {
    // Nobody is asked about a call that cannot apply; the model gets the reason as the call's error.
    return {
      run: false,
      output: `Error: ${decision.reason}`,
      declined: { by: 'cannot-apply', reason: decision.reason },
    };
  }
  if (decision.kind === 'deny') {
    return {
      run: false,
      output: `Declined by policy: ${decision.reason}`,
      declined: { by: 'policy', reason: decision.reason },
    };
  }
  return undefined;
}

/** Asks whoever answers approvals about the call (the Notification hook is told while it waits). */
async function* ask(
  turn: TurnContext,
  tools: ToolRuntime,
  call: FunctionCallItem,
  decision: Extract<ToolDecision, { kind: 'ask' }>,
): AsyncGenerator<SessionEvent, Verdict> {
  if (!(typeof turn.canAsk === 'function' ? await turn.canAsk() : turn.canAsk)) {
    return {
      run: false,
      output: `Declined: this call needs approval (${decision.reason}) and nobody can approve it here. Ask the user how to proceed.`,
      declined: { by: 'nobody-to-ask', reason: decision.reason },
    };
  }
  const waiting = turn.states.to('AwaitingToolApproval');
  if (waiting) yield waiting;
  const { request, answer } = turn.approvals.open(
    {
      call,
      reason: decision.reason,
      ...(decision.preview !== undefined ? { preview: decision.preview } : {}),
      ...(decision.alwaysScope !== undefined ? { alwaysScope: decision.alwaysScope } : {}),
    },
    turn.signal,
    turn.approvalTimeoutMs,
  );
  yield request;
  // Told while the question waits; what the hooks did is said once it is answered.
  const notified = drain(notify(turn, 'permission_prompt', `Cody needs your permission to use ${call.name}`));
  const { decision: answered, reason: said, timedOut } = await answer;
  yield* await notified;
  yield {
    type: 'approval-resolved',
    id: request.id,
    decision: answered,
    ...(timedOut ? { reason: NO_ANSWER } : {}),
  };
  if (timedOut) {
    return {
      run: false,
      output: `Declined: ${NO_ANSWER}. Nobody answered the approval request within ${spokenDuration(turn.approvalTimeoutMs)} (${decision.reason}). Ask the user how to proceed.`,
      declined: { by: 'no-answer', reason: NO_ANSWER },
    };
  }
  if (answered === 'approve-session') tools.rememberApproval(call);
  if (answered === 'approve' || answered === 'approve-session') return { run: true };
  if (answered === 'abort') {
    return { run: false, output: 'The user stopped the turn instead of running this call.', abort: true };
  }
  if (said !== undefined) {
    // What the person typed goes with the denial, in this call's output, where the model looks for it.
    return {
      run: false,
      output: `The user declined to run this tool call and said: ${said}`,
      declined: { by: 'user', reason: said },
    };
  }
  return { run: false, output: DECLINED_BY_USER, declined: { by: 'user', reason: 'the user said no' } };
}

/** `600000` → "10 minutes", `30000` → "30 seconds", `250` → "250 ms". */
function spokenDuration(ms: number): string {
  const unit = (count: number, name: string): string => `${count} ${name}${count === 1 ? '' : 's'}`;
  if (ms >= 60_000) return unit(Math.round(ms / 60_000), 'minute');
  if (ms >= 1_000) return unit(Math.round(ms / 1_000), 'second');
  return `${ms} ms`;
}

/** Runs the call, passing its output on as `tool-output` events while it runs. */
async function* runStreaming(
  turn: TurnContext,
  tools: ToolRuntime,
  call: FunctionCallItem,
): AsyncGenerator<SessionEvent, Awaited<ReturnType<ToolRuntime['run']>>> {
  const chunks = new AsyncQueue<SessionEvent>();
  const running = tools
    .run(call, {
      ...(turn.signal ? { signal: turn.signal } : {}),
      onOutput: (chunk) => chunks.push({ type: 'tool-output', callId: call.call_id, chunk }),
    })
    .catch((error: unknown) => ({
      output: `Error: ${error instanceof Error ? error.message : String(error)}`,
      status: 'error' as const,
    }))
    .finally(() => chunks.end());
  yield* chunks;
  return running;
}
