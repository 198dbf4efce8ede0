/** Responses API stream events → canonical stream events. */
import type {
  ResponseOutputItem,
  ResponseStreamEvent,
  ResponseUsage,
} from 'openai/resources/responses/responses';
import {
  ProviderError,
  type FinishReason,
  type ResponseItem,
  type StreamEvent,
  type TokenUsage,
} from '../../protocol/index.js';
import { classifyOpenAIError, mapOpenAIError } from '../openai-shared/map-openai-error.js';

export function mapOpenAIResponsesUsage(usage: ResponseUsage): TokenUsage {
  return {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    totalTokens: usage.total_tokens,
    ...(usage.input_tokens_details?.cached_tokens !== undefined
      ? { cachedInputTokens: usage.input_tokens_details.cached_tokens }
      : {}),
    ...(usage.output_tokens_details?.reasoning_tokens !== undefined
      ? { reasoningTokens: usage.output_tokens_details.reasoning_tokens }
      : {}),
  };
}

/** A completed Responses output item in canonical form (undefined for kinds Cody does not replay). */
export function mapOpenAIResponsesOutputItem(
  item: ResponseOutputItem,
  model: string,
): ResponseItem | undefined {
  switch (item.type) {
    case 'message': {
      const text = item.content
        .map((part) => (part.type === 'output_text' ? part.text : part.refusal))
        .join('');
      return { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }], id: item.id };
    }
    case 'function_call':
      return {
        type: 'function_call',
        name: item.name,
        arguments: item.arguments === '' ? '{}' : item.arguments,
        call_id: item.call_id,
        ...(item.id ? { id: item.id } : {}),
        origin: { api: 'openai-responses', model },
      };
    case 'reasoning':
      return {
        type: 'reasoning',
        id: item.id,
        summary: item.summary.map((part) => ({ type: 'summary_text', text: part.text })),
        ...(item.content
          ? { content: item.content.map((part) => ({ type: 'reasoning_text' as const, text: part.text })) }
          : {}),
        encrypted_content: item.encrypted_content ?? null,
        origin: { api: 'openai-responses', model },
      };
    default:
      return undefined;
  }
}

/**
 * Deltas stream as they arrive; completed items are held until `response.completed`, so a response that
 * fails midway records nothing. Exactly one `finish`.
 */
export async function* mapOpenAIResponsesStream(
  events: AsyncIterable<ResponseStreamEvent>,
  model: string,
): AsyncGenerator<StreamEvent> {
  const done: Array<{ index: number; item: ResponseItem }> = [];
  const callNames = new Map<string, { callId: string; name: string }>();
  let responseModel = model;
  try {
    for await (const event of events) {
      switch (event.type) {
        case 'response.created':
        case 'response.in_progress':
          if (event.response.model) responseModel = event.response.model;
          break;
        case 'response.output_text.delta':
          yield { type: 'text-delta', text: event.delta };
          break;
        case 'response.reasoning_summary_text.delta':
        case 'response.reasoning_text.delta':
          yield { type: 'reasoning-delta', text: event.delta };
          break;
        case 'response.output_item.added':
          if (event.item.type === 'function_call' && event.item.id) {
            callNames.set(event.item.id, { callId: event.item.call_id, name: event.item.name });
          }
          break;
        case 'response.function_call_arguments.delta': {
          const call = callNames.get(event.item_id);
          yield {
            type: 'tool-call-delta',
            callId: call?.callId ?? event.item_id,
            name: call?.name ?? '',
            argumentsDelta: event.delta,
          };
          break;
        }
        case 'response.output_item.done': {
          const item = mapOpenAIResponsesOutputItem(event.item, responseModel);
          if (item) done.push({ index: event.output_index, item });
          break;
        }
        case 'response.completed':
        case 'response.incomplete': {
          const response = event.response;
          if (response.model) responseModel = response.model;
          // Items come from output_item.done; fall back to the final output for streams that skip them.
          if (done.length === 0) {
            response.output.forEach((output, index) => {
              const item = mapOpenAIResponsesOutputItem(output, responseModel);
              if (item) done.push({ index, item });
            });
          }
          done.sort((a, b) => a.index - b.index);
          for (const entry of done) yield { type: 'item', item: entry.item };
          if (response.usage) yield { type: 'usage', usage: mapOpenAIResponsesUsage(response.usage) };
          yield { type: 'finish', ...finishOf(event.type, response.incomplete_details?.reason, done) };
          return;
        }
        case 'response.failed': {
          const failure = event.response.error;
          const message = failure?.message ?? 'The response failed.';
          const { kind, isRetryable } = classifyOpenAIError(undefined, failure?.code, undefined, message);
          yield {
            type: 'error',
            error: new ProviderError({
              api: 'openai-responses',
              kind,
              message,
              ...(failure?.code ? { code: failure.code } : {}),
              ...(isRetryable !== undefined ? { isRetryable } : {}),
            }),
          };
          yield { type: 'finish', reason: 'error' };
          return;
        }
        case 'error': {
          const { kind, isRetryable } = classifyOpenAIError(
            undefined,
            event.code ?? undefined,
            undefined,
            event.message,
          );
          yield {
            type: 'error',
            error: new ProviderError({
              api: 'openai-responses',
              kind,
              message: event.message,
              ...(event.code ? { code: event.code } : {}),
              ...(isRetryable !== undefined ? { isRetryable } : {}),
            }),
          };
          yield { type: 'finish', reason: 'error' };
          return;
        }
        default:
          break;
      }
    }
  } catch (error) {
    yield { type: 'error', error: mapOpenAIError(error, 'openai-responses') };
    yield { type: 'finish', reason: 'error' };
    return;
  }
  // The stream ended without a terminal event: the connection was cut.
  yield {
    type: 'error',
    error: new ProviderError({
      api: 'openai-responses',
      kind: 'network',
      message: 'The stream ended before the response completed.',
    }),
  };
  yield { type: 'finish', reason: 'error' };
}

function finishOf(
  eventType: 'response.completed' | 'response.incomplete',
  incompleteReason: string | undefined,
  done: ReadonlyArray<{ item: ResponseItem }>,
): { reason: FinishReason; rawReason?: string } {
  if (eventType === 'response.incomplete') {
    return {
      reason: incompleteReason === 'content_filter' ? 'content-filter' : 'length',
      ...(incompleteReason ? { rawReason: incompleteReason } : {}),
    };
  }
  return { reason: done.some((entry) => entry.item.type === 'function_call') ? 'tool-calls' : 'stop' };
}
