/** Chat Completions stream chunks → canonical stream events. */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { FinishReason, ResponseItem, StreamEvent, TokenUsage } from '../../protocol/index.js';
import { mapOpenAIError } from '../openai-shared/map-openai-error.js';

export function mapOpenAIChatUsage(usage: CompletionUsage): TokenUsage {
  const result: TokenUsage = {};
  if (typeof usage.prompt_tokens === 'number') result.inputTokens = usage.prompt_tokens;
  if (typeof usage.completion_tokens === 'number') result.outputTokens = usage.completion_tokens;
  if (typeof usage.total_tokens === 'number') result.totalTokens = usage.total_tokens;
  const cached = usage.prompt_tokens_details?.cached_tokens;
  if (typeof cached === 'number') result.cachedInputTokens = cached;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number') result.reasoningTokens = reasoning;
  return result;
}

export function mapOpenAIChatFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}

interface ToolCallBuffer {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Streams text and tool-call deltas as they arrive; emits the completed items only once the stream has
 * ended cleanly (a reply cut off midway is discarded, never half-recorded). Exactly one `finish`.
 */
export async function* mapOpenAIChatStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  model: string,
): AsyncGenerator<StreamEvent> {
  let text = '';
  const calls = new Map<number, ToolCallBuffer>();
  let rawReason: string | undefined;
  let responseModel = model;
  try {
    for await (const chunk of chunks) {
      if (chunk.model) responseModel = chunk.model;
      if (chunk.usage) yield { type: 'usage', usage: mapOpenAIChatUsage(chunk.usage) };
      for (const choice of chunk.choices ?? []) {
        const delta = choice.delta;
        if (delta?.content) {
          text += delta.content;
          yield { type: 'text-delta', text: delta.content };
        }
        for (const call of delta?.tool_calls ?? []) {
          let buffer = calls.get(call.index);
          if (!buffer) {
            buffer = { id: call.id ?? `call_${call.index}`, name: '', arguments: '' };
            calls.set(call.index, buffer);
          }
          if (call.id) buffer.id = call.id;
          if (call.function?.name) buffer.name += call.function.name;
          if (call.function?.arguments) {
            buffer.arguments += call.function.arguments;
            yield {
              type: 'tool-call-delta',
              callId: buffer.id,
              name: buffer.name,
              argumentsDelta: call.function.arguments,
            };
          }
        }
        if (choice.finish_reason) rawReason = choice.finish_reason;
      }
    }
  } catch (error) {
    yield { type: 'error', error: mapOpenAIError(error, 'openai-chat') };
    yield { type: 'finish', reason: 'error' };
    return;
  }
  const items: ResponseItem[] = [];
  if (text !== '')
    items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
  for (const [, call] of [...calls.entries()].sort(([a], [b]) => a - b)) {
    items.push({
      type: 'function_call',
      name: call.name,
      arguments: call.arguments === '' ? '{}' : call.arguments,
      call_id: call.id,
    });
  }
  void responseModel;
  for (const item of items) yield { type: 'item', item };
  yield { type: 'finish', reason: mapOpenAIChatFinishReason(rawReason), ...(rawReason ? { rawReason } : {}) };
}
