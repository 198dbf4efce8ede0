/**
 * The shapes agreed in INTERFACES.md for a policy's answer and a tool's result (the engine's
 * tool-runtime.ts carries the same ones).
 */
export type ToolDecision =
  { kind: 'allow' } | { kind: 'ask'; reason: string; preview?: string } | { kind: 'deny'; reason: string };

export interface ToolResult {
  output: string;
  exitCode?: number;
  status: 'ok' | 'error' | 'aborted';
}

export interface ToolRunContext {
  signal?: AbortSignal;
  onOutput?: (chunk: string) => void;
}
