/**
 * The page's extension (see extension.ts) with everything issue 23 asks of an open conversation: tool
 * calls with their arguments and folded output (live while a command runs), approval cards with the
 * terminal's choices, the plan checklist, the context meter with tokens and cost, and the conversation's
 * actions (switch provider or model, rename, export, delete).
 */
import type { ConversationExtension } from '../extension.js';
import {
  applyExtrasEvent,
  extrasFromState,
  recordedToolCall,
  type ExtrasEvent,
  type ExtrasState,
} from '../conversation-extras.js';
import { ApprovalCard, type ApprovalDecision } from './approval-card.js';
import { CompactionMarker } from './compaction-marker.js';
import { ConversationHeader } from './conversation-header.js';
import { PlanChecklist } from './plan-checklist.js';
import { ToolCall } from './tool-call.js';
import './extras.css';

export const richExtension: ConversationExtension<ExtrasState> = {
  fromState: (state) => extrasFromState(state ?? {}),
  apply: (extras, event) => applyExtrasEvent(extras, event as unknown as ExtrasEvent),
  ToolCall: ({ extras, call, recordedOutput }) => (
    <ToolCall view={recordedToolCall(call, recordedOutput, extras.toolCalls)} />
  ),
  Panel: ({ extras, respond }) => (
    <div class="conversation-panel">
      {extras.compacting ? <CompactionMarker running /> : null}
      {extras.plan !== undefined && extras.plan.plan.length > 0 ? <PlanChecklist plan={extras.plan} /> : null}
      {extras.approvals.map((request) => (
        <ApprovalCard
          key={request.id}
          request={request}
          onAnswer={(decision: ApprovalDecision, reason?: string) => respond(request.id, decision, reason)}
        />
      ))}
    </div>
  ),
  Header: (props) => <ConversationHeader {...props} />,
};
