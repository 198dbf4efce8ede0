/**
 * The rollout line format (Codex's `{timestamp, type, payload}`), its payload types, and the zod schemas
 * that validate what is read back from disk. Lenient by design: unknown fields, unknown line types and
 * unknown event kinds are accepted; unknown item types become opaque items kept verbatim
 * (`parseResponseItem`, re-exported from here).
 */
import { z } from 'zod';
import type { ResponseItem, WireApi } from '../../protocol/index.js';

export { parseResponseItem, serializeResponseItem } from './response-item.js';

export type RolloutLineType = 'session_meta' | 'response_item' | 'turn_context' | 'compacted' | 'event_msg';

export interface RolloutLine {
  /** ISO-8601 UTC with milliseconds. */
  timestamp: string;
  /** One of `RolloutLineType`; other values (from newer versions) are read and ignored. */
  type: RolloutLineType | (string & {});
  payload: unknown;
}

/** The first line of every rollout: what the conversation is and how it started. */
export interface SessionMetaPayload {
  /** The conversation id (UUIDv7), equal to the file name. */
  id: string;
  /** Creation time, ISO-8601 UTC. */
  timestamp: string;
  /** Working directory the conversation was started in. */
  cwd: string;
  /** Always `cody` for files Cody writes (Codex writes `codex-tui`, `Codex Desktop`, …). */
  originator: string;
  cli_version: string;
  /** `openai`, `anthropic` or `google`. */
  provider: string;
  api: WireApi | (string & {});
  model: string;
  /**
   * Codex's field: the provider entry the model came from (`openai`). Cody writes it only for
   * conversations created on OpenAI (see `codexModelProvider`); read back, it defaults to `provider`.
   */
  model_provider?: string;
  /** Codex's field: where the session came from. Cody writes `cli`, which Codex's thread list shows. */
  source?: string;
  /** The conversation this one was forked from. */
  parent_id?: string;
  /** The same, under the name Codex and `cody fork` use. */
  forked_from_id?: string;
  /** A fork made at an earlier user message: that message's text (the fork's history stops before it). */
  forked_at_message?: string;
  /** Set by `cody import`: the source file and its own id. */
  imported_from?: { path: string; id?: string };
}

/** What one turn ran with. */
export interface TurnContextPayload {
  turn_id?: string;
  cwd?: string;
  provider: string;
  api: string;
  model: string;
  /** Codex's approval policy (`untrusted`, `on-request`, `never`, …); see `codexPermissions`. */
  approval_policy?: string;
  /** Codex's sandbox policy (`{type: "workspace-write", …}`); see `codexPermissions`. */
  sandbox_policy?: Record<string, unknown>;
  /** Cody's own approval policy (`read-only`, `ask`, `auto-edit`, `full-auto`). */
  cody_approval_policy?: string;
  /**
   * The policy the conversation keeps for its next runs, when the turn ran under another one chosen for
   * that run only (`--approval`, a library option). Absent: it keeps `cody_approval_policy`.
   */
  cody_approval_kept?: string;
  /** The context window (tokens) the turn assumed for `model`. */
  context_window?: number;
  /** Codex's reasoning effort (`none`, `minimal`, `low`, `medium`, `high`); absent: the API's default. */
  effort?: string;
  /** Codex's reasoning summary mode (`auto`, or `none` with reasoning off). */
  summary?: string;
}

export interface CompactedPayload {
  /** The summary text. */
  message: string;
  /** The whole history that replaced the old one (absent in older Codex files). */
  replacement_history?: ResponseItem[];
  /** Compactions so far in this conversation, this one included. */
  compaction_count?: number;
}

/** Token counts in Codex's snake_case shape. */
export interface TokenUsageCounts {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
  total_tokens: number;
}

/**
 * Codex's `token_count` event: the usage the provider reported for the last response, and the running
 * total of the conversation (Codex requires both; the recorder fills a missing total with the last usage).
 */
export interface TokenCountPayload {
  type: 'token_count';
  info: {
    last_token_usage: TokenUsageCounts;
    total_token_usage?: TokenUsageCounts;
    model_context_window?: number;
  } | null;
}

export interface TurnAbortedPayload {
  type: 'turn_aborted';
  reason: string;
}

export interface WarningPayload {
  type: 'warning';
  message: string;
}

/**
 * Written after each `compacted` line: what the compaction achieved. On disk a `response_item` of type
 * `cody_context_compacted` (older files: an `event_msg`); see codex-lines.ts.
 */
export interface ContextCompactedPayload {
  type: 'context_compacted';
  trigger?: string;
  tokens_before: number;
  tokens_after: number;
  /** Oldest items dropped because the summary request itself overflowed. */
  trimmed_items: number;
  /** The summary request failed and a placeholder summary was used. */
  summary_failed: boolean;
}

/**
 * Written at the end of every turn, so `cody list` learns everything it shows from the last line. On disk
 * a `response_item` of type `cody_turn_complete` (older files: an `event_msg`); see codex-lines.ts.
 */
export interface TurnCompletePayload {
  type: 'turn_complete';
  turn_id: string;
  /** User and assistant messages in the conversation so far. */
  message_count: number;
  first_user_message?: string;
  provider?: string;
  api?: string;
  model?: string;
  /** Compactions so far (lets `list` show it without finding the last `compacted` line). */
  compaction_count?: number;
}

export type KnownEventPayload =
  TokenCountPayload | TurnAbortedPayload | WarningPayload | ContextCompactedPayload | TurnCompletePayload;

/** What `appendEvent` takes: a known kind, or any other (readers ignore kinds they do not know). */
export type EventPayload = KnownEventPayload | ({ type: string } & Record<string, unknown>);

export const rolloutLineSchema = z.object({
  timestamp: z.string(),
  type: z.string(),
  payload: z.unknown(),
});

export const sessionMetaSchema = z
  .object({
    id: z.string().min(1),
    timestamp: z.string(),
    cwd: z.string().optional().default(''),
    originator: z.string().optional().default('unknown'),
    cli_version: z.string().optional().default(''),
    provider: z.string().optional(),
    api: z.string().optional(),
    model: z.string().optional(),
    model_provider: z.string().optional(),
    parent_id: z.string().optional().catch(undefined),
    imported_from: z
      .object({ path: z.string(), id: z.string().optional() })
      .passthrough()
      .optional()
      .catch(undefined),
  })
  .passthrough();

export const turnContextSchema = z
  .object({
    turn_id: z.string().optional().catch(undefined),
    cwd: z.string().optional().catch(undefined),
    provider: z.string().optional(),
    api: z.string().optional(),
    model: z.string().optional(),
    // Codex writes a string (`on-request`); anything else is not Cody's and is dropped.
    approval_policy: z.string().optional().catch(undefined),
    cody_approval_policy: z.string().optional().catch(undefined),
    cody_approval_kept: z.string().optional().catch(undefined),
    context_window: z.number().optional().catch(undefined),
    effort: z.string().optional().catch(undefined),
    summary: z.string().optional().catch(undefined),
  })
  .passthrough();

export const compactedSchema = z
  .object({
    message: z.string().optional().default(''),
    replacement_history: z.array(z.unknown()).nullish(),
    compaction_count: z.number().int().nonnegative().optional().catch(undefined),
  })
  .passthrough();

const usageCountsSchema = z
  .object({
    input_tokens: z.number().optional(),
    cached_input_tokens: z.number().optional(),
    output_tokens: z.number().optional(),
    reasoning_output_tokens: z.number().optional(),
    total_tokens: z.number().optional(),
  })
  .passthrough();

export const tokenCountSchema = z
  .object({
    type: z.literal('token_count'),
    info: z
      .object({
        last_token_usage: usageCountsSchema.optional(),
        total_token_usage: usageCountsSchema.optional().catch(undefined),
        model_context_window: z.number().nullish(),
      })
      .passthrough()
      .nullish(),
  })
  .passthrough();

export const turnCompleteSchema = z
  .object({
    type: z.literal('turn_complete'),
    message_count: z.number().int().nonnegative().optional().catch(undefined),
    first_user_message: z.string().optional().catch(undefined),
    compaction_count: z.number().int().nonnegative().optional().catch(undefined),
  })
  .passthrough();

export const eventSchema = z.object({ type: z.string() }).passthrough();

/** A session_meta payload in its full shape (older or foreign files fill the gaps); undefined if unusable. */
export function toSessionMeta(payload: unknown): SessionMetaPayload | undefined {
  const parsed = sessionMetaSchema.safeParse(payload);
  if (!parsed.success) return undefined;
  const meta = parsed.data;
  const provider = meta.provider ?? meta.model_provider ?? 'openai';
  return {
    ...meta,
    provider,
    api: meta.api ?? (provider === 'openai' ? 'openai-responses' : provider),
    model: meta.model ?? 'unknown',
    model_provider: meta.model_provider ?? provider,
  };
}

/** A turn_context payload, filling provider/api from the session when the line lacks them. */
export function toTurnContext(
  payload: unknown,
  meta: Pick<SessionMetaPayload, 'provider' | 'api'>,
): TurnContextPayload | undefined {
  const parsed = turnContextSchema.safeParse(payload);
  if (!parsed.success || parsed.data.model === undefined) return undefined;
  const {
    turn_id,
    cwd,
    approval_policy,
    cody_approval_policy,
    cody_approval_kept,
    context_window,
    effort,
    summary,
  } = parsed.data;
  return {
    ...(turn_id !== undefined ? { turn_id } : {}),
    ...(cwd !== undefined ? { cwd } : {}),
    provider: parsed.data.provider ?? meta.provider,
    api: parsed.data.api ?? meta.api,
    model: parsed.data.model,
    ...(approval_policy !== undefined ? { approval_policy } : {}),
    ...(cody_approval_policy !== undefined ? { cody_approval_policy } : {}),
    ...(cody_approval_kept !== undefined ? { cody_approval_kept } : {}),
    ...(context_window !== undefined ? { context_window } : {}),
    ...(effort !== undefined ? { effort } : {}),
    ...(summary !== undefined ? { summary } : {}),
  };
}
