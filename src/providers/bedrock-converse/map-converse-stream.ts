/** ConverseStream events → canonical stream events. */
import type { ConverseStreamOutput } from '@aws-sdk/client-bedrock-runtime';
import {
  ProviderError,
  type FunctionCallItem,
  type OutputTextPart,
  type ProviderOrigin,
  type ResponseItem,
  type StreamEvent,
  type TokenUsage,
} from '../../protocol/index.js';
import { BEDROCK_API } from './definition.js';
import { failureEvents, mapBedrockError } from './map-converse-error.js';
import { mapConverseStopReason, mapConverseUsage } from './map-converse-usage.js';

export interface MapConverseStreamOptions {
  model: string;
  signal?: AbortSignal;
  /** Secrets scrubbed from error messages. */
  secrets?: readonly string[];
}

/** A content block as it accumulates, by `contentBlockIndex`. */
type Block =
  | { kind: 'text'; text: string }
  | { kind: 'reasoning'; text: string; signature: string; redacted: Uint8Array[] }
  | { kind: 'tool-use'; id: string; name: string; json: string };

/** The exception members an event may carry instead of data (the SDK usually throws them instead). */
const EXCEPTION_MEMBERS = [
  'internalServerException',
  'modelStreamErrorException',
  'validationException',
  'throttlingException',
  'serviceUnavailableException',
] as const;

/**
 * Streams text, reasoning and tool-input deltas as they arrive. The completed items — in block order, a
 * reasoning item per reasoning block (text and signature, or redacted bytes), assistant text merged into
 * one message per run of text blocks, a `function_call` per `toolUse` block — follow once the stream has
 * ended after `messageStop`, then the usage of the `metadata` event: a reply cut off midway records
 * nothing. An exception frame ends the stream with its error. Always exactly one `finish`.
 */
export async function* mapConverseStream(
  events: AsyncIterable<ConverseStreamOutput>,
  options: MapConverseStreamOptions,
): AsyncGenerator<StreamEvent> {
  const blocks = new Map<number, Block>();
  let stopReason: string | undefined;
  let stopped = false;
  let usage: TokenUsage | undefined;
  try {
    for await (const event of events) {
      for (const member of EXCEPTION_MEMBERS) {
        const exception = event[member];
        if (exception)
          throw Object.assign(new Error(exception.message ?? member), {
            name: exceptionName(member),
            $fault: 'server',
          });
      }
      if (event.contentBlockStart) {
        const { start, contentBlockIndex } = event.contentBlockStart;
        const toolUse = start?.toolUse;
        if (toolUse) {
          const block: Block = {
            kind: 'tool-use',
            id: toolUse.toolUseId ?? '',
            name: toolUse.name ?? '',
            json: '',
          };
          blocks.set(contentBlockIndex ?? blocks.size, block);
        }
      } else if (event.contentBlockDelta) {
        yield* absorbDelta(
          blocks,
          event.contentBlockDelta.contentBlockIndex ?? 0,
          event.contentBlockDelta.delta,
        );
      } else if (event.messageStop) {
        stopped = true;
        stopReason = event.messageStop.stopReason;
      } else if (event.metadata) {
        usage = mapConverseUsage(event.metadata.usage) ?? usage;
      }
    }
  } catch (error) {
    yield* failureEvents(mapBedrockError(error, options.secrets ? { secrets: options.secrets } : {}));
    return;
  }
  if (options.signal?.aborted) {
    yield* failureEvents(
      new ProviderError({ api: BEDROCK_API, kind: 'aborted', message: 'The request was cancelled.' }),
    );
    return;
  }
  if (!stopped) {
    yield* failureEvents(
      new ProviderError({
        api: BEDROCK_API,
        kind: 'network',
        message: 'The stream ended before the model finished its reply.',
      }),
    );
    return;
  }
  const origin: ProviderOrigin = { api: BEDROCK_API, model: options.model };
  for (const item of completedItems(blocks, origin)) yield { type: 'item', item };
  if (usage) yield { type: 'usage', usage };
  const hasCalls = [...blocks.values()].some((block) => block.kind === 'tool-use');
  const reason = mapConverseStopReason(stopReason);
  yield {
    type: 'finish',
    reason: reason === 'other' && hasCalls ? 'tool-calls' : reason,
    ...(stopReason !== undefined ? { rawReason: stopReason } : {}),
  };
}

type Delta = NonNullable<ConverseStreamOutput['contentBlockDelta']>['delta'];

/** Folds one delta into its block, yielding what the person may watch. */
function* absorbDelta(blocks: Map<number, Block>, index: number, delta: Delta): Generator<StreamEvent> {
  if (!delta) return;
  const block = blocks.get(index);
  if (delta.text !== undefined) {
    const text = block?.kind === 'text' ? block : { kind: 'text' as const, text: '' };
    blocks.set(index, text);
    text.text += delta.text;
    if (delta.text !== '') yield { type: 'text-delta', text: delta.text };
  } else if (delta.toolUse !== undefined && block?.kind === 'tool-use') {
    const piece = delta.toolUse.input ?? '';
    block.json += piece;
    if (piece !== '')
      yield { type: 'tool-call-delta', callId: block.id, name: block.name, argumentsDelta: piece };
  } else if (delta.reasoningContent !== undefined) {
    const reasoning =
      block?.kind === 'reasoning'
        ? block
        : { kind: 'reasoning' as const, text: '', signature: '', redacted: [] };
    blocks.set(index, reasoning);
    const { text, signature, redactedContent } = delta.reasoningContent;
    if (text !== undefined) {
      reasoning.text += text;
      if (text !== '') yield { type: 'reasoning-delta', text };
    }
    if (signature !== undefined) reasoning.signature += signature;
    if (redactedContent !== undefined) reasoning.redacted.push(redactedContent);
  }
}

/** The blocks as items, in block order; adjacent text blocks make one message. */
function completedItems(blocks: Map<number, Block>, origin: ProviderOrigin): ResponseItem[] {
  const items: ResponseItem[] = [];
  let text: OutputTextPart[] | undefined;
  for (const [, block] of [...blocks.entries()].sort(([a], [b]) => a - b)) {
    if (block.kind === 'text') {
      if (block.text === '') continue;
      if (!text) {
        text = [];
        items.push({ type: 'message', role: 'assistant', content: text });
      }
      text.push({ type: 'output_text', text: block.text });
      continue;
    }
    text = undefined;
    if (block.kind === 'tool-use') items.push(functionCall(block));
    else items.push(reasoningItem(block, origin));
  }
  return items;
}

function functionCall(block: Extract<Block, { kind: 'tool-use' }>): FunctionCallItem {
  return {
    type: 'function_call',
    name: block.name,
    arguments: block.json === '' ? '{}' : block.json,
    call_id: block.id,
  };
}

function reasoningItem(block: Extract<Block, { kind: 'reasoning' }>, origin: ProviderOrigin): ResponseItem {
  const redacted = block.redacted.length > 0 ? Buffer.concat(block.redacted).toString('base64') : undefined;
  const providerData: Record<string, string> = {
    ...(block.signature !== '' ? { signature: block.signature } : {}),
    ...(redacted !== undefined ? { redacted_data: redacted } : {}),
  };
  return {
    type: 'reasoning',
    summary: [],
    content: block.text === '' ? [] : [{ type: 'reasoning_text', text: block.text }],
    origin,
    ...(Object.keys(providerData).length > 0 ? { provider_data: providerData } : {}),
  };
}

/** `throttlingException` → `ThrottlingException`, the name the SDK gives the thrown error. */
function exceptionName(member: string): string {
  return `${member.charAt(0).toUpperCase()}${member.slice(1)}`;
}
