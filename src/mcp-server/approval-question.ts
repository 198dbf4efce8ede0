/**
 * An approval the engine asks for, put to the MCP client's person as an elicitation (a form with one
 * choice and an optional reason), and the answer mapped back to the engine's decision. Anything but an
 * explicit accept with an approving choice declines: a dismissed form, a failed request, an unknown value.
 */
import type { ApprovalDecision, SessionEvent } from '../core/index.js';

export type ApprovalRequest = Extract<SessionEvent, { type: 'approval-requested' }>;

/** What the elicitation form returns (`elicitation/create`'s result). */
export interface ElicitAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown> | undefined;
}

/** The form `elicitation/create` sends: a message and a flat schema of primitive fields. */
export interface ApprovalForm {
  message: string;
  requestedSchema: {
    type: 'object';
    properties: Record<string, { type: 'string'; title: string; description: string; enum?: string[] }>;
    required: string[];
  };
}

/** The engine's answer to one approval. */
export interface ApprovalAnswer {
  decision: ApprovalDecision;
  reason?: string;
}

const ALLOW_ONCE = 'allow once';
const DENY = 'deny';
/** Enough of the call for a person to judge it; the rest is said to be cut. */
const ARGUMENTS_LIMIT = 2_000;
const PREVIEW_LIMIT = 4_000;
/** A reason longer than this is cut before the model reads it. */
const REASON_LIMIT = 1_000;

/** C0 controls but tab and newline, DEL, the C1 range, and the bidirectional overrides and isolates. */
// eslint-disable-next-line no-control-regex
const UNSHOWABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The model's text as a person should see it: many MCP clients are terminal programs, and a command or
 * preview holding escape sequences or bidi overrides could redraw the question it appears in. Each such
 * character is shown (`^[`, `\u202e`) instead of obeyed.
 */
function shown(text: string): string {
  return text.replace(UNSHOWABLE, (character) => {
    const code = character.charCodeAt(0);
    if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
    if (code === 0x7f) return '^?';
    return `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

function alwaysChoice(request: ApprovalRequest): string | undefined {
  return request.alwaysScope ? `allow always: ${shown(request.alwaysScope.label)}` : undefined;
}

function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length - limit} more characters)`;
}

/** The question as a form: what the tool would do, why it asks, and the choices the engine takes. */
export function approvalForm(request: ApprovalRequest): ApprovalForm {
  const always = alwaysChoice(request);
  const lines = [
    `Cody asks to run the tool "${shown(request.call.name)}": ${shown(request.reason)}`,
    `Arguments: ${shown(cut(request.call.arguments, ARGUMENTS_LIMIT))}`,
    ...(request.preview !== undefined ? [`Preview:\n${shown(cut(request.preview, PREVIEW_LIMIT))}`] : []),
  ];
  return {
    message: lines.join('\n'),
    requestedSchema: {
      type: 'object',
      properties: {
        decision: {
          type: 'string',
          title: 'Decision',
          description: always
            ? `"${ALLOW_ONCE}" runs this call; "${always}" also runs such calls later in this conversation without asking; "${DENY}" refuses it.`
            : `"${ALLOW_ONCE}" runs this call; "${DENY}" refuses it.`,
          enum: [ALLOW_ONCE, ...(always ? [always] : []), DENY],
        },
        reason: {
          type: 'string',
          title: 'Reason',
          description: 'When denying: what the model should know (optional).',
        },
      },
      required: ['decision'],
    },
  };
}

/** The engine's decision for the client's answer to `approvalForm(request)`. */
export function approvalAnswer(request: ApprovalRequest, answer: ElicitAnswer): ApprovalAnswer {
  if (answer.action !== 'accept') return { decision: 'deny' };
  const choice = answer.content?.decision;
  if (choice === ALLOW_ONCE) return { decision: 'approve' };
  const always = alwaysChoice(request);
  if (always !== undefined && choice === always) return { decision: 'approve-session' };
  const reason = answer.content?.reason;
  return {
    decision: 'deny',
    ...(typeof reason === 'string' && reason.trim() !== ''
      ? { reason: cut(reason.trim(), REASON_LIMIT) }
      : {}),
  };
}
