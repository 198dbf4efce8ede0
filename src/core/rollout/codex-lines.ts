/**
 * What makes a Cody rollout a file the real Codex CLI reads line for line (measured with Codex 0.169:
 * `RUST_LOG=codex_rollout=trace` reports every line it cannot parse, and `thread/list` shows a
 * conversation only with `session_meta.source` and a `user_message` event):
 *
 * - Codex refuses every `event_msg` kind it does not know and every line type it does not know, but takes
 *   a `response_item` of an unknown type as "other" and never sends it to a model. Cody's own events
 *   (`turn_complete`, `context_compacted`, `turn_aborted`, whose names Codex uses for events of another
 *   shape, and `turn_changes`, a turn's change set for undo) are therefore written as `response_item` lines of type `cody_<kind>`; the old `event_msg`
 *   lines are still read.
 * - Reasoning that did not come from the Responses API (Anthropic thinking, Gemini thought summaries) has
 *   no `rs_` id, and Codex would send it back to the Responses API, which refuses it: it is written as
 *   `cody_reasoning`.
 * - `turn_context` needs `approval_policy` and `sandbox_policy`; `token_count` needs `total_token_usage`.
 *
 * Zod-free and small: `cody list` loads it.
 */
import type { MessageItem, ReasoningItem } from '../../protocol/index.js';
import { SUMMARY_PREFIX } from './summary-prefix.js';
import { isImageTag } from '../images/index.js';
import { isContextualUserText } from './is-contextual-user-text.js';

/** Cody-only events, written as `response_item` lines of type `cody_<kind>`. */
export const CODY_EVENT_KINDS = [
  'turn_complete',
  'context_compacted',
  'turn_aborted',
  'turn_changes',
] as const;
export type CodyEventKind = (typeof CODY_EVENT_KINDS)[number];

const CODY_PREFIX = 'cody_';

/**
 * Marks an imported Codex developer message (Codex's sandbox, skills and tool instructions): Codex reads it
 * as its own message, Cody reads it as an opaque item, kept and never sent (Cody's instructions apply).
 */
export const CODEX_HARNESS_FIELD = 'codex_harness';

/** Item type of reasoning that must never reach the Responses API (written by Cody, read back as reasoning). */
export const CODY_REASONING_TYPE = 'cody_reasoning';

export function isCodyEventKind(kind: unknown): kind is CodyEventKind {
  return typeof kind === 'string' && (CODY_EVENT_KINDS as readonly string[]).includes(kind);
}

/** `turn_complete` → `cody_turn_complete`. */
export function codyEventItemType(kind: CodyEventKind): string {
  return `${CODY_PREFIX}${kind}`;
}

/** The Cody event kind a `response_item` type carries (`cody_turn_complete` → `turn_complete`), if any. */
export function codyEventKindOf(itemType: unknown): CodyEventKind | undefined {
  if (typeof itemType !== 'string' || !itemType.startsWith(CODY_PREFIX)) return undefined;
  const kind = itemType.slice(CODY_PREFIX.length);
  return isCodyEventKind(kind) ? kind : undefined;
}

/**
 * The Cody event a line carries, in either shape: `response_item` `cody_<kind>` (written since Codex
 * compatibility) or `event_msg` `<kind>` (older files). Undefined for any other line.
 */
export function codyEventOf(
  lineType: unknown,
  payload: Record<string, unknown>,
): { kind: CodyEventKind; payload: Record<string, unknown> } | undefined {
  if (lineType === 'response_item') {
    const kind = codyEventKindOf(payload.type);
    return kind ? { kind, payload: { ...payload, type: kind } } : undefined;
  }
  if (lineType === 'event_msg' && isCodyEventKind(payload.type)) return { kind: payload.type, payload };
  return undefined;
}

/** Whether reasoning is written as `cody_reasoning`: it came from an API other than Responses. */
export function isForeignToCodex(item: ReasoningItem): boolean {
  return item.origin !== undefined && item.origin.api !== 'openai-responses';
}

/**
 * The `user_message` event Codex writes beside each message the person typed (its thread list shows only
 * conversations that have one, with the first as the preview). Undefined for harness context and
 * compaction summaries, which Codex does not announce either.
 */
export function userMessageEvent(
  item: MessageItem,
): (Record<string, unknown> & { type: string }) | undefined {
  if (item.role !== 'user') return undefined;
  const message = item.content
    .flatMap((part) => (part.type === 'input_image' || isImageTag(part.text) ? [] : [part.text]))
    .join('');
  if (isContextualUserText(message) || message.startsWith(SUMMARY_PREFIX)) return undefined;
  const images = item.content.flatMap((part) => (part.type === 'input_image' ? [part.image_url] : []));
  return { type: 'user_message', message, images, local_images: [], text_elements: [] };
}

/** Codex's `sandbox_policy`, as the agent's tool runtime describes the sandbox it runs commands in. */
export type SandboxPolicyLike =
  | { type: 'read-only' }
  | { type: 'workspace-write'; writable_roots?: string[]; network_access?: boolean }
  | { type: 'danger-full-access' };

/** Codex's approval policies (`AskForApproval`), as written in `turn_context.approval_policy`. */
export type CodexApprovalPolicy = 'untrusted' | 'on-failure' | 'on-request' | 'never';

/**
 * Cody's approval policies in Codex's terms: `read-only` never asks (it refuses) → `never`; `ask` and
 * `auto-edit` ask before commands → `untrusted`; `full-auto` runs commands without asking → `on-request`
 * (Codex's own `--full-auto`). An unknown or absent policy is Cody's default, `ask`.
 */
export function codexApprovalPolicy(policy: string | undefined): CodexApprovalPolicy {
  switch (policy) {
    case 'read-only':
      return 'never';
    case 'full-auto':
      return 'on-request';
    default:
      return 'untrusted';
  }
}

/**
 * `turn_context`'s permission fields as Codex writes them: `approval_policy`, `sandbox_policy` in its full
 * shape, and Cody's own policy name beside them. Without a sandbox description Cody runs approved commands
 * unsandboxed (`danger-full-access`), and read-only refuses every change (`read-only`).
 */
export function codexPermissions(
  policy: string | undefined,
  sandbox?: SandboxPolicyLike,
): {
  approval_policy: CodexApprovalPolicy;
  sandbox_policy: Record<string, unknown>;
  cody_approval_policy?: string;
} {
  const described: SandboxPolicyLike =
    sandbox ?? (policy === 'read-only' ? { type: 'read-only' } : { type: 'danger-full-access' });
  const sandboxPolicy =
    described.type === 'workspace-write'
      ? {
          type: 'workspace-write',
          writable_roots: described.writable_roots ?? [],
          network_access: described.network_access ?? false,
          exclude_tmpdir_env_var: false,
          exclude_slash_tmp: false,
        }
      : { type: described.type };
  return {
    approval_policy: codexApprovalPolicy(policy),
    sandbox_policy: sandboxPolicy,
    ...(policy !== undefined ? { cody_approval_policy: policy } : {}),
  };
}

/**
 * `session_meta.model_provider` for a conversation created on `provider`: `openai` for OpenAI. Absent for
 * Anthropic and Google: Codex resumes a thread only under the provider id it names and lists it only
 * under that provider, and no Codex provider speaks Messages or Gemini; without the field Codex lists and
 * resumes the conversation under the provider it is configured with.
 */
export function codexModelProvider(provider: string): string | undefined {
  return provider === 'openai' ? 'openai' : undefined;
}
