/**
 * The tools the model may call: specs, the approval policy, the sandbox, the shell's safety analysis, file and web
 * tools, and the runtime that runs a call.
 * This file is the folder's public surface: other folders import it, never its modules (eslint.config.js).
 */
export { groupCalls } from './call-groups.js';
export { removeChecked, removeDirectoryChecked } from './checked-files.js';
export { APPROVAL_POLICIES, DEFAULT_APPROVAL_POLICY, isApprovalPolicy, noSandboxWarning } from './policy.js';
export type { ApprovalPolicy } from './policy.js';
export type { ExternalTools } from './runtime.js';
export type { EditorFiles } from './handler.js';
export type { ToolResult, ToolRunContext } from './tool-decision.js';
export { toolEnvironment } from './tool-environment.js';
export type { AlwaysScope, SpecsTarget, ToolDecision, ToolRuntime } from './tool-runtime.js';
export { findGitRoot, openWorkspace } from './workspace.js';
export { PLAN_STEP_STATUSES, UPDATE_PLAN_TOOL, parsePlanArguments } from './plan.js';
export type { Plan, PlanStep, PlanStepStatus } from './plan.js';
export { planFromHistory } from './plan.js';
export { gitDirsOf } from './git-dirs.js';
export type { GitDirs } from './git-dirs.js';
export { gitConfigStamp } from './git-config-stamp.js';
