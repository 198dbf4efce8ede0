/** The approval policy a command runs with: --approval, else --auto-approve (full-auto), else config, else ask. */
import type { CodyConfig } from '../core/config.js';
import { UsageError } from '../core/errors.js';
import {
  APPROVAL_POLICIES,
  DEFAULT_APPROVAL_POLICY,
  isApprovalPolicy,
  type ApprovalPolicy,
} from '../core/tools/policy.js';

export function resolveApprovalPolicy(
  flags: { approval?: string; autoApprove?: boolean },
  config: CodyConfig,
): ApprovalPolicy {
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
  if (flags.autoApprove === true) return 'full-auto';
  return config.approval ?? DEFAULT_APPROVAL_POLICY;
}

/** The approval flags as createCliTools takes them (absent ones left out). */
export function approvalFlags(options: { approval?: string; autoApprove?: boolean }): {
  approval?: string;
  autoApprove?: boolean;
} {
  return {
    ...(options.approval !== undefined ? { approval: options.approval } : {}),
    ...(options.autoApprove === true ? { autoApprove: true } : {}),
  };
}

/** Whether no approval flag was given, so the conversation's own recorded policy applies. */
export function noApprovalFlag(options: { approval?: string; autoApprove?: boolean }): boolean {
  return options.approval === undefined && options.autoApprove !== true;
}
