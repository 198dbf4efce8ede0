/** Gemini `GenerateContentResponse` chunks → canonical stream events. */
import type { GenerateContentResponse, Part } from '@google/genai';
import { randomUUID } from 'node:crypto';
import {
  ProviderError,
  type FinishReason,
  type MessageItem,
  type ResponseItem,
  type StreamEvent,
  type TokenUsage,
} from '../../protocol/index.js';
import { mapGeminiError } from './map-gemini-error.js';

export function mapGeminiFinishReason(reason: string | undefined, madeCalls: boolean): FinishReason {
  switch (reason) {
    case undefined:
      return madeCalls ? 'tool-calls' : 'other';
    case 'STOP':
      return madeCalls ? 'tool-calls' : 'stop';
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
      return 'content-filter';
    default:
      return 'other';
  }
}

type UsageMetadata = NonNullable<GenerateContentResponse['usageMetadata']>;

export function mapGeminiUsage(usage: UsageMetadata): TokenUsage {
  const result: TokenUsage = {};
  if (typeof usage.promptTokenCount === 'number') result.inputTokens = usage.promptTokenCount;
  const candidates = usage.candidatesTokenCount ?? 0;
  const thoughts = usage.thoughtsTokenCount ?? 0;
  if (usage.candidatesTokenCount !== undefined || usage.thoughtsTokenCount !== undefined)
    result.outputTokens = candidates + thoughts;
  if (usage.thoughtsTokenCount !== undefined) result.reasoningTokens = thoughts;
  if (typeof usage.cachedContentTokenCount === 'number')
    result.cachedInputTokens = usage.cachedContentTokenCount;
  if (typeof usage.totalTokenCount === 'number') result.totalTokens = usage.totalTokenCount;
  return result;
}

/**
 * Text and thought deltas stream as they arrive; function calls arrive whole. Items are emitted once the
 * stream ends cleanly: thought summary, then the assistant text (carrying a thought signature when one
 * came with it), then the calls. Exactly one `finish`.
 */
export async function* mapGeminiStream(
  chunks: AsyncIterable<GenerateContentResponse>,
  model: string,
): AsyncGenerator<StreamEvent> {
  let text = '';
  let thought = '';
  let textSignature: string | undefined;
  let thoughtSignature: string | undefined;
  const calls: ResponseItem[] = [];
  let usage: TokenUsage | undefined;
  let finishReason: string | undefined;
  let responseModel = model;
  const origin = (): { api: 'gemini'; model: string } => ({ api: 'gemini', model: responseModel });
  try {
    for await (const chunk of chunks) {
      if (chunk.modelVersion) responseModel = chunk.modelVersion;
      if (chunk.usageMetadata) usage = mapGeminiUsage(chunk.usageMetadata);
      const candidate = chunk.candidates?.[0];
      if (candidate?.finishReason) finishReason = candidate.finishReason;
      for (const part of (candidate?.content?.parts ?? []) as Part[]) {
        if (part.functionCall) {
          const callId = part.functionCall.id ?? `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
          const args = JSON.stringify(part.functionCall.args ?? {});
          const name = part.functionCall.name ?? '';
          yield { type: 'tool-call-delta', callId, name, argumentsDelta: args };
          calls.push({
            type: 'function_call',
            name,
            arguments: args,
            call_id: callId,
            origin: origin(),
            ...(part.thoughtSignature ? { provider_data: { thoughtSignature: part.thoughtSignature } } : {}),
          });
        } else if (part.thought) {
          if (part.text) {
            thought += part.text;
            yield { type: 'reasoning-delta', text: part.text };
          }
          if (part.thoughtSignature) thoughtSignature = part.thoughtSignature;
        } else {
          if (part.text) {
            text += part.text;
            yield { type: 'text-delta', text: part.text };
          }
          // Gemini 3 may put the signature on an empty text part at the end.
          if (part.thoughtSignature) textSignature = part.thoughtSignature;
        }
      }
    }
  } catch (error) {
    yield { type: 'error', error: mapGeminiError(error) };
    yield { type: 'finish', reason: 'error' };
    return;
  }
  if (finishReason === undefined) {
    // Every complete Gemini stream ends with a finishReason; without one the connection was cut.
    yield {
      type: 'error',
      error: new ProviderError({
        api: 'gemini',
        kind: 'network',
        message: 'The stream ended before the response was complete.',
      }),
    };
    yield { type: 'finish', reason: 'error' };
    return;
  }
  const items: ResponseItem[] = [];
  if (thought !== '') {
    items.push({
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: thought }],
      origin: origin(),
      ...(thoughtSignature ? { provider_data: { thoughtSignature } } : {}),
    });
  }
  if (text !== '' || (textSignature && calls.length === 0)) {
    const message: MessageItem = {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text }],
    };
    if (textSignature) {
      message.origin = origin();
      message.provider_data = { thoughtSignature: textSignature };
    }
    if (text !== '') items.push(message);
  }
  items.push(...calls);
  for (const item of items) yield { type: 'item', item };
  if (usage) yield { type: 'usage', usage };
  yield {
    type: 'finish',
    reason: mapGeminiFinishReason(finishReason, calls.length > 0),
    ...(finishReason ? { rawReason: finishReason } : {}),
  };
}
