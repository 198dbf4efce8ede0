/**
 * The page's plain extension (see extension.ts): a tool call as its name, arguments and folded output;
 * an approval as its call and four buttons (once, always, deny, stop); no header actions.
 */
import type { ConversationExtension } from '../extension.js';
import type { FunctionCall } from '../types.js';

interface Approval {
  id: string;
  call: FunctionCall;
  reason: string;
}

export interface BasicExtras {
  outputs: Record<string, string>;
  approvals: Approval[];
}

export const basicExtension: ConversationExtension<BasicExtras> = {
  fromState: (state) => ({
    outputs: {},
    approvals: (state?.pendingApprovals ?? []).map((pending) => ({
      id: pending.id,
      call: {
        type: 'function_call',
        name: pending.tool,
        arguments: pending.arguments,
        call_id: pending.callId,
      },
      reason: pending.reason,
    })),
  }),
  apply: (extras, event) => {
    switch (event.type) {
      case 'tool-output':
        return {
          ...extras,
          outputs: { ...extras.outputs, [event.callId]: (extras.outputs[event.callId] ?? '') + event.chunk },
        };
      case 'approval-requested':
        if (extras.approvals.some((approval) => approval.id === event.id)) return extras;
        return {
          ...extras,
          approvals: [...extras.approvals, { id: event.id, call: event.call, reason: event.reason }],
        };
      case 'approval-resolved':
        return { ...extras, approvals: extras.approvals.filter((approval) => approval.id !== event.id) };
      case 'turn-complete':
      case 'turn-failed':
        return { ...extras, approvals: [] };
      default:
        return extras;
    }
  },
  ToolCall: ({ extras, call, recordedOutput }) => {
    const output = recordedOutput ?? extras.outputs[call.call_id] ?? '';
    return (
      <details class="tool-call-basic">
        <summary>
          <code>{call.name}</code> <span class="tool-args">{call.arguments}</span>
        </summary>
        <pre>{output}</pre>
      </details>
    );
  },
  Panel: ({ extras, respond }) => (
    <div class="panel-basic">
      {extras.approvals.map((approval) => (
        <div key={approval.id} class="approval-basic">
          <div>
            Allow <code>{approval.call.name}</code> <span class="tool-args">{approval.call.arguments}</span>?
          </div>
          <div class="approval-reason">{approval.reason}</div>
          <button type="button" onClick={() => void respond(approval.id, 'approve')}>
            Once
          </button>
          <button type="button" onClick={() => void respond(approval.id, 'approve-session')}>
            Always
          </button>
          <button type="button" onClick={() => void respond(approval.id, 'deny')}>
            Deny
          </button>
          <button type="button" onClick={() => void respond(approval.id, 'abort')}>
            Stop the turn
          </button>
        </div>
      ))}
    </div>
  ),
  Header: () => null,
};
