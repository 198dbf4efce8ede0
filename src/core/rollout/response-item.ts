/**
 * Canonical items read from disk, validated with zod. Known types are checked field by field and
 * normalised (Codex variants such as string content, `content: null` or `status` are accepted); an item
 * of an unknown type, or a known type too malformed to use, becomes `{type: 'opaque', raw}`: kept and
 * written back verbatim, never sent to a model, never dropped.
 */
import { z } from 'zod';
import { CODEX_HARNESS_FIELD, CODY_REASONING_TYPE, isForeignToCodex } from './codex-lines.js';
import { isRecord } from '../../protocol/index.js';
import { isWireApi } from '../../providers/lookup.js';
import type {
  ContentPart,
  FunctionCallItem,
  MessageItem,
  ReasoningItem,
  ResponseItem,
} from '../../protocol/index.js';

type Json = Record<string, unknown>;

const wireApiSchema = z.string().refine(isWireApi, { message: 'not a registered wire API' });

/** A field that is dropped, rather than failing the item, when it is malformed. */
const originField = z
  .object({ api: wireApiSchema, model: z.string(), foreign: z.literal(true).optional() })
  .optional()
  .catch(undefined);
const idField = z.string().optional().catch(undefined);
const providerDataField = z
  .record(z.string(), z.unknown())
  .transform((record) => stringEntries(record))
  .optional()
  .catch(undefined);

const partSchema = z
  .object({
    type: z.string().optional(),
    text: z.string().optional(),
    refusal: z.string().optional(),
    image_url: z.union([z.string(), z.object({ url: z.string() }).passthrough()]).optional(),
    detail: z.enum(['auto', 'low', 'high']).optional().catch(undefined),
  })
  .passthrough();

const textPartSchema = z.object({ text: z.string() }).passthrough();

/** Codex's `{content, success}` tool output. */
const wrappedOutputSchema = z.object({ content: z.string() }).passthrough();

const textPartsField = z
  .array(z.unknown())
  .transform((parts) =>
    parts
      .map((part) => textPartSchema.safeParse(part))
      .flatMap((parsed) => (parsed.success ? [parsed.data.text] : [])),
  );

const reasoningSchema = z
  .object({
    type: z.literal('reasoning'),
    id: idField,
    summary: textPartsField.optional().catch(undefined),
    content: z.union([textPartsField, z.null()]).optional().catch(undefined),
    encrypted_content: z.string().nullish().catch(undefined),
    origin: originField,
    provider_data: providerDataField,
  })
  .passthrough();

const ghostSnapshotSchema = z
  .object({
    type: z.literal('ghost_snapshot'),
    ghost_commit: z.record(z.string(), z.unknown()),
  })
  .passthrough();

const ROLES: ReadonlySet<unknown> = new Set(['user', 'assistant', 'system', 'developer']);

function isRole(value: unknown): value is MessageItem['role'] {
  return ROLES.has(value);
}

/*
 * Messages and function calls are checked by hand rather than with zod: resume reads every item, and
 * these are nearly all of them. A malformed optional field is dropped, exactly as idField, originField
 * and providerDataField do for the other item types.
 */
function commonFields(raw: Json): Json {
  const { id, origin, provider_data: data } = raw;
  return {
    id: typeof id === 'string' ? id : undefined,
    origin:
      isRecord(origin) && isWireApi(origin.api) && typeof origin.model === 'string'
        ? { api: origin.api, model: origin.model }
        : undefined,
    provider_data: isRecord(data) ? stringEntries(data) : undefined,
  };
}

function stringEntries(record: Json): Record<string, string> | undefined {
  const entries = Object.entries(record).filter((entry): entry is [string, string] => {
    return typeof entry[1] === 'string';
  });
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** Keeps only the optional fields that are present, so items compare equal to what was written. */
function withDefined<T extends object>(item: T, extras: Json): T {
  let result: Json | undefined;
  for (const [key, value] of Object.entries(extras)) {
    if (value === undefined) continue;
    result ??= { ...(item as Json) };
    result[key] = value;
  }
  // Most items have none: no copy then (resume builds one per item).
  return (result ?? item) as T;
}

function toPart(value: unknown, role: MessageItem['role']): ContentPart | undefined {
  // The common shape, checked by hand (resume reads every item): what partSchema would accept as is.
  if (
    isRecord(value) &&
    (value.type === 'input_text' || value.type === 'output_text') &&
    typeof value.text === 'string' &&
    value.refusal === undefined &&
    value.image_url === undefined
  ) {
    return { type: value.type, text: value.text };
  }
  const parsed = partSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const part = parsed.data;
  if ((part.type === 'input_text' || part.type === 'output_text') && part.text !== undefined) {
    return { type: part.type, text: part.text };
  }
  if (part.type === 'input_image' && part.image_url !== undefined) {
    const url = typeof part.image_url === 'string' ? part.image_url : part.image_url.url;
    return withDefined({ type: 'input_image' as const, image_url: url }, { detail: part.detail });
  }
  // A text-bearing part of a kind Cody does not know (e.g. `refusal`): keep its text.
  const text = part.text ?? part.refusal;
  if (text === undefined) return undefined;
  return { type: role === 'assistant' ? 'output_text' : 'input_text', text };
}

function toParts(source: string | unknown[], role: MessageItem['role']): ContentPart[] {
  if (typeof source === 'string')
    return [{ type: role === 'assistant' ? 'output_text' : 'input_text', text: source }];
  return source.map((part) => toPart(part, role)).filter((part): part is ContentPart => part !== undefined);
}

function toOutput(output: unknown): string | ContentPart[] {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return toParts(output, 'user');
  const wrapped = wrappedOutputSchema.safeParse(output);
  if (wrapped.success) return wrapped.data.content;
  return JSON.stringify(output ?? '');
}

function parseKnown(raw: Json): ResponseItem | undefined {
  switch (raw.type) {
    case 'message': {
      if (raw[CODEX_HARNESS_FIELD] === true) return undefined; // kept opaque, never sent
      const { role, content } = raw;
      if (!isRole(role) || (typeof content !== 'string' && !Array.isArray(content))) return undefined;
      const item: MessageItem = { type: 'message', role, content: toParts(content, role) };
      return withDefined(item, commonFields(raw));
    }
    case 'function_call': {
      const { name, call_id } = raw;
      if (typeof name !== 'string' || typeof call_id !== 'string') return undefined;
      const args = raw.arguments;
      const item: FunctionCallItem = {
        type: 'function_call',
        name,
        arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
        call_id,
      };
      return withDefined(item, commonFields(raw));
    }
    case 'function_call_output': {
      if (typeof raw.call_id !== 'string') return undefined;
      return { type: 'function_call_output', call_id: raw.call_id, output: toOutput(raw.output) };
    }
    case CODY_REASONING_TYPE:
    case 'reasoning': {
      const parsed = reasoningSchema.safeParse({ ...raw, type: 'reasoning' });
      if (!parsed.success) return undefined;
      const { id, summary, content, encrypted_content, origin, provider_data } = parsed.data;
      const item: ReasoningItem = {
        type: 'reasoning',
        summary: (summary ?? []).map((text) => ({ type: 'summary_text' as const, text })),
      };
      return withDefined(item, {
        id,
        content: content?.map((text) => ({ type: 'reasoning_text' as const, text })) ?? content,
        encrypted_content,
        origin,
        provider_data,
      });
    }
    case 'ghost_snapshot': {
      const parsed = ghostSnapshotSchema.safeParse(raw);
      return parsed.success ? { type: 'ghost_snapshot', ghost_commit: parsed.data.ghost_commit } : undefined;
    }
    default:
      return undefined;
  }
}

/** A canonical item from a value read from disk; never throws (unusable values become opaque items). */
export function parseResponseItem(raw: unknown): ResponseItem {
  if (!isRecord(raw)) return { type: 'opaque', raw: { value: raw } };
  return parseKnown(raw) ?? { type: 'opaque', raw };
}

/**
 * The on-disk form of an item: opaque items are written back exactly as they were read; reasoning from
 * another API than Responses is `cody_reasoning`, which Codex keeps out of its requests.
 */
export function serializeResponseItem(item: ResponseItem): Json {
  if (item.type === 'opaque') return item.raw;
  if (item.type === 'reasoning' && isForeignToCodex(item)) return { ...item, type: CODY_REASONING_TYPE };
  return { ...item };
}
