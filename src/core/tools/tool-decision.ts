/** The agreed shapes of a policy's answer and a tool's result live in tool-runtime.ts. */
export type { ToolDecision, ToolResult, ToolRunContext } from './tool-runtime.js';
