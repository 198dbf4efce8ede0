/** Every built-in tool's implementation, by name (loaded on the first call, with zod). */
import { applyPatchTool, shellTool, type ShellRules } from './exec-tools.js';
import { FILE_TOOLS } from './file-tools.js';
import type { ToolHandler } from './handler.js';
import { viewImageTool } from './image-tools.js';
import { updatePlanTool } from './plan-tool.js';
import { webFetchTool, type WebFetchSettings } from './web-fetch.js';

export function builtinHandlers(rules: ShellRules, web: WebFetchSettings = {}): Record<string, ToolHandler> {
  return {
    ...FILE_TOOLS,
    shell: shellTool(rules),
    apply_patch: applyPatchTool,
    update_plan: updatePlanTool,
    web_fetch: webFetchTool(web),
    view_image: viewImageTool,
  };
}
