/**
 * Hooks: the user's commands around each step, in Claude Code's format (config, matchers with Claude
 * Code's tool names, stdin JSON, exit codes and JSON output), run by the engine for every front end.
 * This file is the folder's public surface: other folders import it, never its modules (eslint.config.js).
 */
export { DEFAULT_HOOK_TIMEOUT_SECONDS, HOOK_EVENTS, hooksConfigSchema } from './hook-config.js';
export type { HookEntry, HookEventName, HooksConfig, HookSource } from './hook-config.js';
export { claudeToolInput, codyArgumentsFrom, hookInput } from './hook-input.js';
export type { HookCommonInput } from './hook-input.js';
export type { HookOutcome } from './hook-output.js';
export { HookSet, shortCommand } from './hook-runner-set.js';
export type { HookEventRun, HookListing, HookMatch, HookRecord, HookSetOptions } from './hook-runner-set.js';
export { CLAUDE_TOOL_ALIASES } from './matcher.js';
export { PROJECT_HOOKS_PATH } from './project-hooks-file.js';
