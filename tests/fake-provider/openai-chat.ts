/**
 * OpenAI Chat Completions as the real API speaks it (see provider-recordings/openai-chat): `data:` chunks
 * — the first carrying the role, content in pieces, a tool call's first delta with index/id/type/name and
 * `arguments: ""` then argument pieces, a finish_reason chunk, a usage chunk with `choices: []` when
 * `stream_options.include_usage` is set — and `data: [DONE]`; a `chat.completion` JSON when not
 * streaming; error bodies `{error: {message, type, param, code}}`, pretty-printed as OpenAI sends them.
 */
import type { ErrorStep, ProtocolModule, ProtocolRequest, RenderedResponse, ReplyStep } from './types.js';
import { deepSeekEffortProblem, deepSeekReasoningProblem, openAIEffortProblem } from './reasoning-rules.js';
import { errorBody, eventStreamHeaders, pieces, textOfContent, textPieces } from './wire-helpers.js';

type Json = Record<string, unknown>;

/** The 400 a real user got for an over-long prompt (provider-recordings/openai-chat/errors-from-issues.json). */
const CONTEXT_OVERFLOW_BODY_TEXT =
  '{\n  "error": {\n    "message": "This model\'s maximum context length is 4097 tokens. However, your messages resulted in 4363 tokens. Please reduce the length of the messages.",\n    "type": "invalid_request_error",\n    "param": "messages",\n    "code": "context_length_exceeded"\n  }\n}';

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'];

let streamCounter = 0;

/** A stand-in for the random `obfuscation` padding real chunks carry (varying length, letters only). */
function obfuscation(seed: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  let text = '';
  for (let index = 0; index < 3 + ((seed * 7) % 12); index += 1)
    text += alphabet[(seed * 31 + index * 17) % alphabet.length];
  return text;
}

function messagesOf(request: ProtocolRequest): Json[] {
  return Array.isArray(request.body.messages) ? (request.body.messages as Json[]) : [];
}

function toolCallIds(message: Json | undefined): string[] {
  return Array.isArray(message?.tool_calls)
    ? (message.tool_calls as Json[]).map((call) => String(call.id))
    : [];
}

/** An OpenAI 400 body. */
export function invalidRequest(message: string, param: string | null, code: string | null = null): ErrorStep {
  return {
    type: 'error',
    status: 400,
    body: { error: { message, type: 'invalid_request_error', param, code } },
  };
}

/**
 * Renders an OpenAI error (shared by Chat Completions and Responses): the step's body, else the
 * protocol's context-overflow body, else OpenAI's body for that status; 429s carry `retry-after` and
 * `retry-after-ms` unless the step sets its own headers.
 */
export function renderOpenAIError(step: ErrorStep, contextOverflowBodyText: string): RenderedResponse {
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': `req_fake${(streamCounter += 1)}`,
    ...(step.headers ?? {}),
  };
  if (step.status === 429 && !step.headers)
    Object.assign(headers, { 'retry-after': '1', 'retry-after-ms': '20' });
  if (step.bodyText !== undefined) return { status: step.status, headers, chunks: [step.bodyText] };
  if (step.body === undefined && step.contextOverflow) {
    return { status: step.status, headers, chunks: [`${contextOverflowBodyText}\n`] };
  }
  return {
    status: step.status,
    headers,
    chunks: [`${JSON.stringify(step.body ?? errorBody(step.status), null, 2)}\n`],
  };
}

/** What the real API rejects before answering, with its own wording. */
function validateChat(request: ProtocolRequest): ErrorStep | undefined {
  const body = request.body;
  if (typeof body.model !== 'string' || body.model === '')
    return invalidRequest('you must provide a model parameter', null);
  if (body.messages === undefined) {
    return invalidRequest(
      "Missing required parameter: 'messages'.",
      'messages',
      'missing_required_parameter',
    );
  }
  const messages = messagesOf(request);
  if (messages.length === 0) {
    return invalidRequest(
      "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      'messages',
      'empty_array',
    );
  }
  if (body.stream_options !== undefined && body.stream !== true) {
    return invalidRequest(
      "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
      'stream_options',
      'invalid_value',
    );
  }
  for (const [index, message] of messages.entries()) {
    if (!ROLES.includes(String(message.role))) {
      return invalidRequest(
        `Invalid value: '${String(message.role)}'. Supported values are: 'system', 'assistant', 'user', 'tool', 'function' and 'developer'.`,
        `messages[${index}].role`,
        'invalid_value',
      );
    }
    if (message.role !== 'tool') continue;
    let previous = index - 1;
    while (previous >= 0 && messages[previous]?.role === 'tool') previous -= 1;
    const declared = toolCallIds(messages[previous]);
    if (messages[previous]?.role !== 'assistant' || declared.length === 0) {
      return invalidRequest(
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
        `messages.[${index}].role`,
      );
    }
    if (!declared.includes(String(message.tool_call_id))) {
      return invalidRequest(
        `Invalid parameter: 'tool_call_id' of '${String(message.tool_call_id)}' not found in 'tool_calls' of previous message.`,
        `messages.[${index}].tool_call_id`,
      );
    }
  }
  for (const [index, message] of messages.entries()) {
    const ids = message.role === 'assistant' ? toolCallIds(message) : [];
    if (ids.length === 0) continue;
    const responded = new Set<string>();
    for (const next of messages.slice(index + 1)) {
      if (next.role !== 'tool') break;
      responded.add(String(next.tool_call_id));
    }
    const missing = ids.filter((id) => !responded.has(id));
    if (missing.length > 0) {
      return invalidRequest(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(', ')}`,
        'messages',
      );
    }
  }
  return reasoningProblem(body.model, messages, body);
}

/** OpenAI's `reasoning_effort` rules, and DeepSeek's for its effort and `reasoning_content` sent back. */
function reasoningProblem(model: string, messages: Json[], body: Json): ErrorStep | undefined {
  if (/^deepseek-/.test(model)) {
    const effort = deepSeekEffortProblem(model, body.reasoning_effort);
    if (effort !== undefined) return invalidRequest(effort, null, 'invalid_request_error');
  } else {
    const effortProblem = openAIEffortProblem(model, body.reasoning_effort, 'reasoning_effort');
    if (effortProblem) return invalidRequest(...effortProblem);
  }
  const deepSeek = deepSeekReasoningProblem(model, messages, body.thinking);
  return deepSeek === undefined ? undefined : invalidRequest(deepSeek, null, 'invalid_request_error');
}

function usageOf(step: ReplyStep): Json {
  const usage = step.usage ?? { inputTokens: 10, outputTokens: 5 };
  const reasoningTokens = step.reasoning
    ? Math.min(usage.outputTokens, Math.ceil(step.reasoning.length / 4))
    : 0;
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function renderCompletion(step: ReplyStep, model: string, id: string, created: number): RenderedResponse {
  const toolCalls = step.toolCalls ?? [];
  const message: Json = { role: 'assistant', content: step.text ?? null, refusal: null, annotations: [] };
  if (toolCalls.length > 0) {
    message.tool_calls = toolCalls.map((call, index) => ({
      id: call.id ?? `call_fake${index}`,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    }));
  }
  const completion = {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [
      { index: 0, message, logprobs: null, finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop' },
    ],
    usage: usageOf(step),
    service_tier: 'default',
    system_fingerprint: 'fp_fake',
  };
  return {
    status: 200,
    headers: { 'content-type': 'application/json', 'x-request-id': `req_${id}` },
    chunks: [JSON.stringify(completion, null, 2)],
  };
}

export const openaiChatProtocol: ProtocolModule = {
  api: 'openai-chat',
  matches: (method, url) => method === 'POST' && url.pathname.endsWith('/chat/completions'),
  model: (request) => (typeof request.body.model === 'string' ? request.body.model : undefined),
  isStream: (request) => request.body.stream === true,
  validate: validateChat,

  lastUserText(request) {
    const last = messagesOf(request)
      .filter((message) => message.role === 'user')
      .at(-1);
    return last ? textOfContent(last.content) : '';
  },

  renderReply(step: ReplyStep, request: ProtocolRequest): RenderedResponse {
    const model = typeof request.body.model === 'string' ? request.body.model : 'gpt-4.1-mini';
    streamCounter += 1;
    const id = `chatcmpl-fake${streamCounter.toString(36)}${Date.now().toString(36)}`;
    const created = Math.floor(Date.now() / 1000);
    if (request.body.stream !== true) return renderCompletion(step, model, id, created);

    const includeUsage = (request.body.stream_options as Json | undefined)?.include_usage === true;
    const frames: string[] = [];
    const chunk = (choices: unknown[], usage: unknown = null): void => {
      const payload: Json = {
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        service_tier: 'default',
        system_fingerprint: 'fp_fake',
        choices,
      };
      // `usage` appears on every chunk (null until the last) only when the client asked for it.
      if (includeUsage) payload.usage = usage;
      payload.obfuscation = obfuscation(frames.length + 1);
      frames.push(`data: ${JSON.stringify(payload)}\n\n`);
    };
    const choice = (delta: Json, finishReason: string | null = null): Json => ({
      index: 0,
      delta,
      logprobs: null,
      finish_reason: finishReason,
    });
    const toolCalls = step.toolCalls ?? [];
    const firstCall = (index: number): Json => {
      const call = toolCalls[index];
      return {
        index,
        id: call?.id ?? `call_fake${index}`,
        type: 'function',
        function: { name: call?.name ?? '', arguments: '' },
      };
    };
    const text = step.text ?? '';
    if (step.reasoning) {
      // DeepSeek's reasoner streams its reasoning first, in `reasoning_content`, with `content` null.
      chunk([choice({ role: 'assistant', content: null, reasoning_content: '' })]);
      for (const piece of pieces(step.reasoning))
        chunk([choice({ content: null, reasoning_content: piece })]);
    }
    if (text !== '' || toolCalls.length === 0) {
      chunk([choice({ role: 'assistant', content: '', refusal: null })]);
      for (const piece of textPieces(step)) chunk([choice({ content: piece })]);
    } else {
      // A reply that opens with a call carries the role and the call's first delta together.
      chunk([choice({ role: 'assistant', content: null, tool_calls: [firstCall(0)], refusal: null })]);
    }
    toolCalls.forEach((call, index) => {
      if (index > 0 || text !== '') chunk([choice({ tool_calls: [firstCall(index)] })]);
      for (const piece of pieces(JSON.stringify(call.arguments))) {
        chunk([choice({ tool_calls: [{ index, function: { arguments: piece } }] })]);
      }
    });
    chunk([choice({}, toolCalls.length > 0 ? 'tool_calls' : 'stop')]);
    if (includeUsage) chunk([], usageOf(step));
    frames.push('data: [DONE]\n\n');
    return {
      status: 200,
      headers: { ...eventStreamHeaders(), 'x-request-id': `req_${id}` },
      chunks: frames,
      ...(step.disconnectAfterFrames !== undefined ? { disconnectAfter: step.disconnectAfterFrames } : {}),
    };
  },

  renderError: (step: ErrorStep) => renderOpenAIError(step, CONTEXT_OVERFLOW_BODY_TEXT),
};
