/** The approval policy a command runs with: --approval, else --auto-approve (full-auto), else config, else ask. */
import { UsageError } from '../core/index.js';
import { APPROVAL_POLICIES, isApprovalPolicy, type ApprovalPolicy } from '../core/index.js';

/**
 * The policy the flags choose, checked (a usage error for a bad one); undefined without a flag, so the
 * engine applies config.json's `approval` (else 'ask') and each conversation keeps its recorded policy.
 */
export function approvalFromFlags(flags: {
  approval?: string;
  autoApprove?: boolean;
}): ApprovalPolicy | undefined {
  if (flags.approval !== undefined) {
    if (!isApprovalPolicy(flags.approval))
      throw new UsageError(
        `--approval must be one of ${APPROVAL_POLICIES.join(', ')}; got '${flags.approval}'.`,
      );
    if (flags.autoApprove === true && flags.approval !== 'full-auto')
      throw new UsageError(
        `--auto-approve means --approval full-auto; it cannot be combined with --approval ${flags.approval}.`,
      );
    return flags.approval;
  }
  return flags.autoApprove === true ? 'full-auto' : undefined;
}

/** `--dangerously-skip-confinement` as engine options (absent: config.json decides). */
export function confinementFromFlags(flags: { dangerouslySkipConfinement?: boolean }): { unconfined?: true } {
  return flags.dangerouslySkipConfinement === true ? { unconfined: true } : {};
}

/** Whether no approval flag was given, so the conversation's own recorded policy applies. */
export function noApprovalFlag(options: { approval?: string; autoApprove?: boolean }): boolean {
  return options.approval === undefined && options.autoApprove !== true;
}
