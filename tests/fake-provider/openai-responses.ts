/**
 * The OpenAI Responses API as the real one speaks it (see provider-recordings/openai-responses): named
 * SSE events (`event: <type>`) whose data starts with `type` and `sequence_number`; response.created and
 * in_progress, then per output item `output_item.added`, its streamed parts and `output_item.done`
 * (reasoning summaries, text, function-call arguments), then `response.completed` with usage; no
 * `[DONE]`. Reasoning carries `encrypted_content` when the request includes `reasoning.encrypted_content`.
 * A JSON `response` object when not streaming; errors as Chat Completions sends them.
 */
import { openAIEffortProblem } from './reasoning-rules.js';
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { invalidRequest, renderOpenAIError } from './openai-chat.js';
import type { ErrorStep, ProtocolModule, ProtocolRequest, RenderedResponse, ReplyStep } from './types.js';
import { eventStreamHeaders, pieces, textOfContent, textPieces } from './wire-helpers.js';

type Json = Record<string, unknown>;

/** The wording the Responses API uses for an over-long input (errors-from-issues.json, in-stream case). */
const CONTEXT_OVERFLOW_BODY_TEXT = JSON.stringify(
  {
    error: {
      message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
      type: 'invalid_request_error',
      param: 'input',
      code: 'context_length_exceeded',
    },
  },
  null,
  2,
);

const INPUT_ROLES = ['user', 'assistant', 'system', 'developer'];

/** The prefix of OpenAI's encrypted reasoning (a Fernet token). */
const ENCRYPTED_PREFIX = 'gAAAAB';

/**
 * Models that reason, as OpenAI serves them: o-series and GPT-5.x, except the `-chat` snapshots. Only
 * these accept `include: ["reasoning.encrypted_content"]`.
 */
export function isFakeReasoningModel(model: string): boolean {
  return /^(o\d|gpt-5)/.test(model) && !/-chat/.test(model);
}

/**
 * The account a request comes from (a hash of its key). Encrypted reasoning is bound to it, as OpenAI
 * binds it to the organisation: replayed under another key it is refused as `invalid_encrypted_content`.
 */
function accountOf(headers: IncomingHttpHeaders): string {
  const key = /^Bearer (\S+)/.exec(headers.authorization ?? '')?.[1] ?? '';
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

function encryptedAccount(content: string): string | undefined {
  if (!content.startsWith(ENCRYPTED_PREFIX)) return undefined;
  return Buffer.from(content.slice(ENCRYPTED_PREFIX.length), 'base64url').toString('utf8').split(':')[1];
}

let responseCounter = 0;

function inputOf(request: ProtocolRequest): Json[] {
  const input = request.body.input;
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? (input as Json[]) : [];
}

function partsOf(item: Json): Json[] {
  return Array.isArray(item.content) ? (item.content as Json[]) : [];
}

/** What the real API rejects before streaming, with its own wording. */
function validateResponses(request: ProtocolRequest): ErrorStep | undefined {
  const body = request.body;
  if (typeof body.model !== 'string' || body.model === '') {
    return invalidRequest("Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
  }
  if (body.input === undefined) {
    return invalidRequest("Missing required parameter: 'input'.", 'input', 'missing_required_parameter');
  }
  const include = Array.isArray(body.include) ? (body.include as unknown[]) : [];
  if (include.includes('reasoning.encrypted_content') && !isFakeReasoningModel(body.model)) {
    return invalidRequest('Encrypted content is not supported with this model.', 'include');
  }
  const effortProblem = openAIEffortProblem(
    body.model,
    (body.reasoning as Json | undefined)?.effort,
    'reasoning.effort',
  );
  if (effortProblem) return invalidRequest(...effortProblem);
  const calls = new Set<string>();
  for (const [index, item] of inputOf(request).entries()) {
    const type = item.type ?? 'message';
    if (type === 'function_call') calls.add(String(item.call_id));
    if (type === 'function_call_output' && !calls.has(String(item.call_id))) {
      return invalidRequest(
        `No tool call found for function call output with call_id ${String(item.call_id)}.`,
        'input',
      );
    }
    if (type === 'reasoning' && body.store === false && typeof item.encrypted_content !== 'string') {
      return invalidRequest(
        `Item with id '${String(item.id)}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
        'input',
      );
    }
    if (
      type === 'reasoning' &&
      typeof item.encrypted_content === 'string' &&
      encryptedAccount(item.encrypted_content) !== accountOf(request.headers)
    ) {
      return invalidRequest(
        `The encrypted content for item ${String(item.id)} could not be verified. Reason: Encrypted content organization_id did not match the target organization_id.`,
        null,
        'invalid_encrypted_content',
      );
    }
    if (type !== 'message') continue;
    if (!INPUT_ROLES.includes(String(item.role))) {
      return invalidRequest(
        `Invalid value: '${String(item.role)}'. Supported values are: 'assistant', 'system', 'developer', and 'user'.`,
        `input[${index}].role`,
        'invalid_value',
      );
    }
    const allowed =
      item.role === 'assistant' ? ['output_text', 'refusal'] : ['input_text', 'input_image', 'input_file'];
    for (const [partIndex, part] of partsOf(item).entries()) {
      if (!allowed.includes(String(part.type))) {
        const supported =
          item.role === 'assistant'
            ? "'output_text' and 'refusal'"
            : "'input_text', 'input_image', and 'input_file'";
        return invalidRequest(
          `Invalid value: '${String(part.type)}'. Supported values are: ${supported}.`,
          `input[${index}].content[${partIndex}]`,
          'invalid_value',
        );
      }
    }
  }
  return undefined;
}

export const openaiResponsesProtocol: ProtocolModule = {
  api: 'openai-responses',
  matches: (method, url) => method === 'POST' && url.pathname.endsWith('/responses'),
  model: (request) => (typeof request.body.model === 'string' ? request.body.model : undefined),
  isStream: (request) => request.body.stream === true,
  validate: validateResponses,

  lastUserText(request) {
    const last = inputOf(request)
      .filter((item) => (item.type ?? 'message') === 'message' && item.role === 'user')
      .at(-1);
    return last ? textOfContent(last.content) : '';
  },

  renderReply(step: ReplyStep, request: ProtocolRequest): RenderedResponse {
    const body = request.body;
    const model = typeof body.model === 'string' ? body.model : 'gpt-4.1-mini';
    responseCounter += 1;
    const tag = `${responseCounter.toString(16).padStart(4, '0')}${Date.now().toString(16)}`;
    const createdAt = Math.floor(Date.now() / 1000);
    const includeEncrypted =
      Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content');
    const usage = step.usage ?? { inputTokens: 10, outputTokens: 5 };
    const reasoningTokens = step.reasoning
      ? Math.min(usage.outputTokens, Math.ceil(step.reasoning.length / 4))
      : 0;
    const response = (status: string, output: Json[], withUsage: boolean): Json => ({
      id: `resp_fake${tag}`,
      object: 'response',
      created_at: createdAt,
      status,
      background: false,
      error: null,
      incomplete_details: null,
      instructions: body.instructions ?? null,
      max_output_tokens: body.max_output_tokens ?? null,
      max_tool_calls: null,
      model,
      output,
      parallel_tool_calls: true,
      previous_response_id: null,
      prompt_cache_key: null,
      reasoning: { effort: step.reasoning ? 'medium' : null, summary: null },
      safety_identifier: null,
      service_tier: 'default',
      store: body.store ?? true,
      temperature: 1.0,
      text: { format: { type: 'text' }, verbosity: 'medium' },
      tool_choice: 'auto',
      tools: body.tools ?? [],
      top_logprobs: 0,
      top_p: 1.0,
      truncation: 'disabled',
      usage: withUsage
        ? {
            input_tokens: usage.inputTokens,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: usage.outputTokens,
            output_tokens_details: { reasoning_tokens: reasoningTokens },
            total_tokens: usage.inputTokens + usage.outputTokens,
          }
        : null,
      user: null,
      metadata: {},
    });

    const frames: string[] = [];
    const emit = (type: string, fields: Json): void => {
      const payload = { type, sequence_number: frames.length, ...fields };
      frames.push(`event: ${type}\ndata: ${JSON.stringify(payload)}\n\n`);
    };
    const output: Json[] = [];
    emit('response.created', { response: response('in_progress', [], false) });
    emit('response.in_progress', { response: response('in_progress', [], false) });

    if (step.reasoning) {
      const outputIndex = output.length;
      const id = `rs_fake${tag}${outputIndex}`;
      const account = accountOf(request.headers);
      const encrypted = (stage: string): Json =>
        includeEncrypted
          ? {
              encrypted_content: `${ENCRYPTED_PREFIX}${Buffer.from(`${stage}:${account}:${step.reasoning ?? ''}`).toString('base64url')}`,
            }
          : {};
      emit('response.output_item.added', {
        output_index: outputIndex,
        item: { id, type: 'reasoning', ...encrypted('added'), summary: [] },
      });
      const where = { item_id: id, output_index: outputIndex, summary_index: 0 };
      emit('response.reasoning_summary_part.added', { ...where, part: { type: 'summary_text', text: '' } });
      for (const piece of pieces(step.reasoning))
        emit('response.reasoning_summary_text.delta', { ...where, delta: piece });
      emit('response.reasoning_summary_text.done', { ...where, text: step.reasoning });
      emit('response.reasoning_summary_part.done', {
        ...where,
        part: { type: 'summary_text', text: step.reasoning },
      });
      const item = {
        id,
        type: 'reasoning',
        ...encrypted('done'),
        summary: [{ type: 'summary_text', text: step.reasoning }],
      };
      emit('response.output_item.done', { output_index: outputIndex, item });
      output.push(item);
    }

    if (step.text) {
      const outputIndex = output.length;
      const id = `msg_fake${tag}${outputIndex}`;
      const where = { item_id: id, output_index: outputIndex, content_index: 0 };
      emit('response.output_item.added', {
        output_index: outputIndex,
        item: { id, type: 'message', status: 'in_progress', content: [], role: 'assistant' },
      });
      emit('response.content_part.added', {
        ...where,
        part: { type: 'output_text', annotations: [], logprobs: [], text: '' },
      });
      for (const piece of textPieces(step))
        emit('response.output_text.delta', { ...where, delta: piece, logprobs: [] });
      emit('response.output_text.done', { ...where, text: step.text, logprobs: [] });
      const part = { type: 'output_text', annotations: [], logprobs: [], text: step.text };
      emit('response.content_part.done', { ...where, part });
      const item = { id, type: 'message', status: 'completed', content: [part], role: 'assistant' };
      emit('response.output_item.done', { output_index: outputIndex, item });
      output.push(item);
    }

    for (const call of step.toolCalls ?? []) {
      const outputIndex = output.length;
      const id = `fc_fake${tag}${outputIndex}`;
      const fields = { call_id: call.id ?? `call_fake${tag}${outputIndex}`, name: call.name };
      const args = JSON.stringify(call.arguments);
      emit('response.output_item.added', {
        output_index: outputIndex,
        item: { id, type: 'function_call', status: 'in_progress', arguments: '', ...fields },
      });
      for (const piece of pieces(args)) {
        emit('response.function_call_arguments.delta', {
          item_id: id,
          output_index: outputIndex,
          delta: piece,
        });
      }
      emit('response.function_call_arguments.done', {
        item_id: id,
        output_index: outputIndex,
        arguments: args,
      });
      const item = { id, type: 'function_call', status: 'completed', arguments: args, ...fields };
      emit('response.output_item.done', { output_index: outputIndex, item });
      output.push(item);
    }

    const final = response('completed', output, true);
    if (body.stream !== true) {
      return {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-request-id': `req_fake${tag}` },
        chunks: [JSON.stringify(final, null, 2)],
      };
    }
    emit('response.completed', { response: final });
    return {
      status: 200,
      headers: { ...eventStreamHeaders(), 'x-request-id': `req_fake${tag}` },
      chunks: frames,
      ...(step.disconnectAfterFrames !== undefined ? { disconnectAfter: step.disconnectAfterFrames } : {}),
    };
  },

  renderError: (step: ErrorStep) => renderOpenAIError(step, CONTEXT_OVERFLOW_BODY_TEXT),
};
