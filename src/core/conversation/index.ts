/**
 * One live conversation: the public `Conversation` (one turn at a time, events that always end), the session
 * composing the engine, its events, approvals, the plan and how a turn failure is classified.
 * This file is the folder's public surface: other folders import it, never its modules (eslint.config.js).
 */
export type { ConversationHandle } from './conversation-handle.js';
export { Conversation, failureOf, thrownBy } from './conversation.js';
export type { ConversationHooks, SubmitOptions } from './conversation.js';
export type {
  AlwaysScope,
  ApprovalDecision,
  CompactionTrigger,
  PendingApproval,
  SessionEvent,
  SessionEventType,
  ToolDeclinedBy,
  ToolFinishStatus,
  TurnCompleteStatus,
  TurnState,
} from './session-events.js';
export type { CodyNotice, SelectionChoice, SessionStatus } from './session-surface.js';
export type { SessionOptions } from './session-options.js';
export type { RunTap } from './conversation.js';
