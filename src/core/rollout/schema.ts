/**
 * The rollout line format (Codex's `{timestamp, type, payload}`), its payload types, and the validation
 * of everything read back from disk. Lenient by design: unknown fields, unknown line types and unknown
 * event kinds are accepted; unknown item types become opaque items that are kept verbatim.
 */
import { z } from 'zod';
import type {
  ContentPart,
  FunctionCallItem,
  ProviderOrigin,
  ReasoningItem,
  ResponseItem,
  WireApi,
} from '../../protocol/index.js';

export type RolloutLineType = 'session_meta' | 'response_item' | 'turn_context' | 'compacted' | 'event_msg';

export interface RolloutLine {
  /** ISO-8601 UTC with milliseconds. */
  timestamp: string;
  type: RolloutLineType | (string & {});
  payload: unknown;
}

export interface SessionMetaPayload {
  id: string;
  timestamp: string;
  cwd: string;
  originator: string;
  cli_version: string;
  /** `openai`, `anthropic` or `google`. */
  provider: string;
  api: WireApi | (string & {});
  model: string;
  model_provider: string;
  parent_id?: string;
  imported_from?: { path: string; id?: string };
}

export interface TurnContextPayload {
  turn_id?: string;
  cwd?: string;
  provider: string;
  api: string;
  model: string;
  approval_policy?: string;
  context_window?: number;
}

export interface CompactedPayload {
  /** The summary text. */
  message: string;
  /** The whole history that replaced the old one (absent in older Codex files). */
  replacement_history?: ResponseItem[];
  /** Compactions so far in this conversation, this one included. */
  compaction_count?: number;
}

/** Codex's `token_count` event: the usage the provider reported for the last response. */
export interface TokenCountPayload {
  type: 'token_count';
  info: {
    last_token_usage: {
      input_tokens: number;
      cached_input_tokens: number;
      output_tokens: number;
      reasoning_output_tokens: number;
      total_tokens: number;
    };
    total_token_usage?: unknown;
    model_context_window?: number;
  } | null;
}

export type EventPayload = { type: string } & Record<string, unknown>;

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
    parent_id: z.string().optional(),
    imported_from: z.object({ path: z.string(), id: z.string().optional() }).optional(),
  })
  .passthrough();

export const turnContextSchema = z
  .object({
    turn_id: z.string().optional(),
    cwd: z.string().optional(),
    provider: z.string().optional(),
    api: z.string().optional(),
    model: z.string().optional(),
    approval_policy: z.unknown().optional(),
    context_window: z.number().optional(),
  })
  .passthrough();

export const compactedSchema = z
  .object({
    message: z.string().optional().default(''),
    replacement_history: z.array(z.unknown()).optional().nullable(),
    compaction_count: z.number().optional(),
  })
  .passthrough();

const usageNumbers = z
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
        last_token_usage: usageNumbers.optional(),
        model_context_window: z.number().optional().nullable(),
      })
      .passthrough()
      .nullable()
      .optional(),
  })
  .passthrough();

export const eventSchema = z.object({ type: z.string() }).passthrough();

/** Reads a Cody session_meta payload into its full shape (older or foreign files fill the gaps). */
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

// ---- items -------------------------------------------------------------------------------------------

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const WIRE_APIS: readonly string[] = ['openai-responses', 'openai-chat', 'anthropic-messages', 'gemini'];

function parseOrigin(value: unknown): ProviderOrigin | undefined {
  if (!isRecord(value) || typeof value.api !== 'string' || typeof value.model !== 'string') return undefined;
  if (!WIRE_APIS.includes(value.api)) return undefined;
  return { api: value.api as WireApi, model: value.model };
}

function parseProviderData(value: unknown): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined;
  const entries = Object.entries(value).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  );
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function parsePart(value: unknown, role: string): ContentPart | undefined {
  if (!isRecord(value)) return undefined;
  if ((value.type === 'input_text' || value.type === 'output_text') && typeof value.text === 'string') {
    return { type: value.type, text: value.text };
  }
  if (value.type === 'input_image') {
    const url =
      typeof value.image_url === 'string'
        ? value.image_url
        : isRecord(value.image_url)
          ? value.image_url.url
          : undefined;
    if (typeof url !== 'string') return undefined;
    const detail =
      value.detail === 'low' || value.detail === 'high' || value.detail === 'auto' ? value.detail : undefined;
    return { type: 'input_image', image_url: url, ...(detail ? { detail } : {}) };
  }
  // A text-bearing part of a kind Cody does not know (e.g. `refusal`): keep its text.
  const text =
    typeof value.text === 'string'
      ? value.text
      : typeof value.refusal === 'string'
        ? value.refusal
        : undefined;
  if (text === undefined) return undefined;
  return { type: role === 'assistant' ? 'output_text' : 'input_text', text };
}

function withOptional<T extends object>(item: T, extras: Json): T {
  const defined = Object.fromEntries(Object.entries(extras).filter(([, value]) => value !== undefined));
  return { ...item, ...defined };
}

/**
 * A canonical item from what was read from disk. Known types are validated field by field; an item of
 * an unknown type, or a known type too malformed to use, becomes `{type: 'opaque', raw}` — kept and
 * rewritten verbatim, never sent to a model.
 */
export function parseResponseItem(raw: unknown): ResponseItem {
  if (!isRecord(raw)) return { type: 'opaque', raw: { value: raw } };
  switch (raw.type) {
    case 'message': {
      const role = raw.role;
      if (role !== 'user' && role !== 'assistant' && role !== 'system' && role !== 'developer') break;
      const source =
        typeof raw.content === 'string' ? [{ type: 'input_text', text: raw.content }] : raw.content;
      if (!Array.isArray(source)) break;
      const content = source
        .map((part) => parsePart(part, role))
        .filter((part): part is ContentPart => part !== undefined);
      return withOptional(
        { type: 'message' as const, role, content },
        {
          id: typeof raw.id === 'string' ? raw.id : undefined,
          origin: parseOrigin(raw.origin),
          provider_data: parseProviderData(raw.provider_data),
        },
      );
    }
    case 'function_call': {
      if (typeof raw.name !== 'string' || typeof raw.call_id !== 'string') break;
      const args = typeof raw.arguments === 'string' ? raw.arguments : JSON.stringify(raw.arguments ?? {});
      const item: FunctionCallItem = {
        type: 'function_call',
        name: raw.name,
        arguments: args,
        call_id: raw.call_id,
      };
      return withOptional(item, {
        id: typeof raw.id === 'string' ? raw.id : undefined,
        origin: parseOrigin(raw.origin),
        provider_data: parseProviderData(raw.provider_data),
      });
    }
    case 'function_call_output': {
      if (typeof raw.call_id !== 'string') break;
      let output: string | ContentPart[];
      if (typeof raw.output === 'string') output = raw.output;
      else if (Array.isArray(raw.output)) {
        output = raw.output
          .map((part) => parsePart(part, 'user'))
          .filter((part): part is ContentPart => part !== undefined);
      } else if (isRecord(raw.output) && typeof raw.output.content === 'string') output = raw.output.content;
      else output = JSON.stringify(raw.output ?? '');
      return { type: 'function_call_output', call_id: raw.call_id, output };
    }
    case 'reasoning': {
      const summary = Array.isArray(raw.summary)
        ? raw.summary
            .filter((part): part is Json => isRecord(part) && typeof part.text === 'string')
            .map((part) => ({ type: 'summary_text' as const, text: String(part.text) }))
        : [];
      const content = Array.isArray(raw.content)
        ? raw.content
            .filter((part): part is Json => isRecord(part) && typeof part.text === 'string')
            .map((part) => ({ type: 'reasoning_text' as const, text: String(part.text) }))
        : raw.content === null
          ? null
          : undefined;
      const item: ReasoningItem = { type: 'reasoning', summary };
      return withOptional(item, {
        id: typeof raw.id === 'string' ? raw.id : undefined,
        content,
        encrypted_content:
          typeof raw.encrypted_content === 'string'
            ? raw.encrypted_content
            : raw.encrypted_content === null
              ? null
              : undefined,
        origin: parseOrigin(raw.origin),
        provider_data: parseProviderData(raw.provider_data),
      });
    }
    case 'ghost_snapshot':
      if (isRecord(raw.ghost_commit)) return { type: 'ghost_snapshot', ghost_commit: raw.ghost_commit };
      break;
    default:
      break;
  }
  return { type: 'opaque', raw };
}

/** The on-disk form of an item: opaque items are written back exactly as they were read. */
export function serializeResponseItem(item: ResponseItem): Json {
  return item.type === 'opaque' ? item.raw : (item as unknown as Json);
}
