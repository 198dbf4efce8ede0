/**
 * A running turn's events as `session/update` notifications: reply and reasoning text as chunks, each
 * tool call as `tool_call` (pending) then `tool_call_update`s (in_progress, a command's output as it comes,
 * completed or failed with its output and the diff of every file it changed), the plan, the context use;
 * an approval request as `session/request_permission`, its answer given back to the engine.
 */
import type {
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionUpdate,
  ToolCallContent,
} from '@agentclientprotocol/sdk';
import type {
  ApprovalDecision,
  ApprovalRequest,
  HistoryItem,
  ToolCallItem,
  TurnEvent,
} from './core-types.js';
import { diffsSince, snapshotFiles, type FileSnapshot } from './file-diffs.js';
import { decisionOf, permissionOptions } from './permissions.js';
import { fileChanges, toolCallView } from './tool-calls.js';

/** Where a turn's updates go, and how an approval is asked and answered. */
export interface TurnSink {
  cwd: string;
  update(update: SessionUpdate): Promise<void>;
  requestPermission(
    params: Omit<RequestPermissionRequest, 'sessionId'>,
    signal: AbortSignal,
  ): Promise<RequestPermissionResponse>;
  respond(approvalId: string, decision: ApprovalDecision): void;
  /** The session's spend so far (USD), which `usage_update` reports. */
  cost: { usd: number };
}

/** The most of a running command's output shown live (its tail). */
const LIVE_OUTPUT_CHARS = 64 * 1024;

interface CallState {
  call: ToolCallItem;
  snapshots?: FileSnapshot[];
  output: string;
  recorded?: string;
  finished: boolean;
}

/** A tool's recorded output as text (its text parts, when it is content). */
export function outputText(output: Extract<HistoryItem, { type: 'function_call_output' }>['output']): string {
  if (typeof output === 'string') return output;
  return output
    .map((part) => ('text' in part ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/** The `tool_call` update that announces a call (live and in a replay alike). */
export function announceCall(call: ToolCallItem, cwd: string): SessionUpdate {
  return {
    sessionUpdate: 'tool_call',
    toolCallId: call.call_id,
    status: 'pending',
    ...toolCallView(call, cwd),
  };
}

/** The text of a call's output as tool call content. */
export function textContent(text: string): ToolCallContent[] {
  return text === '' ? [] : [{ type: 'content', content: { type: 'text', text } }];
}

export class TurnUpdates {
  private readonly calls = new Map<string, CallState>();
  private readonly permissions = new AbortController();
  private readonly sink: TurnSink;

  constructor(sink: TurnSink) {
    this.sink = sink;
  }

  async handle(event: TurnEvent): Promise<void> {
    switch (event.type) {
      case 'text-delta':
        return this.sink.update({
          sessionUpdate: 'agent_message_chunk',
          content: { type: 'text', text: event.text },
        });
      case 'reasoning-delta':
        return this.sink.update({
          sessionUpdate: 'agent_thought_chunk',
          content: { type: 'text', text: event.text },
        });
      case 'item-recorded':
        return this.recorded(event.item);
      case 'approval-requested':
        await this.announce(event.call);
        return this.ask(event);
      case 'tool-call':
        return this.announce(event.call);
      case 'tool-started':
        return this.started(event.call);
      case 'tool-output':
        return this.output(event.callId, event.chunk);
      case 'tool-finished':
        return this.finished(event.callId, event.status === 'ok');
      case 'plan-updated':
        return this.sink.update({
          sessionUpdate: 'plan',
          entries: event.plan.map((step) => ({
            content: step.step,
            priority: 'medium',
            status: step.status,
          })),
        });
      case 'usage':
        this.sink.cost.usd += event.costUsd ?? 0;
        return this.sink.update({
          sessionUpdate: 'usage_update',
          used: event.contextTokens,
          size: event.contextWindow,
          ...(this.sink.cost.usd > 0 ? { cost: { amount: this.sink.cost.usd, currency: 'USD' } } : {}),
        });
      default:
        return;
    }
  }

  /** Cancels the permission requests still open (the prompt was cancelled). */
  cancelPermissions(): void {
    this.permissions.abort(new Error('cancelled'));
  }

  /** Calls announced but never finished (the turn ended first) are marked failed. */
  async finishDangling(): Promise<void> {
    for (const state of this.calls.values()) {
      if (!state.finished) await this.finished(state.call.call_id, false);
    }
  }

  private async recorded(item: HistoryItem): Promise<void> {
    if (item.type === 'function_call') return this.announce(item);
    if (item.type !== 'function_call_output') return;
    const state = this.calls.get(item.call_id);
    if (state) state.recorded = outputText(item.output);
  }

  private async announce(call: ToolCallItem): Promise<void> {
    if (this.calls.has(call.call_id)) return;
    this.calls.set(call.call_id, { call, output: '', finished: false });
    await this.sink.update(announceCall(call, this.sink.cwd));
  }

  /** Asks the editor; never waits here: the engine waits for the answer, and a cancel ends both. */
  private async ask(request: ApprovalRequest): Promise<void> {
    const view = toolCallView(request.call, this.sink.cwd);
    const preview = request.preview ?? request.reason;
    const asked = this.sink.requestPermission(
      {
        toolCall: {
          toolCallId: request.call.call_id,
          ...view,
          status: 'pending',
          content: textContent(preview),
        },
        options: permissionOptions(request),
      },
      this.permissions.signal,
    );
    asked.then(
      (answer) => this.sink.respond(request.id, decisionOf(answer.outcome, request)),
      () => this.sink.respond(request.id, this.permissions.signal.aborted ? 'abort' : 'deny'),
    );
  }

  private async started(call: ToolCallItem): Promise<void> {
    await this.announce(call);
    const state = this.calls.get(call.call_id);
    if (!state) return;
    const changes = fileChanges(call);
    // Read before the tool runs: the engine runs it only once this event's reader asks for the next.
    if (changes.length > 0) state.snapshots = await snapshotFiles(changes, this.sink.cwd);
    await this.sink.update({
      sessionUpdate: 'tool_call_update',
      toolCallId: call.call_id,
      status: 'in_progress',
    });
  }

  private async output(callId: string, chunk: string): Promise<void> {
    const state = this.calls.get(callId);
    if (!state) return;
    state.output = (state.output + chunk).slice(-LIVE_OUTPUT_CHARS);
    await this.sink.update({
      sessionUpdate: 'tool_call_update',
      toolCallId: callId,
      content: textContent(state.output),
    });
  }

  private async finished(callId: string, ok: boolean): Promise<void> {
    const state = this.calls.get(callId);
    if (!state || state.finished) return;
    state.finished = true;
    const output = state.recorded ?? state.output;
    const diffs = ok && state.snapshots ? await diffsSince(state.snapshots, this.sink.cwd) : [];
    await this.sink.update({
      sessionUpdate: 'tool_call_update',
      toolCallId: callId,
      status: ok ? 'completed' : 'failed',
      content: [...diffs, ...textContent(output)],
      rawOutput: { output },
    });
  }
}
