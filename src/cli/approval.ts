/** How tool calls that change something get approved: asked on a terminal, or by an explicit flag. */
import { createInterface } from 'node:readline/promises';
import type { CodyConfig } from '../core/config.js';
import type { ApprovalDecision, SessionEvent } from '../core/session-events.js';
import { createLazyMcpTools } from '../core/mcp/lazy-mcp-tools.js';
import { createToolRuntime, type CodyToolRuntime } from '../core/tools/runtime.js';
import { toolOptionsFromConfig } from '../core/tools/runtime-config.js';
import { BUILTIN_TOOL_SPECS } from '../core/tools/tool-specs.js';
import { resolveApprovalPolicy } from './approval-flag.js';
import type { Io } from './io.js';
import { sanitizeForTerminal } from './sanitize.js';
import { CLI_VERSION } from './version.js';

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

/**
 * The tools a CLI command offers: the built-in ones and any MCP servers from config.json, under the
 * approval policy from --approval / --auto-approve / config. Notices and MCP warnings go to stderr.
 */
export function createCliTools(
  io: Io,
  config: CodyConfig,
  options: { approval?: string; autoApprove?: boolean },
): CodyToolRuntime | undefined {
  if (config.tools === false) return undefined;
  const notice = (message: string): void => {
    io.stderr.write(`${sanitizeForTerminal(message)}\n`);
  };
  const external = createLazyMcpTools({
    servers: config.mcpServers ?? {},
    cwd: io.cwd,
    clientVersion: CLI_VERSION,
    onWarning: (message) => notice(`warning: ${message}`),
    ...(config.mcpToolTimeoutMs !== undefined ? { callTimeoutMs: config.mcpToolTimeoutMs } : {}),
  });
  return createToolRuntime({
    cwd: io.cwd,
    policy: resolveApprovalPolicy(options, config),
    ...toolOptionsFromConfig(config),
    onNotice: notice,
    ...(external ? { external } : {}),
    env: io.env,
  });
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

/**
 * The line shown for a call declined without asking: by the approval policy, or because no terminal
 * could be asked (a pipe, a script). Each names its real reason. Undefined for the person's own "no".
 */
export function declinedNotice(event: Extract<SessionEvent, { type: 'tool-call' }>): string | undefined {
  const call = `${event.call.name} ${event.call.arguments}`;
  const reason = sanitizeForTerminal(event.reason ?? '');
  if (event.declinedBy === 'policy')
    return sanitizeForTerminal(`Declined by policy: ${call}`) + ` — ${reason}\n`;
  if (event.declinedBy === 'nobody-to-ask') {
    return (
      sanitizeForTerminal(`Declined (no terminal to ask; pass --approval full-auto to allow): ${call}`) +
      ` — needs approval: ${reason}\n`
    );
  }
  return undefined;
}

export function toolNames(config: CodyConfig): readonly string[] {
  return config.tools === false ? [] : BUILTIN_TOOL_SPECS.map((spec) => spec.name);
}
