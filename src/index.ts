/**
 * Cody as a library: `import { createCody } from 'cody'`. Only what a program embedding Cody needs is
 * exported here; everything else in the package is internal and may change between versions.
 *
 *   const cody = createCody({ home, env: process.env, cwd: process.cwd() });
 *   const conversation = await cody.create({ provider: 'openai', api: 'chat', model: 'gpt-4o-mini' });
 *   for await (const event of conversation.submit('hello')) { … }
 */
export { createCody } from './core/engine/index.js';
export type { Cody, CreateCodyOptions } from './core/engine/index.js';
export type { Conversation, SubmitOptions } from './core/conversation/index.js';
export type { ImageInput } from './core/images/index.js';
export type {
  CodyNotice,
  SelectionChoice,
  SessionStatus as ConversationStatus,
} from './core/conversation/index.js';
export type {
  ApprovalDecision,
  CompactionTrigger,
  PendingApproval,
  SessionEvent as CodyEvent,
  SessionEventType as CodyEventType,
  ToolFinishStatus,
  TurnCompleteStatus,
  TurnState,
} from './core/conversation/index.js';
export type { Plan, PlanStep, PlanStepStatus } from './core/tools/index.js';
export { CodyError } from './core/errors.js';
export type { ErrorHint, ErrorKind } from './core/errors.js';
export type { ConversationSummary } from './core/rollout/index.js';
export type { ForkOptions } from './core/store/index.js';
export type { TranscriptPage, TranscriptPageOptions } from './core/rollout/index.js';
export { APPROVAL_POLICIES } from './core/tools/index.js';
export type { ApprovalPolicy } from './core/tools/index.js';
export type {
  SpecsTarget,
  ToolDecision,
  ToolResult,
  ToolRunContext,
  ToolRuntime,
} from './core/tools/index.js';
export type { ContentPart, FunctionCallItem, ResponseItem, TokenUsage, WireApi } from './protocol/index.js';
