/**
 * Where the richer parts of an open conversation plug in: tool-call views, approval cards, the plan, the
 * context meter and the conversation's actions. An extension keeps its own state, made from
 * `GET …/state` and updated by every event of the conversation's stream, and renders three slots: each
 * tool call (recorded or live, in its place in the transcript), the panel above the composer (approvals,
 * plan) and the header's actions. The page ships a plain one (basic-extension.tsx); `extension` below is
 * the one the page uses.
 */
import type { ComponentType } from 'preact';
import { richExtension } from './components/rich-extension.js';
import type { ConversationState, ConversationSummary, FunctionCall, ServerEvent } from './types.js';

export interface ToolCallSlotProps<S> {
  extras: S;
  call: FunctionCall;
  /** The recorded output (a `function_call_output` in the transcript); absent for a live call. */
  recordedOutput?: string;
  live: boolean;
}

export interface PanelSlotProps<S> {
  extras: S;
  conversationId: string;
  /** `POST /approvals/:id`. */
  respond(approvalId: string, decision: string, reason?: string): Promise<void>;
}

export interface HeaderSlotProps<S> {
  extras: S;
  conversation: ConversationSummary;
  /** A turn is running (settings cannot change). */
  busy: boolean;
  /** The conversation changed (renamed, switched model): read it again. */
  onChanged(): void;
  /** Open another conversation (a fork), or none (`undefined`, after a delete). */
  onOpen(id: string | undefined): void;
}

export interface ConversationExtension<S> {
  fromState(state: ConversationState | undefined): S;
  apply(extras: S, event: ServerEvent): S;
  ToolCall: ComponentType<ToolCallSlotProps<S>>;
  Panel: ComponentType<PanelSlotProps<S>>;
  Header: ComponentType<HeaderSlotProps<S>>;
}

/** The extension the page uses, and its state. */
export const extension = richExtension;
export type Extras = ReturnType<typeof extension.fromState>;
