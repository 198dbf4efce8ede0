/**
 * Anthropic Messages as the real API speaks it (see provider-recordings/anthropic-messages): named SSE
 * events `event: <type>\ndata: <json>\n\n` — message_start with usage, content_block_start, a `ping`,
 * deltas in several pieces, content_block_stop, message_delta with stop_reason and usage, message_stop —
 * with the trailing-space padding real data lines carry; thinking blocks end in an empty thinking_delta
 * and a signature_delta; tool input arrives as input_json_delta pieces (one empty piece for no
 * arguments). A Message JSON when not streaming. Error bodies `{type: 'error', error: {type, message},
 * request_id}`; 529 overloaded; 400 "prompt is too long" for a context overflow.
 */
import { anthropicThinkingProblem } from './reasoning-rules.js';
import type { ErrorStep, ProtocolModule, ProtocolRequest, RenderedResponse, ReplyStep } from './types.js';
import { eventStreamHeaders, pieces, textOfContent, textPieces } from './wire-helpers.js';

type Json = Record<string, unknown>;

/** The error `type` and a real message for each status Anthropic documents. */
const ERRORS: Record<number, [type: string, message: string]> = {
  400: ['invalid_request_error', 'Invalid request.'],
  401: ['authentication_error', 'invalid x-api-key'],
  403: ['permission_error', 'Your API key does not have permission to use the specified resource.'],
  404: ['not_found_error', 'model: claude-fake'],
  413: ['request_too_large', 'Request exceeds the maximum allowed number of bytes.'],
  429: [
    'rate_limit_error',
    'This request would exceed the rate limit for your organization (---) of 20,000 input tokens per minute. For details, refer to: https://docs.anthropic.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase.',
  ],
  500: ['api_error', 'Internal server error'],
  529: ['overloaded_error', 'Overloaded'],
};

/** The 400 a real user got for an over-long prompt (provider-recordings/anthropic-messages/errors-from-issues.json). */
const PROMPT_TOO_LONG_BODY_TEXT =
  '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 219898 tokens > 200000 maximum"},"request_id":"req_011CVjxiYzEFcAQC4Fk87zw2"}';

const TOOL_ID = /^[a-zA-Z0-9_-]+$/;

let counter = 0;

function nextId(prefix: string): string {
  counter += 1;
  return `${prefix}_01Fake${counter.toString(36).padStart(6, '0')}`;
}

function errorBody(status: number, message?: string): Json {
  const [type, text] = ERRORS[status] ?? ['api_error', `HTTP ${status}`];
  return { type: 'error', error: { type, message: message ?? text }, request_id: nextId('req') };
}

function invalid(message: string): ErrorStep {
  return { type: 'error', status: 400, body: errorBody(400, message) };
}

function messagesOf(request: ProtocolRequest): Json[] {
  return Array.isArray(request.body.messages) ? (request.body.messages as Json[]) : [];
}

function blocksOf(message: Json | undefined): Json[] {
  if (!message) return [];
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }];
  return Array.isArray(message.content) ? (message.content as Json[]) : [];
}

/** What the real API rejects before generating anything, with its error message; undefined when valid. */
function problemWith(request: ProtocolRequest): string | undefined {
  if (typeof request.body.model !== 'string') return 'model: Field required';
  if (typeof request.body.max_tokens !== 'number') return 'max_tokens: Field required';
  const messages = messagesOf(request);
  if (messages.length === 0) return 'messages: at least one message is required';
  if (messages[0]?.role !== 'user') return 'messages: first message must use the "user" role';
  const tools = Array.isArray(request.body.tools) ? request.body.tools : [];
  const hasToolBlocks = messages.some((message) =>
    blocksOf(message).some((block) => block.type === 'tool_use' || block.type === 'tool_result'),
  );
  // The rule other clients' compaction requests ran into: tool blocks without tool definitions.
  if (hasToolBlocks && tools.length === 0)
    return 'Requests which include `tool_use` or `tool_result` blocks must define tools.';
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'user' && message.role !== 'assistant')
      return `messages.${index}.role: Input should be 'user' or 'assistant'`;
    // Stricter than today's API, which merges same-role neighbours: Cody's converter must alternate.
    if (index > 0 && messages[index - 1]?.role === message.role)
      return `messages: roles must alternate between "user" and "assistant", but found multiple "${String(message.role)}" roles in a row`;
    const blocks = blocksOf(message);
    if (blocks.length === 0 && index < messages.length - 1)
      return `messages.${index}: all messages must have non-empty content except for the optional final assistant message`;
    const problem = blockProblem(messages, index);
    if (problem) return problem;
  }
  return anthropicThinkingProblem(request);
}

function blockProblem(messages: Json[], index: number): string | undefined {
  const blocks = blocksOf(messages[index]);
  for (const [position, block] of blocks.entries()) {
    const where = `messages.${index}.content.${position}`;
    if (block.type === 'text' && block.text === '') return 'messages: text content blocks must be non-empty';
    if (block.type === 'thinking' && typeof block.signature !== 'string')
      return `${where}.thinking.signature: Field required`;
    if (block.type === 'tool_use' && !TOOL_ID.test(String(block.id)))
      return `${where}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`;
    if (block.type === 'tool_result') {
      const previous = messages[index - 1];
      const used = blocksOf(previous)
        .filter((candidate) => candidate.type === 'tool_use')
        .map((candidate) => candidate.id);
      if (previous?.role !== 'assistant' || !used.includes(block.tool_use_id))
        return `${where}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
  }
  const uses = blocks.filter((block) => block.type === 'tool_use').map((block) => String(block.id));
  if (uses.length === 0 || index === messages.length - 1) return undefined;
  const answered = new Set(
    blocksOf(messages[index + 1])
      .filter((block) => block.type === 'tool_result')
      .map((block) => String(block.tool_use_id)),
  );
  const missing = uses.filter((id) => !answered.has(id));
  return missing.length > 0
    ? `messages.${index + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`
    : undefined;
}

/** Real data lines carry 0–15 spaces before their closing brace; the count varies frame to frame. */
function padded(json: string, seed: number): string {
  const spaces = (seed * 7) % 16;
  return spaces === 0 ? json : `${json.slice(0, -1)}${' '.repeat(spaces)}}`;
}

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Text blocks whose deltas the test scripted. */
const scriptedDeltas = new WeakMap<Json, string[]>();

/** The reply's content blocks, in the order Claude sends them: thinking, text, tool uses. */
function contentOf(step: ReplyStep): Json[] {
  const blocks: Json[] = [];
  if (step.reasoning)
    blocks.push({ type: 'thinking', thinking: step.reasoning, signature: signatureFor(step.reasoning) });
  if (step.text) {
    const block = { type: 'text', text: step.text };
    if (step.textDeltas) scriptedDeltas.set(block, step.textDeltas);
    blocks.push(block);
  }
  for (const call of step.toolCalls ?? [])
    blocks.push({ type: 'tool_use', id: call.id ?? nextId('toolu'), name: call.name, input: call.arguments });
  return blocks;
}

/** A stand-in for the opaque base64 signature Claude puts on its thinking. */
function signatureFor(thinking: string): string {
  return Buffer.from(`fake-signature:${thinking.length}:${thinking.slice(0, 32)}`).toString('base64');
}

function deltasOf(block: Json): Json[] {
  switch (block.type) {
    case 'thinking':
      return [
        ...pieces(String(block.thinking)).map((thinking) => ({ type: 'thinking_delta', thinking })),
        { type: 'thinking_delta', thinking: '' },
        { type: 'signature_delta', signature: block.signature },
      ];
    case 'text':
      return textPieces({ text: String(block.text), textDeltas: scriptedDeltas.get(block) }).map((text) => ({
        type: 'text_delta',
        text,
      }));
    case 'tool_use': {
      const json = JSON.stringify(block.input);
      // The first piece is empty; a no-argument tool sends nothing else.
      return ['', ...(json === '{}' ? [] : pieces(json))].map((partial_json) => ({
        type: 'input_json_delta',
        partial_json,
      }));
    }
    default:
      return [];
  }
}

function startOf(block: Json): Json {
  switch (block.type) {
    case 'thinking':
      return { type: 'thinking', thinking: '', signature: '' };
    case 'text':
      return { type: 'text', text: '' };
    default:
      return { ...block, input: {}, caller: { type: 'direct' } };
  }
}

export const anthropicMessagesProtocol: ProtocolModule = {
  api: 'anthropic-messages',
  matches: (method, url) => method === 'POST' && url.pathname.endsWith('/v1/messages'),
  model: (request) => (typeof request.body.model === 'string' ? request.body.model : undefined),
  isStream: (request) => request.body.stream === true,

  validate(request) {
    const problem = problemWith(request);
    return problem === undefined ? undefined : invalid(problem);
  },

  lastUserText(request) {
    const last = messagesOf(request)
      .filter(
        (message) => message.role === 'user' && blocksOf(message).some((block) => block.type === 'text'),
      )
      .at(-1);
    return textOfContent(blocksOf(last).filter((block) => block.type === 'text'));
  },

  renderReply(step: ReplyStep, request: ProtocolRequest): RenderedResponse {
    const model = typeof request.body.model === 'string' ? request.body.model : 'claude-sonnet-4-6';
    const content = contentOf(step);
    const usage = step.usage ?? {
      inputTokens: estimateTokens(JSON.stringify(request.body)),
      outputTokens: estimateTokens(JSON.stringify(content)),
    };
    const stopReason = (step.toolCalls ?? []).length > 0 ? 'tool_use' : 'end_turn';
    const id = nextId('msg');
    const cacheFields = { cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    if (request.body.stream !== true) {
      const message = {
        model,
        id,
        type: 'message',
        role: 'assistant',
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage: { input_tokens: usage.inputTokens, ...cacheFields, output_tokens: usage.outputTokens },
      };
      return {
        status: 200,
        headers: { 'content-type': 'application/json' },
        chunks: [JSON.stringify(message)],
      };
    }
    const frames: string[] = [];
    const emit = (payload: Json): void => {
      frames.push(
        `event: ${String(payload.type)}\ndata: ${padded(JSON.stringify(payload), frames.length)}\n\n`,
      );
    };
    emit({
      type: 'message_start',
      message: {
        model,
        id,
        type: 'message',
        role: 'assistant',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        stop_details: null,
        usage: {
          input_tokens: usage.inputTokens,
          ...cacheFields,
          cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
          output_tokens: 1,
          service_tier: 'standard',
          inference_geo: 'not_available',
        },
      },
    });
    for (const [index, block] of content.entries()) {
      emit({ type: 'content_block_start', index, content_block: startOf(block) });
      // The real API's ping, unpadded and with a space after the colon.
      if (index === 0) frames.push('event: ping\ndata: {"type": "ping"}\n\n');
      for (const delta of deltasOf(block)) emit({ type: 'content_block_delta', index, delta });
      emit({ type: 'content_block_stop', index });
    }
    emit({
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null, stop_details: null },
      usage: { input_tokens: usage.inputTokens, ...cacheFields, output_tokens: usage.outputTokens },
    });
    emit({ type: 'message_stop' });
    return {
      status: 200,
      headers: { ...eventStreamHeaders(), 'request-id': nextId('req') },
      chunks: frames,
      ...(step.disconnectAfterFrames !== undefined ? { disconnectAfter: step.disconnectAfterFrames } : {}),
    };
  },

  renderError(step: ErrorStep): RenderedResponse {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'request-id': nextId('req'),
      'x-should-retry': String(step.status === 429 || step.status >= 500),
      ...(step.headers ?? {}),
    };
    // Real 429s carry `retry-after` in seconds; 0 by default so scripted retries stay fast.
    if (step.status === 429 && !step.headers) headers['retry-after'] = '0';
    if (step.bodyText !== undefined) return { status: step.status, headers, chunks: [step.bodyText] };
    if (step.body === undefined && step.contextOverflow)
      return { status: step.status, headers, chunks: [PROMPT_TOO_LONG_BODY_TEXT] };
    return { status: step.status, headers, chunks: [JSON.stringify(step.body ?? errorBody(step.status))] };
  },
};
