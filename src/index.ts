/**
 * Cody as a library: `import { createCody } from 'cody'`. Only what a program embedding Cody needs is
 * exported here; everything else in the package is internal and may change between versions.
 *
 *   const cody = createCody({ home, env: process.env, cwd: process.cwd() });
 *   const conversation = await cody.create({ provider: 'openai', api: 'chat', model: 'gpt-4o-mini' });
 *   for await (const event of conversation.submit('hello')) { … }
 */
export { createCody } from './core/engine/cody.js';
export type { Cody, CreateCodyOptions } from './core/engine/cody.js';
export type { Conversation, SubmitOptions } from './core/conversation/conversation.js';
export type { ImageInput } from './core/images/attach-images.js';
export type {
  CodyNotice,
  SelectionChoice,
  SessionStatus as ConversationStatus,
} from './core/conversation/session-surface.js';
export type {
  ApprovalDecision,
  CompactionTrigger,
  PendingApproval,
  SessionEvent as CodyEvent,
  SessionEventType as CodyEventType,
  ToolFinishStatus,
  TurnCompleteStatus,
  TurnState,
} from './core/conversation/session-events.js';
export type { Plan, PlanStep, PlanStepStatus } from './core/conversation/plan.js';
export { CodyError } from './core/errors.js';
export type { ErrorHint, ErrorKind } from './core/errors.js';
export type { ConversationSummary } from './core/rollout/summary-reader.js';
export type { ForkOptions } from './core/store/fork-options.js';
export type { TranscriptPage, TranscriptPageOptions } from './core/store/transcript-page.js';
export { APPROVAL_POLICIES } from './core/tools/policy.js';
export type { ApprovalPolicy } from './core/tools/policy.js';
export type {
  SpecsTarget,
  ToolDecision,
  ToolResult,
  ToolRunContext,
  ToolRuntime,
} from './core/tools/tool-runtime.js';
export type { ContentPart, FunctionCallItem, ResponseItem, TokenUsage, WireApi } from './protocol/index.js';
