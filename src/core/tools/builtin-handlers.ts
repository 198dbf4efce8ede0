/** Every built-in tool's implementation, by name (loaded on the first call, with zod). */
import type { DangerousCommand } from './command-safety.js';
import { applyPatchTool, shellTool } from './exec-tools.js';
import { FILE_TOOLS } from './file-tools.js';
import type { ToolHandler } from './handler.js';

export function builtinHandlers(dangerous: readonly DangerousCommand[]): Record<string, ToolHandler> {
  return { ...FILE_TOOLS, shell: shellTool(dangerous), apply_patch: applyPatchTool };
}
