/** Chat Completions stream chunks → canonical stream events. */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ProviderError, type ResponseItem, type StreamEvent, type TokenUsage } from '../../protocol/index.js';
import { extraField, type Lenient, nonEmptyString } from '../openai-shared/lenient.js';
import { failureEvents, mapOpenAIError } from '../openai-shared/map-openai-error.js';
import { mapOpenAIChatFinishReason, mapOpenAIChatUsage } from './map-openai-chat-usage.js';
import { chatReasoningItem, type ReasoningField } from './reasoning-content.js';

/** Context the Chat stream mapper cannot read from the chunks themselves. */
export interface MapOpenAIChatStreamOptions {
  /** The request's signal: the SDK ends a cancelled stream silently, so cancellation is read from here. */
  signal?: AbortSignal;
  /** A secret (the API key) scrubbed from error messages. */
  secret?: string;
  /** The model asked for: recorded reasoning is tagged with it (replayed only to its own family). */
  model?: string;
}

interface ToolCallBuffer {
  id: string;
  name: string;
  arguments: string;
}

type LenientChunk = Lenient<ChatCompletionChunk>;
type LenientToolCall = Lenient<ChatCompletionChunk.Choice.Delta.ToolCall>;

/**
 * Streams text, reasoning and tool-call deltas as they arrive. The completed items (one assistant message
 * with all the text, then one `function_call` per call in index order), the usage and the finish reason
 * follow only once the model has finished: a reply cut off midway is discarded, never half-recorded.
 * Always exactly one `finish`.
 */
// eslint-disable-next-line max-lines-per-function -- one loop over Chat Completions chunks and their delta kinds, read top to bottom like the wire
export async function* mapOpenAIChatStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  options: MapOpenAIChatStreamOptions = {},
): AsyncGenerator<StreamEvent> {
  let text = '';
  const reasoning = { text: '', field: undefined as ReasoningField | undefined };
  const calls = new Map<number, ToolCallBuffer>();
  let lastCallIndex = 0;
  let finishReason: string | undefined;
  let usage: TokenUsage | undefined;

  const bufferFor = (call: LenientToolCall, position: number): ToolCallBuffer => {
    const id = nonEmptyString(call.id);
    const nextIndex = (): number => Math.max(-1, ...calls.keys()) + 1;
    let index: number;
    if (typeof call.index === 'number') {
      index = call.index;
      // OpenAI sends a call's id once; a new id at a used index is a server numbering every call 0.
      const existing = calls.get(index);
      if (id !== undefined && existing && existing.id !== id && existing.arguments !== '')
        index = nextIndex();
    }
    // Some compatible servers leave out `index`: tell calls apart by id, else continue the last one.
    else if (id !== undefined) index = [...calls].find(([, buffer]) => buffer.id === id)?.[0] ?? nextIndex();
    else index = calls.size > 0 ? lastCallIndex : position;
    lastCallIndex = index;
    let buffer = calls.get(index);
    if (!buffer) {
      buffer = { id: id ?? generatedCallId(), name: '', arguments: '' };
      calls.set(index, buffer);
    } else if (id !== undefined) buffer.id = id;
    return buffer;
  };

  try {
    for await (const raw of chunks) {
      const chunk: LenientChunk = raw;
      if (chunk.usage) usage = mapOpenAIChatUsage(chunk.usage);
      for (const choice of chunk.choices ?? []) {
        // Cody never asks for n > 1; a second choice would be another reply, not more of this one.
        if (!choice || (typeof choice.index === 'number' && choice.index !== 0)) continue;
        const delta = choice.delta;
        // vLLM, DeepSeek and Ollama stream reasoning in fields OpenAI does not have.
        const reasoningContent = nonEmptyString(extraField(delta, 'reasoning_content'));
        const thought = reasoningContent ?? nonEmptyString(extraField(delta, 'reasoning'));
        if (thought !== undefined) {
          reasoning.text += thought;
          reasoning.field ??= reasoningContent !== undefined ? 'reasoning_content' : 'reasoning';
          yield { type: 'reasoning-delta', text: thought };
        }
        for (const piece of [delta?.content, delta?.refusal]) {
          const visible = nonEmptyString(piece);
          if (visible === undefined) continue;
          text += visible;
          yield { type: 'text-delta', text: visible };
        }
        for (const [position, call] of (delta?.tool_calls ?? []).entries()) {
          if (!call) continue;
          const buffer = bufferFor(call, position);
          const name = nonEmptyString(call.function?.name);
          // OpenAI sends the name once; some servers repeat it on every piece.
          if (name !== undefined && buffer.name === '') buffer.name = name;
          const argumentsDelta = nonEmptyString(call.function?.arguments);
          if (argumentsDelta === undefined) continue;
          buffer.arguments += argumentsDelta;
          yield { type: 'tool-call-delta', callId: buffer.id, name: buffer.name, argumentsDelta };
        }
        const reason = nonEmptyString(choice.finish_reason);
        if (reason !== undefined) finishReason = reason;
      }
    }
  } catch (error) {
    yield* failureEvents(mapOpenAIError(error, 'openai-chat', options));
    return;
  }

  if (options.signal?.aborted) {
    yield* failureEvents(
      new ProviderError({ api: 'openai-chat', kind: 'aborted', message: 'The request was cancelled.' }),
    );
    return;
  }
  if (finishReason === undefined) {
    // Every complete reply ends with a finish_reason; without one the connection ended early.
    yield* failureEvents(
      new ProviderError({
        api: 'openai-chat',
        kind: 'network',
        message: 'The stream ended before the model finished its reply.',
      }),
    );
    return;
  }

  if (reasoning.field !== undefined && options.model !== undefined)
    yield { type: 'item', item: chatReasoningItem(reasoning.text, reasoning.field, options.model) };
  for (const item of completedItems(text, calls)) yield { type: 'item', item };
  if (usage) yield { type: 'usage', usage };
  yield { type: 'finish', reason: mapOpenAIChatFinishReason(finishReason), rawReason: finishReason };
}

function completedItems(text: string, calls: ReadonlyMap<number, ToolCallBuffer>): ResponseItem[] {
  const items: ResponseItem[] = [];
  if (text !== '')
    items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
  for (const [, call] of [...calls].sort(([a], [b]) => a - b)) {
    items.push({
      type: 'function_call',
      name: call.name,
      arguments: call.arguments === '' ? '{}' : call.arguments,
      call_id: call.id,
    });
  }
  return items;
}

/**
 * An id for a call the server sent without one. It must be unique across the whole conversation: the
 * history pairs calls with outputs by id, so `call_0` in every turn would collide.
 */
function generatedCallId(): string {
  return `call_${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`;
}
