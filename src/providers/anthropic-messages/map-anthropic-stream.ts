/** Anthropic raw stream events → canonical stream events. */
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import {
  ProviderError,
  type FinishReason,
  type ResponseItem,
  type StreamEvent,
  type TokenUsage,
} from '../../protocol/index.js';
import { mapAnthropicError } from './map-anthropic-error.js';

type Block =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; thinking: string; signature: string }
  | { kind: 'redacted'; data: string }
  | { kind: 'tool'; id: string; name: string; json: string }
  | { kind: 'other' };

export function mapAnthropicStopReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return 'stop';
    case 'tool_use':
      return 'tool-calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content-filter';
    default:
      return 'other';
  }
}

/**
 * Deltas stream as they arrive; completed items are emitted at `message_stop` in block order (thinking,
 * text, tool uses), so an interrupted message records nothing. Exactly one `finish`.
 */
export async function* mapAnthropicStream(
  events: AsyncIterable<RawMessageStreamEvent>,
  model: string,
): AsyncGenerator<StreamEvent> {
  const blocks = new Map<number, Block>();
  let responseModel = model;
  let inputTokens: number | undefined;
  let cachedTokens = 0;
  let outputTokens: number | undefined;
  let stopReason: string | null | undefined;
  let stopped = false;
  try {
    for await (const event of events) {
      switch (event.type) {
        case 'message_start': {
          responseModel = event.message.model || responseModel;
          const usage = event.message.usage;
          cachedTokens = (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
          inputTokens = usage.input_tokens + cachedTokens;
          if (typeof usage.output_tokens === 'number') outputTokens = usage.output_tokens;
          break;
        }
        case 'content_block_start': {
          const block = event.content_block;
          if (block.type === 'text') {
            blocks.set(event.index, { kind: 'text', text: block.text });
            if (block.text) yield { type: 'text-delta', text: block.text };
          } else if (block.type === 'thinking')
            blocks.set(event.index, {
              kind: 'thinking',
              thinking: block.thinking,
              signature: block.signature,
            });
          else if (block.type === 'redacted_thinking')
            blocks.set(event.index, { kind: 'redacted', data: block.data });
          else if (block.type === 'tool_use')
            blocks.set(event.index, { kind: 'tool', id: block.id, name: block.name, json: '' });
          else blocks.set(event.index, { kind: 'other' });
          break;
        }
        case 'content_block_delta': {
          const block = blocks.get(event.index);
          const delta = event.delta;
          if (delta.type === 'text_delta' && block?.kind === 'text') {
            block.text += delta.text;
            yield { type: 'text-delta', text: delta.text };
          } else if (delta.type === 'thinking_delta' && block?.kind === 'thinking') {
            block.thinking += delta.thinking;
            yield { type: 'reasoning-delta', text: delta.thinking };
          } else if (delta.type === 'signature_delta' && block?.kind === 'thinking') {
            block.signature += delta.signature;
          } else if (delta.type === 'input_json_delta' && block?.kind === 'tool') {
            block.json += delta.partial_json;
            yield {
              type: 'tool-call-delta',
              callId: block.id,
              name: block.name,
              argumentsDelta: delta.partial_json,
            };
          }
          break;
        }
        case 'message_delta': {
          stopReason = event.delta.stop_reason;
          outputTokens = event.usage.output_tokens;
          if (typeof event.usage.input_tokens === 'number') {
            inputTokens =
              event.usage.input_tokens +
              (event.usage.cache_read_input_tokens ?? 0) +
              (event.usage.cache_creation_input_tokens ?? 0);
          }
          break;
        }
        case 'message_stop':
          stopped = true;
          break;
        default:
          break;
      }
    }
  } catch (error) {
    yield { type: 'error', error: mapAnthropicError(error) };
    yield { type: 'finish', reason: 'error' };
    return;
  }
  if (!stopped) {
    yield {
      type: 'error',
      error: new ProviderError({
        api: 'anthropic-messages',
        kind: 'network',
        message: 'The stream ended before the message was complete.',
      }),
    };
    yield { type: 'finish', reason: 'error' };
    return;
  }
  const origin = { api: 'anthropic-messages' as const, model: responseModel };
  const items: ResponseItem[] = [];
  let text = '';
  for (const [, block] of [...blocks.entries()].sort(([a], [b]) => a - b)) {
    if (block.kind === 'thinking') {
      items.push({
        type: 'reasoning',
        summary: [],
        content: [{ type: 'reasoning_text', text: block.thinking }],
        origin,
        provider_data: { signature: block.signature },
      });
    } else if (block.kind === 'redacted') {
      items.push({
        type: 'reasoning',
        summary: [],
        content: [],
        origin,
        provider_data: { redacted_data: block.data },
      });
    } else if (block.kind === 'text') {
      text += block.text;
    }
  }
  if (text !== '')
    items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
  for (const [, block] of [...blocks.entries()].sort(([a], [b]) => a - b)) {
    if (block.kind === 'tool')
      items.push({
        type: 'function_call',
        name: block.name,
        arguments: block.json.trim() === '' ? '{}' : block.json,
        call_id: block.id,
      });
  }
  for (const item of items) yield { type: 'item', item };
  const usage: TokenUsage = {};
  if (inputTokens !== undefined) usage.inputTokens = inputTokens;
  if (cachedTokens > 0) usage.cachedInputTokens = cachedTokens;
  if (outputTokens !== undefined) usage.outputTokens = outputTokens;
  if (inputTokens !== undefined && outputTokens !== undefined) usage.totalTokens = inputTokens + outputTokens;
  if (Object.keys(usage).length > 0) yield { type: 'usage', usage };
  yield {
    type: 'finish',
    reason: mapAnthropicStopReason(stopReason),
    ...(stopReason ? { rawReason: stopReason } : {}),
  };
}
