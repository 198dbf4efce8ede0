/** What the API accepts, validated at the boundary: unknown fields are refused so typos do not pass silently. */
import { z } from 'zod';
import { isProvider, providerList } from '../core/index.js';
import { MODEL_ID } from '../core/index.js';
import { isRecord } from '../protocol/json.js';
import { REASONING_LEVELS } from '../protocol/client-options.js';
import { ApiError } from './api-error.js';
import { APPROVAL_POLICIES, type ApprovalPolicy } from '../core/index.js';
import { APPROVAL_DECISIONS, type ApprovalDecision } from './engine-port.js';

const selectionFields = {
  provider: z.string().refine(isProvider, (value) => ({
    message: `Invalid enum value. Expected ${providerList()
      .map((name) => `'${name}'`)
      .join(' | ')}, received '${value}'`,
  })),
  api: z.string().min(1).max(100).optional(),
  model: z
    .string()
    .regex(
      MODEL_ID,
      'not a model id (letters, digits and . _ : / @ + - only, no spaces or control characters)',
    )
    .optional(),
};

export const createConversationBody = z
  .object({
    provider: selectionFields.provider.optional(),
    api: selectionFields.api,
    model: selectionFields.model,
  })
  .strict();

export const selectionBody = z.object(selectionFields).strict();

export const messageBody = z
  .object({
    text: z.string().refine((text) => text.trim() !== '', 'must not be empty'),
    /** Images sent with the text: each its bytes in base64 and the name it is shown under. */
    images: z
      .array(
        z
          .object({
            data: z
              .string()
              .min(1)
              .regex(/^[A-Za-z0-9+/=\s]+$/, 'must be base64'),
            name: z.string().min(1).max(200).optional(),
          })
          .strict(),
      )
      .max(20)
      .optional(),
  })
  .strict();

export const compactBody = z.object({ focus: z.string().max(10_000).optional() }).strict();

/** `atEntry`: a transcript cursor (1-based position, as GET …/messages gives it); at most one of the two. */
export const forkBody = z
  .object({
    atUserTurn: z.number().int().min(1).optional(),
    atEntry: z
      .string()
      .regex(/^[1-9][0-9]{0,9}$/, 'a transcript cursor: the `cursor` of a GET …/messages entry')
      .optional(),
  })
  .strict()
  .refine((fork) => fork.atUserTurn === undefined || fork.atEntry === undefined, {
    message: 'give atUserTurn or atEntry, not both',
  });

export const approvalBody = z
  .object({
    decision: z.enum(APPROVAL_DECISIONS as [ApprovalDecision, ...ApprovalDecision[]]),
    /** With 'deny': what the model is told, with the denial, about why. */
    reason: z.string().max(10_000).optional(),
  })
  .strict();

export const messagesQuery = z
  .object({
    after: z.string().min(1).max(200).optional(),
    limit: z.coerce.number().int().min(1).max(1000).optional(),
  })
  .strict();

/**
 * A message body (`{"text": "…"}`, nothing else): checked by hand when it is well formed — the one body
 * every turn sends, where zod cost ~40 µs of the server's thread per turn — and by `messageBody`, for its
 * exact error, when it is not.
 */
export function parseMessage(value: unknown): z.infer<typeof messageBody> {
  if (isRecord(value)) {
    const { text } = value;
    if (typeof text === 'string' && text.trim() !== '' && Object.keys(value).length === 1) return { text };
  }
  return parseInput(messageBody, value, 'message');
}

/** Parses `value` or throws a 400 `invalid-request` naming the first bad field. */
export function parseInput<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? ` field '${issue.path.join('.')}'` : '';
  const reason =
    issue?.code === 'unrecognized_keys'
      ? `unknown field(s) ${issue.keys.map((key) => `'${key}'`).join(', ')}`
      : issue?.message;
  throw new ApiError(400, 'invalid-request', `Invalid ${what}${field}: ${reason ?? 'not accepted'}.`);
}

export const approvalPolicyBody = z
  .object({ policy: z.enum(APPROVAL_POLICIES as unknown as [ApprovalPolicy, ...ApprovalPolicy[]]) })
  .strict();

export const reasoningBody = z.object({ level: z.enum(REASONING_LEVELS) }).strict();

/** A conversation's title (`cody rename`): '' goes back to the generated one. */
export const titleBody = z.object({ title: z.string().max(200) }).strict();
