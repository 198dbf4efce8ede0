/**
 * Bedrock Runtime's ConverseStream as AWS documents it: `POST /model/{modelId}/converse-stream`, signed
 * with SigV4 (`authorization: AWS4-HMAC-SHA256 Credential=…/{region}/bedrock/aws4_request, SignedHeaders=…,
 * Signature=…` and `x-amz-date`) or carrying a Bedrock API key as a bearer token (refused 403 otherwise), answered `application/vnd.amazon.eventstream`:
 * binary event-stream messages (built with @smithy/eventstream-codec) with `:event-type`,
 * `:message-type: event` and `:content-type: application/json` headers — messageStart, then per content
 * block its contentBlockStart (tool use only, as the real service does), contentBlockDelta pieces and
 * contentBlockStop, then messageStop with its stopReason and metadata with usage. Payloads carry the `p`
 * padding field the real service adds. Errors: the status with `x-amzn-errortype` and `{"message"}`;
 * `exceptionFrame` builds an exception message (`:message-type: exception`) for a failure mid-stream.
 */
import { EventStreamCodec } from '@smithy/eventstream-codec';
import type { ErrorStep, ProtocolModule, ProtocolRequest, RenderedResponse, ReplyStep } from './types.js';
import { claudeThinkingTypeProblem } from './reasoning-rules.js';
import { pieces, textPieces } from './wire-helpers.js';

type Json = Record<string, unknown>;

const ROUTE = /^\/model\/([^/]+)\/converse-stream$/;

/** SigV4 as the SDK signs a Bedrock request. */
export const SIGV4_AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=[A-Z0-9]+\/\d{8}\/[a-z0-9-]+\/bedrock\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$/;

/** The AWS error name and a real message for each status Bedrock answers with. */
const ERRORS: Record<number, [name: string, message: string]> = {
  400: ['ValidationException', 'The provided request is not valid'],
  401: ['UnrecognizedClientException', 'The security token included in the request is invalid.'],
  403: ['AccessDeniedException', "You don't have access to the model with the specified model ID."],
  404: ['ResourceNotFoundException', 'Model not found.'],
  408: ['ModelTimeoutException', 'Model has timed out in processing the request.'],
  424: ['ModelErrorException', 'The model returned an error.'],
  429: ['ThrottlingException', 'Too many requests, please wait before trying again.'],
  500: ['InternalServerException', 'The server encountered an internal error.'],
  503: ['ServiceUnavailableException', 'Bedrock is unable to process your request.'],
};

const codec = new EventStreamCodec(
  (bytes) => Buffer.from(bytes).toString('utf8'),
  (text) => new Uint8Array(Buffer.from(text, 'utf8')),
);

let counter = 0;

function nextId(prefix: string): string {
  counter += 1;
  return `${prefix}_fake${counter.toString(36).padStart(8, '0')}`;
}

/** One event-stream message. */
function frame(headers: Record<string, string>, payload: Json): Uint8Array {
  return codec.encode({
    headers: Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name, { type: 'string' as const, value }]),
    ),
    body: new Uint8Array(Buffer.from(JSON.stringify(payload), 'utf8')),
  });
}

/** An event message; `p` pads payloads as the real service does (so sizes do not leak token lengths). */
export function eventFrame(eventType: string, payload: Json): Uint8Array {
  const padding = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ'.slice(0, (counter++ % 20) + 3);
  return frame(
    { ':event-type': eventType, ':content-type': 'application/json', ':message-type': 'event' },
    { ...payload, p: padding },
  );
}

/** An exception message mid-stream, e.g. `throttlingException` or `modelStreamErrorException`. */
export function exceptionFrame(exceptionType: string, message: string): Uint8Array {
  return frame(
    { ':exception-type': exceptionType, ':content-type': 'application/json', ':message-type': 'exception' },
    { message },
  );
}

export function streamHeaders(): Record<string, string> {
  return { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': nextId('req') };
}

function messagesOf(request: ProtocolRequest): Json[] {
  return Array.isArray(request.body.messages) ? (request.body.messages as Json[]) : [];
}

function blocksOf(message: Json | undefined): Json[] {
  return Array.isArray(message?.content) ? (message.content as Json[]) : [];
}

function signatureProblem(request: ProtocolRequest): string | undefined {
  const authorization = request.headers.authorization;
  // A Bedrock API key is a bearer token instead of a signature.
  if (typeof authorization === 'string' && /^Bearer \S+$/.test(authorization)) return undefined;
  if (typeof authorization !== 'string' || !SIGV4_AUTHORIZATION.test(authorization))
    return 'Authorization header requires a valid AWS4-HMAC-SHA256 signature.';
  if (typeof request.headers['x-amz-date'] !== 'string') return 'Authorization header requires x-amz-date.';
  return undefined;
}

/** What Bedrock rejects before generating anything (ValidationException); undefined when valid. */
function problemWith(request: ProtocolRequest): string | undefined {
  const messages = messagesOf(request);
  if (messages.length === 0) return 'A conversation must start with a user message.';
  if (messages[0]?.role !== 'user')
    return 'A conversation must start with a user message. Try again with a conversation that starts with a user message.';
  const hasTools = typeof request.body.toolConfig === 'object' && request.body.toolConfig !== null;
  for (const [index, message] of messages.entries()) {
    if (index > 0 && messages[index - 1]?.role === message.role)
      return 'A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.';
    const blocks = blocksOf(message);
    if (blocks.length === 0) return `The content field in the Message object at messages.${index} is empty.`;
    for (const block of blocks) {
      if (block.text === '')
        return `The text field in the ContentBlock object at messages.${index} is blank.`;
      if ((block.toolUse || block.toolResult) && !hasTools)
        return 'The toolConfig field must be defined when using toolUse and toolResult content blocks.';
      const image = block.image as Json | undefined;
      if (
        image &&
        (typeof (image.source as Json | undefined)?.bytes !== 'string' || typeof image.format !== 'string')
      )
        return `The image at messages.${index} needs a format and base64 bytes.`;
      const reasoning = (block.reasoningContent as Json | undefined)?.reasoningText as Json | undefined;
      if (reasoning && typeof reasoning.signature !== 'string')
        return `messages.${index}: reasoning text requires its signature.`;
    }
    const problem = toolResultProblem(messages, index);
    if (problem) return problem;
  }
  return undefined;
}

/** Claude's thinking fields, which Converse passes through to the model (Anthropic's rules and wording). */
function claudeFieldsProblem(request: ProtocolRequest): string | undefined {
  const model = bedrockConverseProtocol.model(request) ?? '';
  if (!model.includes('anthropic.claude')) return undefined;
  const fields = request.body.additionalModelRequestFields as Json | undefined;
  return claudeThinkingTypeProblem(
    model,
    fields?.thinking as Json | undefined,
    fields?.output_config as Json | undefined,
  );
}

function toolResultProblem(messages: Json[], index: number): string | undefined {
  const results = blocksOf(messages[index]).filter((block) => block.toolResult);
  if (results.length === 0) return undefined;
  const used = new Set(
    blocksOf(messages[index - 1]).map((block) => (block.toolUse as Json | undefined)?.toolUseId),
  );
  const orphan = results.find((block) => !used.has((block.toolResult as Json).toolUseId));
  return orphan
    ? 'The number of toolResult blocks at messages.' +
        `${index}.content exceeds the number of toolUse blocks of previous turn.`
    : undefined;
}

/** A stand-in for the opaque signature Claude puts on its reasoning. */
export function fakeReasoningSignature(text: string): string {
  return Buffer.from(`fake-bedrock-signature:${text.length}:${text.slice(0, 24)}`).toString('base64');
}

/** The reply's frames: reasoning, text, then tool uses, each its own content block. */
function replyFrames(step: ReplyStep, usage: { inputTokens: number; outputTokens: number }): Uint8Array[] {
  const frames = [eventFrame('messageStart', { role: 'assistant' })];
  let index = 0;
  const delta = (delta: Json): void => {
    frames.push(eventFrame('contentBlockDelta', { contentBlockIndex: index, delta }));
  };
  const stop = (): void => {
    frames.push(eventFrame('contentBlockStop', { contentBlockIndex: index }));
    index += 1;
  };
  if (step.reasoning) {
    for (const text of pieces(step.reasoning)) delta({ reasoningContent: { text } });
    delta({ reasoningContent: { signature: fakeReasoningSignature(step.reasoning) } });
    stop();
  }
  if (step.text) {
    for (const text of textPieces(step)) delta({ text });
    stop();
  }
  for (const call of step.toolCalls ?? []) {
    const toolUse = { toolUseId: call.id ?? nextId('tooluse'), name: call.name };
    frames.push(eventFrame('contentBlockStart', { contentBlockIndex: index, start: { toolUse } }));
    for (const input of pieces(JSON.stringify(call.arguments))) delta({ toolUse: { input } });
    stop();
  }
  const stopReason = (step.toolCalls ?? []).length > 0 ? 'tool_use' : 'end_turn';
  frames.push(eventFrame('messageStop', { stopReason }));
  frames.push(
    eventFrame('metadata', {
      usage: { ...usage, totalTokens: usage.inputTokens + usage.outputTokens },
      metrics: { latencyMs: 42 },
    }),
  );
  return frames;
}

export const bedrockConverseProtocol: ProtocolModule = {
  api: 'bedrock-converse',
  matches: (method, url) => method === 'POST' && ROUTE.test(url.pathname),
  model: (request) => {
    const encoded = ROUTE.exec(request.url.pathname)?.[1];
    return encoded === undefined ? undefined : decodeURIComponent(encoded);
  },
  isStream: () => true,

  validate(request) {
    const unsigned = signatureProblem(request);
    if (unsigned)
      return {
        type: 'error',
        status: 403,
        body: { message: unsigned },
        headers: errorType('IncompleteSignatureException'),
      };
    const problem = problemWith(request) ?? claudeFieldsProblem(request);
    return problem === undefined ? undefined : { type: 'error', status: 400, body: { message: problem } };
  },

  lastUserText(request) {
    const last = messagesOf(request)
      .filter(
        (message) =>
          message.role === 'user' && blocksOf(message).some((block) => typeof block.text === 'string'),
      )
      .at(-1);
    return blocksOf(last)
      .map((block) => (typeof block.text === 'string' ? block.text : ''))
      .join('');
  },

  renderReply(step: ReplyStep, request: ProtocolRequest): RenderedResponse {
    const usage = step.usage ?? {
      inputTokens: Math.max(1, Math.ceil(JSON.stringify(request.body).length / 4)),
      outputTokens: Math.max(1, Math.ceil(((step.text ?? '') + (step.reasoning ?? '')).length / 4)),
    };
    return {
      status: 200,
      headers: streamHeaders(),
      chunks: [],
      binary: replyFrames(step, usage),
      ...(step.disconnectAfterFrames !== undefined ? { disconnectAfter: step.disconnectAfterFrames } : {}),
    };
  },

  renderError(step: ErrorStep): RenderedResponse {
    const [name, message] = ERRORS[step.status] ?? ['InternalServerException', `HTTP ${step.status}`];
    const headers = {
      'content-type': 'application/json',
      'x-amzn-requestid': nextId('req'),
      ...errorType(name),
      ...(step.headers ?? {}),
    };
    const body =
      step.bodyText ??
      JSON.stringify(
        step.body ?? { message: step.contextOverflow ? 'Input is too long for requested model.' : message },
      );
    return { status: step.status, headers, chunks: [body] };
  },
};

/** The header naming an AWS error, in the shape the service sends it. */
export function errorType(name: string): Record<string, string> {
  return { 'x-amzn-errortype': `${name}:http://internal.amazon.com/coral/com.amazon.bedrock/` };
}
