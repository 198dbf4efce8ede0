/**
 * Tool calls as the page shows them: each call with its arguments, how it stands, and its output, built
 * from the recorded transcript (a conversation opened) and updated by a live turn's events (output while
 * a command runs). Pure: the components render what these functions return.
 */

/** A tool call's place in its life, as the page labels it. */
export type ToolCallStatus =
  'asked' | 'waiting-approval' | 'running' | 'ok' | 'error' | 'denied' | 'aborted' | 'declined';

export interface ToolCallView {
  callId: string;
  name: string;
  /** The arguments as the model sent them (JSON text). */
  arguments: string;
  status: ToolCallStatus;
  /** What the tool printed or returned so far (live while it runs). */
  output: string;
  exitCode?: number;
  durationMs?: number;
  /** Why a declined call did not run (the policy's or the person's words). */
  reason?: string;
}

/** The model's call as items and events carry it. */
export interface FunctionCall {
  name: string;
  arguments: string;
  call_id: string;
}

/** The events of a live turn that change a tool call (the rest are ignored here). */
export type ToolEvent =
  | { type: 'tool-call'; call: FunctionCall; approved: boolean; declinedBy?: string; reason?: string }
  | { type: 'approval-requested'; id: string; call: FunctionCall }
  | { type: 'approval-resolved'; id: string; decision: string; reason?: string }
  | { type: 'tool-started'; call: FunctionCall }
  | { type: 'tool-output'; callId: string; chunk: string }
  | { type: 'tool-finished'; callId: string; durationMs: number; exitCode?: number; status: string };

/** The model's plan tool: a call the page shows as the plan checklist (plan-updated), not as a tool row. */
export const PLAN_TOOL = 'update_plan';

/**
 * Whether a call gets a tool row: every call but a plan that ran (its checklist is the plan), as the
 * terminal shows it. A recorded call counts as having run; a live one says whether it was approved.
 */
export function showsAsToolRow(name: string, approved = true): boolean {
  return !(approved && name === PLAN_TOOL);
}

/** Output longer than this is cut from the front while it streams (the page keeps the latest). */
export const MAX_LIVE_OUTPUT = 200_000;

export function newToolCall(call: FunctionCall, status: ToolCallStatus = 'asked'): ToolCallView {
  return { callId: call.call_id, name: call.name, arguments: call.arguments, status, output: '' };
}

/** The view after one event; the same object when the event does not concern this call. */
export function applyToolEvent(view: ToolCallView, event: ToolEvent): ToolCallView {
  switch (event.type) {
    case 'tool-call':
      if (event.call.call_id !== view.callId) return view;
      return event.approved
        ? view
        : { ...view, status: 'declined', ...(event.reason !== undefined ? { reason: event.reason } : {}) };
    case 'approval-requested':
      return event.call.call_id === view.callId ? { ...view, status: 'waiting-approval' } : view;
    case 'approval-resolved':
      return view;
    case 'tool-started':
      return event.call.call_id === view.callId ? { ...view, status: 'running' } : view;
    case 'tool-output': {
      if (event.callId !== view.callId) return view;
      const output = view.output + event.chunk;
      return { ...view, output: output.length > MAX_LIVE_OUTPUT ? output.slice(-MAX_LIVE_OUTPUT) : output };
    }
    case 'tool-finished':
      if (event.callId !== view.callId) return view;
      return {
        ...view,
        status: finishedStatus(event.status),
        durationMs: event.durationMs,
        ...(event.exitCode !== undefined ? { exitCode: event.exitCode } : {}),
      };
  }
}

function finishedStatus(status: string): ToolCallStatus {
  return status === 'ok' || status === 'error' || status === 'denied' || status === 'aborted'
    ? status
    : 'error';
}

/** The text of a recorded `function_call_output` (text parts joined; images named). */
export function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (!Array.isArray(output)) return '';
  return output
    .map((part: unknown) => {
      if (typeof part !== 'object' || part === null) return '';
      const record = part as Record<string, unknown>;
      return typeof record.text === 'string' ? record.text : '[image]';
    })
    .join('\n');
}

/** A recorded call's status from its output text (the words core records for calls that did not run). */
export function recordedStatus(output: string): ToolCallStatus {
  if (/^Declined\b|^The user declined\b/.test(output)) return 'denied';
  if (/^The user stopped the turn\b|^Aborted\b/.test(output)) return 'aborted';
  return 'ok';
}

/** A shell call's recorded output as core writes it: the status line, the wall time, then the output. */
export interface ShellOutput {
  status: ToolCallStatus;
  exitCode?: number;
  durationMs: number;
  output: string;
}

export function parseShellOutput(text: string): ShellOutput | undefined {
  const match = /^(.*)\nWall time: ([\d.]+) seconds\nOutput:\n([\s\S]*)$/.exec(text);
  if (!match) return undefined;
  const [, head = '', seconds = '0', output = ''] = match;
  const exit = /^Exit code: (-?\d+)$/.exec(head);
  const exitCode = exit ? Number(exit[1]) : undefined;
  const status: ToolCallStatus = head.startsWith('Aborted') ? 'aborted' : exitCode === 0 ? 'ok' : 'error';
  return {
    status,
    ...(exitCode !== undefined ? { exitCode } : {}),
    durationMs: Number(seconds) * 1_000,
    output,
  };
}

/**
 * Pulls the command out of a shell call's arguments, the path out of a file tool's: the one line the
 * call's head shows. Falls back to the tool name alone.
 */
export function callHeadline(name: string, argumentsText: string): string {
  const args = parseArguments(argumentsText);
  if (args === undefined) return name;
  const command = args.command ?? args.cmd;
  if (typeof command === 'string') return `$ ${command}`;
  if (Array.isArray(command)) return `$ ${command.map(String).join(' ')}`;
  if (typeof args.path === 'string') return `${name} ${args.path}`;
  if (typeof args.url === 'string') return `${name} ${args.url}`;
  if (typeof args.pattern === 'string') return `${name} ${args.pattern}`;
  return name;
}

export function parseArguments(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The arguments indented for reading; the text as sent when it is not JSON. */
export function prettyArguments(text: string): string {
  const args = parseArguments(text);
  return args === undefined ? text : JSON.stringify(args, null, 2);
}

/** Terminal control sequences (colours, cursor moves) dropped: the page shows text, never live controls. */
export function plainOutput(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex
    /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-_]/g,
    '',
  );
}
