/**
 * OpenAI Chat Completions as the real API speaks it: `data:` chunks (first with the role, content in
 * pieces, tool calls with index/id/name then argument pieces, a finish chunk, a usage chunk with empty
 * choices) and `data: [DONE]`; error bodies `{error: {message, type, param, code}}`.
 */
import type { ErrorStep, ProtocolModule, ProtocolRequest, RenderedResponse, ReplyStep } from './types.js';
import { errorBody, eventStreamHeaders, pieces, textOfContent } from './wire-helpers.js';

type Json = Record<string, unknown>;

const CONTEXT_OVERFLOW_BODY = {
  error: {
    message:
      "This model's maximum context length is 4097 tokens. However, your messages resulted in 5000 tokens. Please reduce the length of the messages.",
    type: 'invalid_request_error',
    param: 'messages',
    code: 'context_length_exceeded',
  },
};

function messagesOf(request: ProtocolRequest): Json[] {
  return Array.isArray(request.body.messages) ? (request.body.messages as Json[]) : [];
}

export const openaiChatProtocol: ProtocolModule = {
  api: 'openai-chat',
  matches: (method, url) => method === 'POST' && url.pathname.endsWith('/chat/completions'),
  model: (request) => (typeof request.body.model === 'string' ? request.body.model : undefined),
  isStream: (request) => request.body.stream === true,

  validate(request) {
    if (typeof request.body.model !== 'string') return invalid('you must provide a model parameter', 'model');
    const messages = messagesOf(request);
    if (messages.length === 0) return invalid("[] is too short - 'messages'", 'messages');
    const answered = new Set<string>();
    for (const [index, message] of messages.entries()) {
      const role = message.role;
      if (!['system', 'developer', 'user', 'assistant', 'tool'].includes(String(role))) {
        return invalid(
          `Invalid value: '${String(role)}'. Supported values are: 'system', 'assistant', 'user', 'tool', 'function' and 'developer'.`,
          `messages[${index}].role`,
        );
      }
      if (role === 'tool') {
        const id = String(message.tool_call_id);
        const previous = messages
          .slice(0, index)
          .reverse()
          .find((candidate) => candidate.role === 'assistant');
        const declared = Array.isArray(previous?.tool_calls)
          ? (previous.tool_calls as Json[]).map((call) => call.id)
          : [];
        if (!declared.includes(id)) {
          return invalid(
            `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.`,
            `messages.[${index}].role`,
          );
        }
        answered.add(id);
      }
    }
    for (const [index, message] of messages.entries()) {
      if (message.role !== 'assistant' || !Array.isArray(message.tool_calls)) continue;
      const following = messages.slice(index + 1);
      const responded = new Set(
        following
          .slice(0, following.findIndex((candidate) => candidate.role !== 'tool') >>> 0)
          .map((candidate) => candidate.tool_call_id),
      );
      const missing = (message.tool_calls as Json[])
        .map((call) => String(call.id))
        .filter((id) => !responded.has(id));
      if (missing.length > 0) {
        return invalid(
          `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(', ')}`,
          'messages',
        );
      }
    }
    return undefined;
  },

  lastUserText(request) {
    const last = messagesOf(request)
      .filter((message) => message.role === 'user')
      .at(-1);
    return last ? textOfContent(last.content) : '';
  },

  renderReply(step: ReplyStep, request: ProtocolRequest): RenderedResponse {
    const model = typeof request.body.model === 'string' ? request.body.model : 'gpt-4.1-mini';
    const id = `chatcmpl-fake${Date.now().toString(36)}`;
    const created = Math.floor(Date.now() / 1000);
    const chunk = (choices: unknown[], extra: Json = {}): string =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, service_tier: 'default', system_fingerprint: 'fp_fake', choices, ...extra })}\n\n`;
    const toolCalls = step.toolCalls ?? [];
    const usage = step.usage ?? { inputTokens: 10, outputTokens: 5 };
    const usageBody = {
      prompt_tokens: usage.inputTokens,
      completion_tokens: usage.outputTokens,
      total_tokens: usage.inputTokens + usage.outputTokens,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    };
    if (request.body.stream !== true) {
      const message: Json = { role: 'assistant', content: step.text ?? null, refusal: null, annotations: [] };
      if (toolCalls.length > 0) {
        message.tool_calls = toolCalls.map((call, index) => ({
          id: call.id ?? `call_fake${index}`,
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(call.arguments) },
        }));
      }
      return {
        status: 200,
        headers: { 'content-type': 'application/json' },
        chunks: [
          JSON.stringify({
            id,
            object: 'chat.completion',
            created,
            model,
            choices: [
              {
                index: 0,
                message,
                logprobs: null,
                finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
              },
            ],
            usage: usageBody,
          }),
        ],
      };
    }
    const frames: string[] = [
      chunk([
        {
          index: 0,
          delta: { role: 'assistant', content: '', refusal: null },
          logprobs: null,
          finish_reason: null,
        },
      ]),
    ];
    for (const piece of pieces(step.text ?? '')) {
      frames.push(chunk([{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }]));
    }
    toolCalls.forEach((call, index) => {
      frames.push(
        chunk([
          {
            index: 0,
            delta: {
              tool_calls: [
                {
                  index,
                  id: call.id ?? `call_fake${index}`,
                  type: 'function',
                  function: { name: call.name, arguments: '' },
                },
              ],
            },
            logprobs: null,
            finish_reason: null,
          },
        ]),
      );
      for (const piece of pieces(JSON.stringify(call.arguments))) {
        frames.push(
          chunk([
            {
              index: 0,
              delta: { tool_calls: [{ index, function: { arguments: piece } }] },
              logprobs: null,
              finish_reason: null,
            },
          ]),
        );
      }
    });
    frames.push(
      chunk([
        { index: 0, delta: {}, logprobs: null, finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop' },
      ]),
    );
    frames.push(chunk([], { usage: usageBody }));
    frames.push('data: [DONE]\n\n');
    return {
      status: 200,
      headers: eventStreamHeaders(),
      chunks: frames,
      ...(step.disconnectAfterFrames !== undefined ? { disconnectAfter: step.disconnectAfterFrames } : {}),
    };
  },

  renderError(step: ErrorStep): RenderedResponse {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(step.headers ?? {}) };
    if (step.status === 429 && !step.headers)
      Object.assign(headers, { 'retry-after': '1', 'retry-after-ms': '20' });
    if (step.bodyText !== undefined) return { status: step.status, headers, chunks: [step.bodyText] };
    const body = step.body ?? (step.contextOverflow ? CONTEXT_OVERFLOW_BODY : errorBody(step.status));
    return { status: step.status, headers, chunks: [JSON.stringify(body, null, 2)] };
  },
};

function invalid(message: string, param: string): ErrorStep {
  return {
    type: 'error',
    status: 400,
    body: { error: { message, type: 'invalid_request_error', param, code: null } },
  };
}
