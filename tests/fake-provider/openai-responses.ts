/**
 * The OpenAI Responses API as the real one speaks it: named SSE events (`event: <type>`) with a
 * `sequence_number`, output items added/streamed/done, `response.completed` with usage, no `[DONE]`.
 */
import type { ErrorStep, ProtocolModule, ProtocolRequest, RenderedResponse, ReplyStep } from './types.js';
import { errorBody, eventStreamHeaders, pieces, textOfContent } from './wire-helpers.js';

type Json = Record<string, unknown>;

const CONTEXT_OVERFLOW_BODY = {
  error: {
    message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
    type: 'invalid_request_error',
    param: 'input',
    code: 'context_length_exceeded',
  },
};

function inputOf(request: ProtocolRequest): Json[] {
  const input = request.body.input;
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? (input as Json[]) : [];
}

function invalid(message: string, param: string | null): ErrorStep {
  return {
    type: 'error',
    status: 400,
    body: { error: { message, type: 'invalid_request_error', param, code: null } },
  };
}

export const openaiResponsesProtocol: ProtocolModule = {
  api: 'openai-responses',
  matches: (method, url) => method === 'POST' && url.pathname.endsWith('/responses'),
  model: (request) => (typeof request.body.model === 'string' ? request.body.model : undefined),
  isStream: (request) => request.body.stream === true,

  validate(request) {
    if (typeof request.body.model !== 'string')
      return invalid("Missing required parameter: 'model'.", 'model');
    if (request.body.input === undefined) return invalid("Missing required parameter: 'input'.", 'input');
    const seenCalls = new Set<string>();
    for (const [index, item] of inputOf(request).entries()) {
      const type = item.type ?? 'message';
      if (type === 'function_call') seenCalls.add(String(item.call_id));
      if (type === 'function_call_output' && !seenCalls.has(String(item.call_id))) {
        return invalid(
          `No tool call found for function call output with call_id ${String(item.call_id)}.`,
          'input',
        );
      }
      if (
        type === 'reasoning' &&
        request.body.store === false &&
        typeof item.encrypted_content !== 'string'
      ) {
        return invalid(
          `Item with id '${String(item.id)}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
          `input[${index}]`,
        );
      }
      if (type === 'message' && !['user', 'assistant', 'system', 'developer'].includes(String(item.role))) {
        return invalid(
          `Invalid value: '${String(item.role)}'. Supported values are: 'assistant', 'system', 'developer', and 'user'.`,
          `input[${index}].role`,
        );
      }
    }
    return undefined;
  },

  lastUserText(request) {
    const last = inputOf(request)
      .filter((item) => (item.type ?? 'message') === 'message' && item.role === 'user')
      .at(-1);
    return last ? textOfContent(last.content) : '';
  },

  renderReply(step: ReplyStep, request: ProtocolRequest): RenderedResponse {
    const model = typeof request.body.model === 'string' ? request.body.model : 'gpt-4.1-mini';
    const responseId = `resp_fake${Date.now().toString(36)}`;
    const created_at = Math.floor(Date.now() / 1000);
    let sequence = 0;
    const frames: string[] = [];
    const emit = (payload: Json): void => {
      const event = { ...payload, sequence_number: sequence };
      sequence += 1;
      frames.push(`event: ${String(payload.type)}\ndata: ${JSON.stringify(event)}\n\n`);
    };
    const usage = step.usage ?? { inputTokens: 10, outputTokens: 5 };
    const baseResponse = (status: string, output: Json[], withUsage: boolean): Json => ({
      id: responseId,
      object: 'response',
      created_at,
      status,
      error: null,
      incomplete_details: null,
      instructions: request.body.instructions ?? null,
      model,
      output,
      parallel_tool_calls: true,
      store: request.body.store ?? true,
      tools: request.body.tools ?? [],
      usage: withUsage
        ? {
            input_tokens: usage.inputTokens,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: usage.outputTokens,
            output_tokens_details: { reasoning_tokens: step.reasoning ? 3 : 0 },
            total_tokens: usage.inputTokens + usage.outputTokens,
          }
        : null,
    });
    emit({ type: 'response.created', response: baseResponse('in_progress', [], false) });
    emit({ type: 'response.in_progress', response: baseResponse('in_progress', [], false) });
    const output: Json[] = [];
    let index = 0;
    if (step.reasoning) {
      const id = `rs_fake${index}`;
      emit({
        type: 'response.output_item.added',
        output_index: index,
        item: { id, type: 'reasoning', summary: [] },
      });
      emit({
        type: 'response.reasoning_summary_part.added',
        item_id: id,
        output_index: index,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      });
      for (const piece of pieces(step.reasoning)) {
        emit({
          type: 'response.reasoning_summary_text.delta',
          item_id: id,
          output_index: index,
          summary_index: 0,
          delta: piece,
        });
      }
      emit({
        type: 'response.reasoning_summary_text.done',
        item_id: id,
        output_index: index,
        summary_index: 0,
        text: step.reasoning,
      });
      const item = {
        id,
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: step.reasoning }],
        encrypted_content: Buffer.from(`fake-encrypted:${step.reasoning}`).toString('base64'),
      };
      emit({ type: 'response.output_item.done', output_index: index, item });
      output.push(item);
      index += 1;
    }
    if (step.text !== undefined && step.text !== '') {
      const id = `msg_fake${index}`;
      emit({
        type: 'response.output_item.added',
        output_index: index,
        item: { id, type: 'message', status: 'in_progress', content: [], role: 'assistant' },
      });
      emit({
        type: 'response.content_part.added',
        item_id: id,
        output_index: index,
        content_index: 0,
        part: { type: 'output_text', annotations: [], text: '' },
      });
      for (const piece of pieces(step.text)) {
        emit({
          type: 'response.output_text.delta',
          item_id: id,
          output_index: index,
          content_index: 0,
          delta: piece,
          logprobs: [],
        });
      }
      emit({
        type: 'response.output_text.done',
        item_id: id,
        output_index: index,
        content_index: 0,
        text: step.text,
        logprobs: [],
      });
      const part = { type: 'output_text', annotations: [], logprobs: [], text: step.text };
      emit({ type: 'response.content_part.done', item_id: id, output_index: index, content_index: 0, part });
      const item = { id, type: 'message', status: 'completed', content: [part], role: 'assistant' };
      emit({ type: 'response.output_item.done', output_index: index, item });
      output.push(item);
      index += 1;
    }
    for (const call of step.toolCalls ?? []) {
      const id = `fc_fake${index}`;
      const callId = call.id ?? `call_fake${index}`;
      const args = JSON.stringify(call.arguments);
      emit({
        type: 'response.output_item.added',
        output_index: index,
        item: {
          id,
          type: 'function_call',
          status: 'in_progress',
          arguments: '',
          call_id: callId,
          name: call.name,
        },
      });
      for (const piece of pieces(args))
        emit({
          type: 'response.function_call_arguments.delta',
          item_id: id,
          output_index: index,
          delta: piece,
        });
      emit({
        type: 'response.function_call_arguments.done',
        item_id: id,
        output_index: index,
        arguments: args,
      });
      const item = {
        id,
        type: 'function_call',
        status: 'completed',
        arguments: args,
        call_id: callId,
        name: call.name,
      };
      emit({ type: 'response.output_item.done', output_index: index, item });
      output.push(item);
      index += 1;
    }
    emit({ type: 'response.completed', response: baseResponse('completed', output, true) });
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
