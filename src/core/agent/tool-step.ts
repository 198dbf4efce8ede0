/**
 * One tool call of a turn: the policy decides; an 'ask' becomes an `approval-requested` event answered
 * through `respond` (or a denial when nobody can answer); an allowed call runs with its output streamed;
 * the output is recorded for the model either way.
 */
import type { FunctionCallItem } from '../../protocol/index.js';
import { truncateToolOutput } from '../compact/index.js';
import { DEFAULT_TOOL_OUTPUT_TOKENS } from '../config.js';
import type { SessionEvent, ToolFinishStatus } from '../session-events.js';
import type { ToolRuntime } from '../tools/tool-runtime.js';
import { AsyncQueue } from './async-queue.js';
import type { TurnContext } from './turn-context.js';

/** Whether a call runs; when not, what the model is told, and whether the person stopped the turn. */
interface Verdict {
  run: boolean;
  output?: string;
  abort?: boolean;
}

export const DECLINED_BY_USER = 'The user declined to run this tool call. Ask them how to proceed.';

/** Runs one call; returns true when the person chose to stop the turn instead ('abort'). */
export async function* runToolCall(
  turn: TurnContext,
  call: FunctionCallItem,
): AsyncGenerator<SessionEvent, boolean> {
  const { tools } = turn;
  const verdict: Verdict =
    tools?.has(call.name) === true
      ? yield* approve(turn, tools, call)
      : { run: false, output: `Error: no tool named '${call.name}' is available.` };
  yield { type: 'tool-call', call, approved: verdict.run };
  const executing = turn.states.to('ExecutingTools');
  if (executing) yield executing;
  const started = Date.now();
  let output = verdict.output ?? '';
  let status: ToolFinishStatus = verdict.abort ? 'aborted' : 'denied';
  let exitCode: number | undefined;
  if (verdict.run && tools) {
    yield { type: 'tool-started', call };
    const result = yield* runStreaming(turn, tools, call);
    ({ output, status } = result);
    exitCode = result.exitCode;
  }
  const maxTokens = turn.config.toolOutputTokens ?? DEFAULT_TOOL_OUTPUT_TOKENS;
  const truncated = truncateToolOutput(output, maxTokens, turn.handle.accountant.estimator);
  yield* turn.handle.record({ type: 'function_call_output', call_id: call.call_id, output: truncated });
  yield {
    type: 'tool-finished',
    callId: call.call_id,
    durationMs: Date.now() - started,
    status,
    ...(exitCode !== undefined ? { exitCode } : {}),
  };
  return verdict.abort === true;
}

async function* approve(
  turn: TurnContext,
  tools: ToolRuntime,
  call: FunctionCallItem,
): AsyncGenerator<SessionEvent, Verdict> {
  const decision = await tools.decide(call);
  if (decision.kind === 'allow') return { run: true };
  if (decision.kind === 'deny') return { run: false, output: `Declined by policy: ${decision.reason}` };
  if (!turn.canAsk) {
    return {
      run: false,
      output: `Declined: this call needs approval (${decision.reason}) and nobody can approve it here. Ask the user how to proceed.`,
    };
  }
  const waiting = turn.states.to('AwaitingToolApproval');
  if (waiting) yield waiting;
  const { id, answer } = turn.approvals.open(turn.signal);
  yield {
    type: 'approval-requested',
    id,
    call,
    reason: decision.reason,
    ...(decision.preview !== undefined ? { preview: decision.preview } : {}),
  };
  const answered = await answer;
  yield { type: 'approval-resolved', id, decision: answered };
  if (answered === 'approve-session') tools.rememberApproval(call);
  if (answered === 'approve' || answered === 'approve-session') return { run: true };
  if (answered === 'abort') {
    return { run: false, output: 'The user stopped the turn instead of running this call.', abort: true };
  }
  return { run: false, output: DECLINED_BY_USER };
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
