/**
 * Anthropic Messages as the real API speaks it: named SSE events (message_start, content_block_*,
 * ping, message_delta, message_stop), thinking blocks ending in a signature_delta, tool input as
 * input_json_delta pieces; error bodies `{type: 'error', error: {type, message}}`; 529 overloaded.
 */
import type { ErrorStep, ProtocolModule, ProtocolRequest, RenderedResponse, ReplyStep } from './types.js';
import { eventStreamHeaders, pieces, textOfContent } from './wire-helpers.js';

type Json = Record<string, unknown>;

const ERROR_TYPES: Record<number, [string, string]> = {
  400: ['invalid_request_error', 'Invalid request.'],
  401: ['authentication_error', 'invalid x-api-key'],
  403: ['permission_error', 'Your API key does not have permission to use the specified resource.'],
  404: ['not_found_error', 'model: claude-fake'],
  413: ['request_too_large', 'Request exceeds the maximum allowed number of bytes.'],
  429: [
    'rate_limit_error',
    'This request would exceed your organization’s rate limit of 50,000 input tokens per minute.',
  ],
  500: ['api_error', 'Internal server error'],
  529: ['overloaded_error', 'Overloaded'],
};

function errorBodyFor(status: number, message?: string): Json {
  const [type, text] = ERROR_TYPES[status] ?? ['api_error', `HTTP ${status}`];
  return { type: 'error', error: { type, message: message ?? text }, request_id: 'req_fake' };
}

function invalid(message: string): ErrorStep {
  return { type: 'error', status: 400, body: errorBodyFor(400, message) };
}

function messagesOf(request: ProtocolRequest): Json[] {
  return Array.isArray(request.body.messages) ? (request.body.messages as Json[]) : [];
}

function blocksOf(message: Json | undefined): Json[] {
  if (!message) return [];
  return typeof message.content === 'string'
    ? [{ type: 'text', text: message.content }]
    : Array.isArray(message.content)
      ? (message.content as Json[])
      : [];
}

export const anthropicMessagesProtocol: ProtocolModule = {
  api: 'anthropic-messages',
  matches: (method, url) => method === 'POST' && url.pathname.endsWith('/v1/messages'),
  model: (request) => (typeof request.body.model === 'string' ? request.body.model : undefined),
  isStream: (request) => request.body.stream === true,

  validate(request) {
    if (typeof request.body.max_tokens !== 'number') return invalid('max_tokens: Field required');
    const messages = messagesOf(request);
    if (messages.length === 0) return invalid('messages: at least one message is required');
    if (messages[0]?.role !== 'user') return invalid('messages: first message must use the "user" role');
    for (const [index, message] of messages.entries()) {
      if (message.role !== 'user' && message.role !== 'assistant') {
        return invalid(`messages.${index}.role: Input should be 'user' or 'assistant'`);
      }
      if (index > 0 && messages[index - 1]?.role === message.role) {
        return invalid(
          'messages: roles must alternate between "user" and "assistant", but found multiple "' +
            String(message.role) +
            '" roles in a row',
        );
      }
      const blocks = blocksOf(message);
      if (blocks.length === 0)
        return invalid(
          `messages.${index}: all messages must have non-empty content except for the optional final assistant message`,
        );
      for (const block of blocks) {
        if (block.type === 'thinking' && typeof block.signature !== 'string') {
          return invalid(`messages.${index}.content.0.thinking.signature: Field required`);
        }
        if (block.type === 'tool_result') {
          const previous = blocksOf(messages[index - 1]);
          const used = previous
            .filter((candidate) => candidate.type === 'tool_use')
            .map((candidate) => candidate.id);
          if (!used.includes(block.tool_use_id)) {
            return invalid(
              `messages.${index}.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
            );
          }
        }
      }
      const uses = blocks.filter((block) => block.type === 'tool_use').map((block) => String(block.id));
      if (uses.length > 0) {
        const results = new Set(
          blocksOf(messages[index + 1])
            .filter((block) => block.type === 'tool_result')
            .map((block) => String(block.tool_use_id)),
        );
        const missing = uses.filter((id) => !results.has(id));
        if (missing.length > 0 && index + 1 < messages.length) {
          return invalid(
            `messages.${index + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
          );
        }
      }
    }
    return undefined;
  },

  lastUserText(request) {
    const last = messagesOf(request)
      .filter((message) => message.role === 'user')
      .at(-1);
    if (!last) return '';
    return blocksOf(last)
      .filter((block) => block.type === 'text')
      .map((block) => textOfContent([block]))
      .join('');
  },

  renderReply(step: ReplyStep, request: ProtocolRequest): RenderedResponse {
    const model = typeof request.body.model === 'string' ? request.body.model : 'claude-sonnet-4-6';
    const usage = step.usage ?? { inputTokens: 10, outputTokens: 5 };
    const frames: string[] = [];
    // Real bodies pad some data lines with spaces before the closing brace.
    const emit = (payload: Json, pad = ''): void => {
      const json = JSON.stringify(payload);
      frames.push(`event: ${String(payload.type)}\ndata: ${pad ? `${json.slice(0, -1)}${pad}}` : json}\n\n`);
    };
    emit({
      type: 'message_start',
      message: {
        model,
        id: `msg_fake${Date.now().toString(36)}`,
        type: 'message',
        role: 'assistant',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.inputTokens,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 1,
          service_tier: 'standard',
        },
      },
    });
    let index = 0;
    if (step.reasoning) {
      emit({
        type: 'content_block_start',
        index,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      });
      for (const piece of pieces(step.reasoning))
        emit({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } });
      emit({
        type: 'content_block_delta',
        index,
        delta: {
          type: 'signature_delta',
          signature: Buffer.from(`sig:${step.reasoning}`).toString('base64'),
        },
      });
      emit({ type: 'content_block_stop', index });
      index += 1;
    }
    if (step.text) {
      emit({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      emit({ type: 'ping' }, '   ');
      for (const piece of pieces(step.text))
        emit({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
      emit({ type: 'content_block_stop', index });
      index += 1;
    }
    for (const [callIndex, call] of (step.toolCalls ?? []).entries()) {
      emit({
        type: 'content_block_start',
        index,
        content_block: {
          type: 'tool_use',
          id: call.id ?? `toolu_fake${callIndex}`,
          name: call.name,
          input: {},
        },
      });
      const args = JSON.stringify(call.arguments);
      for (const piece of args === '{}' ? [''] : pieces(args)) {
        emit({
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: piece },
        });
      }
      emit({ type: 'content_block_stop', index });
      index += 1;
    }
    const stopReason = (step.toolCalls ?? []).length > 0 ? 'tool_use' : 'end_turn';
    emit({
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: usage.outputTokens },
    });
    emit({ type: 'message_stop' }, '        ');
    return {
      status: 200,
      headers: eventStreamHeaders(),
      chunks: frames,
      ...(step.disconnectAfterFrames !== undefined ? { disconnectAfter: step.disconnectAfterFrames } : {}),
    };
  },

  renderError(step: ErrorStep): RenderedResponse {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'request-id': 'req_fake',
      ...(step.headers ?? {}),
    };
    if (step.status === 429 && !step.headers) headers['retry-after'] = '0';
    if (step.bodyText !== undefined) return { status: step.status, headers, chunks: [step.bodyText] };
    const body =
      step.body ??
      (step.contextOverflow
        ? errorBodyFor(400, 'prompt is too long: 210443 tokens > 200000 maximum')
        : errorBodyFor(step.status));
    return { status: step.status, headers, chunks: [JSON.stringify(body)] };
  },
};
