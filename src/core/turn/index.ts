/**
 * One turn: the loop (request, record, run tools, repeat), its state machine, model requests with retry, tool
 * steps, compaction steps and the context budget.
 * This file is the folder's public surface: other folders import it, never its modules (eslint.config.js).
 */
export { runCompaction } from './compaction-step.js';
export type { CompactionReport } from './compaction-step.js';
export { ContextBudget } from './context-budget.js';
export type { ModelResponse } from './model-request.js';
export { levelFromCodexEffort, parseReasoningLevel, unusableReasoningWarning } from './reasoning-setting.js';
export type { HookSessionState, TurnContext } from './turn-context.js';
export { MAX_AUTO_COMPACTIONS_PER_TURN, MAX_TOOL_ROUNDS_PER_TURN, runTurn } from './turn-loop.js';
export { TurnStateMachine } from './turn-state.js';
export { DEFAULT_APPROVAL_TIMEOUT_MS, NO_ANSWER } from './approvals.js';
export { ApprovalDesk } from './approvals.js';
export { AsyncQueue } from './async-queue.js';
export { ServerUnreachableError, TurnFailedError, failureFromProvider } from './turn-failure.js';
