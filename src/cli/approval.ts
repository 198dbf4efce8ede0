/** How tool calls that change something get approved: asked on a terminal, or by an explicit flag. */
import { createInterface } from 'node:readline/promises';
import type { CodyConfig } from '../core/config.js';
import type { ApprovalDecision, SessionEvent } from '../core/session-events.js';
import { BUILTIN_TOOL_NAMES, createBuiltinTools } from '../core/tools/builtin-tools.js';
import type { ToolRuntime } from '../core/tools/tool-runtime.js';
import type { Io } from './io.js';

/** Asks the person a question on the terminal and resolves with the answer. */
export type Ask = (question: string) => Promise<string>;

/** A one-off question on a fresh readline interface (for single-turn commands). */
export async function askOnce(question: string): Promise<string> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await prompt.question(question);
  } finally {
    prompt.close();
  }
}

export function createCliTools(
  io: Io,
  config: CodyConfig,
  options: { autoApprove?: boolean },
): ToolRuntime | undefined {
  if (config.tools === false) return undefined;
  return createBuiltinTools({ cwd: io.cwd, autoApprove: options.autoApprove === true });
}

/** Whether this terminal session can answer approval requests. */
export function canAskOn(io: Io): boolean {
  return io.stdin.isTTY === true;
}

/** Asks the person on the terminal about one `approval-requested` event. */
export async function askApproval(
  io: Io,
  event: Extract<SessionEvent, { type: 'approval-requested' }>,
  ask: Ask = askOnce,
): Promise<ApprovalDecision> {
  // Start on a fresh line (the reply may have stopped mid-line), outside the prompt: readline redraws
  // a multi-line prompt by moving up and clearing, which would erase the reply's last line.
  io.stderr.write('\n');
  const answer = (await ask(`Allow ${event.reason}? [y]es / [n]o / [a]lways this session: `))
    .trim()
    .toLowerCase();
  if (answer === 'a' || answer === 'always') return 'approve-session';
  return answer === 'y' || answer === 'yes' ? 'approve' : 'deny';
}

/** The line shown when a call was declined because no terminal could be asked. */
export function declinedWithoutTerminal(event: Extract<SessionEvent, { type: 'tool-call' }>): string {
  return `Declined (no terminal to ask; pass --auto-approve to allow): ${event.call.name} ${event.call.arguments}\n`;
}

export function toolNames(config: CodyConfig): readonly string[] {
  return config.tools === false ? [] : BUILTIN_TOOL_NAMES;
}
