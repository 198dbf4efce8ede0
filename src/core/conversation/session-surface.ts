/**
 * What a public `Conversation` drives: the live session's surface, as plain types (no zod, no engine
 * internals), so the library's type declarations stand on their own.
 */
import type { ApprovalPolicy } from '../tools/index.js';
import type { ContentPart, ReasoningLevel } from '../../protocol/index.js';
import type { Plan } from '../tools/index.js';
import type { Provider } from '../config/index.js';
import type { ApprovalDecision, PendingApproval, SessionEvent, TurnState } from './session-events.js';

export interface SessionStatus {
  id: string;
  state: TurnState;
  provider: string;
  /** The wire API id (`openai-chat`, `openai-responses`, `anthropic-messages`, `gemini`). */
  api: string;
  model: string;
  contextWindow: number;
  contextTokens: number;
  autoCompactLimit: number;
  compactions: number;
  items: number;
  /** The approval policy of the conversation's tool calls (absent when it has no tools). */
  approvalPolicy?: string;
  /** What confines the commands tools run unasked: bubblewrap, or nothing (absent without tools). */
  sandbox?: 'bubblewrap' | 'none';
  /** Present when the person turned confinement off (`--dangerously-skip-confinement`). */
  confinement?: 'off';
  /** The reasoning level of the next turn (`off` … `high`); absent: each API's default. */
  reasoning?: string;
  /** Whether the model reasons (thinks before it answers), as the catalogue or config says. */
  modelReasons?: boolean;
  /** Why the reasoning level in force cannot reach the model (it is ignored), while that holds. */
  reasoningIgnored?: string;
  /** Reasoning (thinking) tokens the conversation's replies used so far, as the providers reported them. */
  reasoningTokens?: number;
  /** The plan the model last set with `update_plan` (absent until it sets one). */
  plan?: Plan;
}

/** What `setSelection` takes: the provider, its API (name `chat` or wire id `openai-chat`) and the model. */
export interface SelectionChoice {
  provider: Provider;
  api?: string;
  model?: string;
  /** The conversation's reasoning level from the next turn on. */
  reasoning?: ReasoningLevel;
}

/** Something the person should know that is not part of a turn (bubblewrap missing, an MCP server failing). */
export interface CodyNotice {
  level: 'notice' | 'warning';
  message: string;
}

import type { ProjectInstructions } from '../project/index.js';
import type { PromptCommand } from '../project/index.js';

export interface ConversationEngine {
  readonly id: string;
  submit(
    input: string | ContentPart[],
    options?: { signal?: AbortSignal; reasoning?: ReasoningLevel },
  ): AsyncIterable<SessionEvent>;
  compact(focus?: string, signal?: AbortSignal): AsyncGenerator<SessionEvent, unknown>;
  respond(approvalId: string, decision: ApprovalDecision, reason?: string): boolean;
  pendingApprovals(): PendingApproval[];
  status(): SessionStatus;
  setSelection(choice: SelectionChoice): unknown;
  setApprovalPolicy(policy: string): void;
  keptApprovalPolicy(): { policy: ApprovalPolicy; recorded: boolean };
  setReasoning(level: string): unknown;
  /** The project instruction files in effect (read now). */
  projectInstructions?(): Promise<ProjectInstructions>;
  /** The user's own slash commands available here, by name. */
  promptCommands?(): Promise<Map<string, PromptCommand>>;
}
