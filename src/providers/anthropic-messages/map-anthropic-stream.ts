/** Anthropic raw stream events → canonical stream events. */
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import {
  ProviderError,
  type FunctionCallItem,
  type OutputTextPart,
  type ProviderOrigin,
  type ReasoningItem,
  type ResponseItem,
  type StreamEvent,
} from '../../protocol/index.js';
import { failureEvents, mapAnthropicError } from './map-anthropic-error.js';
import {
  absorbAnthropicUsage,
  type AnthropicUsageCounts,
  mapAnthropicStopReason,
  mapAnthropicUsage,
} from './map-anthropic-usage.js';

export interface MapAnthropicStreamOptions {
  /** The model requested; the `message_start` model (e.g. with its date stamp) replaces it when sent. */
  model: string;
  /** The request's signal: the SDK ends a cancelled stream silently, so cancellation is read from here. */
  signal?: AbortSignal;
  /** A secret (the API key) scrubbed from error messages. */
  secret?: string;
}

/** A content block as it accumulates; server-side blocks (web search, tool search) are `other`. */
type Block =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; thinking: string; signature: string }
  | { kind: 'redacted-thinking'; data: string }
  | { kind: 'tool-use'; id: string; name: string; json: string; startInput: unknown }
  | { kind: 'other' };

/**
 * Streams text, thinking and tool-input deltas as they arrive. The completed items — reasoning (one per
 * thinking block, with its signature), one assistant message (a text part per text block), then one
 * `function_call` per `tool_use` block, each group in block order — and the usage follow only at
 * `message_stop`: a reply cut off midway is discarded, never half-recorded. A mid-stream `error` event
 * (e.g. `overloaded_error`) ends the stream with that error. Always exactly one `finish`.
 */
// eslint-disable-next-line max-lines-per-function -- one switch over Anthropic's stream event types, read top to bottom like the wire
export async function* mapAnthropicStream(
  events: AsyncIterable<RawMessageStreamEvent>,
  options: MapAnthropicStreamOptions,
): AsyncGenerator<StreamEvent> {
  const blocks = new Map<number, Block>();
  const usage: AnthropicUsageCounts = {};
  let model = options.model;
  let stopReason: string | undefined;
  let stopped = false;
  try {
    for await (const event of events) {
      if (stopped) continue;
      switch (event.type) {
        case 'message_start':
          if (typeof event.message?.model === 'string' && event.message.model !== '')
            model = event.message.model;
          absorbAnthropicUsage(usage, event.message?.usage);
          break;
        case 'content_block_start': {
          const block = startBlock(event.content_block);
          blocks.set(event.index, block);
          if (block.kind === 'text' && block.text !== '') yield { type: 'text-delta', text: block.text };
          if (block.kind === 'thinking' && block.thinking !== '')
            yield { type: 'reasoning-delta', text: block.thinking };
          break;
        }
        case 'content_block_delta': {
          const block = blocks.get(event.index);
          const delta = event.delta;
          if (!block || !delta) break;
          if (delta.type === 'text_delta' && block.kind === 'text' && delta.text) {
            block.text += delta.text;
            yield { type: 'text-delta', text: delta.text };
          } else if (delta.type === 'thinking_delta' && block.kind === 'thinking' && delta.thinking) {
            block.thinking += delta.thinking;
            yield { type: 'reasoning-delta', text: delta.thinking };
          } else if (delta.type === 'signature_delta' && block.kind === 'thinking' && delta.signature) {
            block.signature += delta.signature;
          } else if (delta.type === 'input_json_delta' && block.kind === 'tool-use' && delta.partial_json) {
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
        case 'message_delta':
          if (typeof event.delta?.stop_reason === 'string') stopReason = event.delta.stop_reason;
          absorbAnthropicUsage(usage, event.usage);
          break;
        case 'message_stop':
          stopped = true;
          break;
        case 'content_block_stop':
          break;
        default: {
          // `ping` never reaches here (the SDK drops it); anything newer is ignored, not fatal.
          const ignored: never = event;
          void ignored;
        }
      }
    }
  } catch (error) {
    yield* failureEvents(mapAnthropicError(error, options));
    return;
  }

  if (options.signal?.aborted) {
    yield* failureEvents(
      new ProviderError({
        api: 'anthropic-messages',
        kind: 'aborted',
        message: 'The request was cancelled.',
      }),
    );
    return;
  }
  if (!stopped) {
    yield* failureEvents(
      new ProviderError({
        api: 'anthropic-messages',
        kind: 'network',
        message: 'The stream ended before the model finished its reply.',
      }),
    );
    return;
  }

  for (const item of completedItems(blocks, { api: 'anthropic-messages', model }))
    yield { type: 'item', item };
  const mapped = mapAnthropicUsage(usage);
  if (mapped) yield { type: 'usage', usage: mapped };
  yield {
    type: 'finish',
    reason: mapAnthropicStopReason(stopReason),
    ...(stopReason !== undefined ? { rawReason: stopReason } : {}),
  };
}

function startBlock(block: RawContentBlock | undefined): Block {
  switch (block?.type) {
    case 'text':
      return { kind: 'text', text: typeof block.text === 'string' ? block.text : '' };
    case 'thinking':
      return {
        kind: 'thinking',
        thinking: typeof block.thinking === 'string' ? block.thinking : '',
        signature: typeof block.signature === 'string' ? block.signature : '',
      };
    case 'redacted_thinking':
      return { kind: 'redacted-thinking', data: typeof block.data === 'string' ? block.data : '' };
    case 'tool_use':
      return { kind: 'tool-use', id: block.id, name: block.name, json: '', startInput: block.input };
    default:
      return { kind: 'other' };
  }
}

type RawContentBlock = Extract<RawMessageStreamEvent, { type: 'content_block_start' }>['content_block'];

function completedItems(blocks: ReadonlyMap<number, Block>, origin: ProviderOrigin): ResponseItem[] {
  const ordered = [...blocks].sort(([a], [b]) => a - b).map(([, block]) => block);
  const reasoning: ReasoningItem[] = [];
  const text: OutputTextPart[] = [];
  const calls: FunctionCallItem[] = [];
  for (const block of ordered) {
    switch (block.kind) {
      case 'thinking':
        if (block.thinking === '' && block.signature === '') break;
        reasoning.push({
          type: 'reasoning',
          summary: [],
          content: [{ type: 'reasoning_text', text: block.thinking }],
          origin,
          provider_data: { signature: block.signature },
        });
        break;
      case 'redacted-thinking':
        reasoning.push({
          type: 'reasoning',
          summary: [],
          origin,
          provider_data: { redacted_data: block.data },
        });
        break;
      case 'text':
        if (block.text !== '') text.push({ type: 'output_text', text: block.text });
        break;
      case 'tool-use':
        calls.push({
          type: 'function_call',
          name: block.name,
          arguments: toolArguments(block),
          call_id: block.id,
        });
        break;
      case 'other':
        break;
      default: {
        const exhaustive: never = block;
        throw new Error(`unknown block ${JSON.stringify(exhaustive)}`);
      }
    }
  }
  const message: ResponseItem[] =
    text.length > 0 ? [{ type: 'message', role: 'assistant', content: text }] : [];
  return [...reasoning, ...message, ...calls];
}

/**
 * The joined `input_json_delta` pieces; a no-argument tool sends one empty piece, so that is `{}`. A
 * server that sent the input whole in `content_block_start` and no pieces gets that input.
 */
function toolArguments(block: Extract<Block, { kind: 'tool-use' }>): string {
  if (block.json.trim() !== '') return block.json;
  const start = block.startInput;
  if (typeof start === 'object' && start !== null && Object.keys(start).length > 0)
    return JSON.stringify(start);
  return '{}';
}
