import type { FunctionCallItem, ToolSpec } from '../../protocol/index.js';

/** The tools a session may offer the model, and how a call is approved and run. */
export interface ToolRuntime {
  /** Specs sent with every request. */
  specs(): ToolSpec[];
  has(name: string): boolean;
  /** Asks whoever is in charge (the person, a policy) whether this call may run. */
  approve(call: FunctionCallItem): Promise<boolean>;
  /** Runs an approved call; failures are reported in the returned text, never thrown. */
  run(call: FunctionCallItem, signal?: AbortSignal): Promise<string>;
}
