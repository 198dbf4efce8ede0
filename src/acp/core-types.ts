/**
 * The engine's types the ACP front end works with, derived from what `src/core/index.ts` exports (the
 * only door into core), so this front end names no other core module.
 */
import type { Conversation, TranscriptEntry } from '../core/index.js';

/** One event of a turn, as `Conversation.submit` yields it. */
export type TurnEvent =
  ReturnType<Conversation['submit']> extends AsyncGenerator<infer Event> ? Event : never;
/** The model's tool call (name, JSON arguments, call id), as events and the transcript carry it. */
export type ToolCallItem = Extract<TurnEvent, { type: 'tool-started' }>['call'];
/** An item of the history, as `item-recorded` events and transcript entries carry it. */
export type HistoryItem = Extract<TranscriptEntry, { kind: 'item' }>['item'];
/** A tool approval request the engine waits on. */
export type ApprovalRequest = Extract<TurnEvent, { type: 'approval-requested' }>;
/** What `Conversation.respond` takes. */
export type ApprovalDecision = Parameters<Conversation['respond']>[1];
/** What `Conversation.submit` sends: text, or content parts. */
export type MessageInput = Parameters<Conversation['submit']>[0];
/** A content part of a message (text, or an image as a data URL). */
export type MessagePart = Exclude<MessageInput, string>[number];
/** An image sent with a message. */
export type ImageAttachment = NonNullable<Parameters<Conversation['submit']>[1]>['images'] extends
  readonly (infer Image)[] | undefined
  ? Image
  : never;
/** The approval policies, as `setApprovalPolicy` takes them. */
export type ApprovalPolicy = Parameters<Conversation['setApprovalPolicy']>[0];
/** The reasoning levels, as `setReasoning` takes them. */
export type ReasoningLevel = Parameters<Conversation['setReasoning']>[0];
