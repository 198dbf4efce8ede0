/**
 * A Cody approval request as `session/request_permission`: allow once, allow always (named with the narrow
 * scope Cody would remember, offered only when Cody offers it), reject once; and the answer back as the
 * engine's decision.
 */
import type { PermissionOption, RequestPermissionOutcome } from '@agentclientprotocol/sdk';
import type { ApprovalDecision, ApprovalRequest } from './core-types.js';

const ALLOW_ONCE = 'allow-once';
const ALLOW_ALWAYS = 'allow-always';
const REJECT_ONCE = 'reject-once';

/** The options offered for a request. */
export function permissionOptions(request: ApprovalRequest): PermissionOption[] {
  return [
    { optionId: ALLOW_ONCE, name: 'Allow once', kind: 'allow_once' },
    ...(request.alwaysScope
      ? [
          {
            optionId: ALLOW_ALWAYS,
            name: `Always allow ${request.alwaysScope.label} in this conversation`,
            kind: 'allow_always' as const,
          },
        ]
      : []),
    { optionId: REJECT_ONCE, name: 'Reject', kind: 'reject_once' },
  ];
}

/**
 * The engine's decision for the editor's answer. A cancelled request (the prompt was cancelled) stops
 * the turn; an option Cody did not offer is a rejection.
 */
export function decisionOf(outcome: RequestPermissionOutcome, request: ApprovalRequest): ApprovalDecision {
  if (outcome.outcome === 'cancelled') return 'abort';
  if (outcome.optionId === ALLOW_ONCE) return 'approve';
  if (outcome.optionId === ALLOW_ALWAYS && request.alwaysScope) return 'approve-session';
  return 'deny';
}
