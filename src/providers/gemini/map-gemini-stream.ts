/** Gemini `GenerateContentResponse` chunks → canonical stream events. */
import type { GenerateContentResponse, Part } from '@google/genai';
import {
  ProviderError,
  type FunctionCallItem,
  type ProviderOrigin,
  type ResponseItem,
  type StreamEvent,
  type TokenUsage,
} from '../../protocol/index.js';
import { failureEvents, mapGeminiError } from './map-gemini-error.js';
import { mapGeminiFinishReason, mapGeminiUsage } from './map-gemini-usage.js';

export interface MapGeminiStreamOptions {
  /** The model requested; the chunks' `modelVersion` replaces it when sent. */
  model: string;
  signal?: AbortSignal;
  /** A secret (the API key) scrubbed from error messages. */
  secret?: string;
}

/** A function call as it arrived (whole: the Gemini API never splits call arguments). */
interface ReceivedCall {
  callId: string;
  name: string;
  arguments: string;
  signature: string | undefined;
}

/**
 * Streams text and thought deltas as they arrive, and each function call (which arrives whole) as one
 * delta. Once the stream has ended with a finish reason, the completed items follow: the thought summary
 * as reasoning, the assistant text as one message, then the calls — each carrying the `thoughtSignature`
 * of the part it came on (an empty-text part's signature goes to the message). A stream that ends
 * without a finish reason was cut off and records nothing. Always exactly one `finish`.
 */
// eslint-disable-next-line max-lines-per-function -- one loop over Gemini's chunks and their part types, read top to bottom like the wire
export async function* mapGeminiStream(
  chunks: AsyncIterable<GenerateContentResponse>,
  options: MapGeminiStreamOptions,
): AsyncGenerator<StreamEvent> {
  let model = options.model;
  let text = '';
  let textSignature: string | undefined;
  let thought = '';
  let thoughtSignature: string | undefined;
  const calls: ReceivedCall[] = [];
  let usage: TokenUsage | undefined;
  let finishReason: string | undefined;
  let blockReason: string | undefined;
  try {
    for await (const chunk of chunks) {
      if (typeof chunk.modelVersion === 'string' && chunk.modelVersion !== '') model = chunk.modelVersion;
      if (chunk.usageMetadata) usage = mapGeminiUsage(chunk.usageMetadata);
      const blocked: string | undefined = chunk.promptFeedback?.blockReason;
      if (blocked) blockReason = blocked;
      // Cody never asks for several candidates; the first is the reply.
      const candidate = chunk.candidates?.[0];
      const reason: string | undefined = candidate?.finishReason;
      if (reason) finishReason = reason;
      for (const part of candidate?.content?.parts ?? []) {
        if (!part) continue;
        if (part.functionCall) {
          const call = receivedCall(part);
          calls.push(call);
          yield {
            type: 'tool-call-delta',
            callId: call.callId,
            name: call.name,
            argumentsDelta: call.arguments,
          };
        } else if (part.thought) {
          if (typeof part.text === 'string' && part.text !== '') {
            thought += part.text;
            yield { type: 'reasoning-delta', text: part.text };
          }
          if (part.thoughtSignature) thoughtSignature = part.thoughtSignature;
        } else if (typeof part.text === 'string') {
          if (part.text !== '') {
            text += part.text;
            yield { type: 'text-delta', text: part.text };
          }
          if (part.thoughtSignature) textSignature = part.thoughtSignature;
        }
      }
    }
  } catch (error) {
    yield* failureEvents(mapGeminiError(error, options));
    return;
  }

  if (options.signal?.aborted) {
    yield* failureEvents(
      new ProviderError({ api: 'gemini', kind: 'aborted', message: 'The request was cancelled.' }),
    );
    return;
  }
  if (finishReason === undefined && blockReason === undefined) {
    yield* failureEvents(
      new ProviderError({
        api: 'gemini',
        kind: 'network',
        message: 'The stream ended before the model finished its reply.',
      }),
    );
    return;
  }

  const origin: ProviderOrigin = { api: 'gemini', model };
  const items: ResponseItem[] = [];
  if (thought !== '' || thoughtSignature) {
    items.push({
      type: 'reasoning',
      summary: thought === '' ? [] : [{ type: 'summary_text', text: thought }],
      origin,
      ...(thoughtSignature ? { provider_data: { thoughtSignature } } : {}),
    });
  }
  // With calls and no text, a signature on an empty text part is not kept: Gemini checks only the
  // signatures on function calls, and an empty message would only clutter the history.
  if (text !== '' || (textSignature && calls.length === 0)) {
    items.push({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text }],
      ...(textSignature ? { origin, provider_data: { thoughtSignature: textSignature } } : {}),
    });
  }
  for (const call of calls) items.push(functionCallItem(call, origin));
  for (const item of items) yield { type: 'item', item };
  if (usage) yield { type: 'usage', usage };
  if (blockReason !== undefined && finishReason === undefined) {
    // The prompt itself was blocked: no candidate at all.
    yield { type: 'finish', reason: 'content-filter', rawReason: blockReason };
    return;
  }
  yield {
    type: 'finish',
    reason: mapGeminiFinishReason(finishReason, calls.length > 0),
    ...(finishReason !== undefined ? { rawReason: finishReason } : {}),
  };
}

function receivedCall(part: Part): ReceivedCall {
  const call = part.functionCall ?? {};
  const id = typeof call.id === 'string' && call.id !== '' ? call.id : generatedCallId();
  const args = typeof call.args === 'object' && call.args !== null ? call.args : {};
  return {
    callId: id,
    name: typeof call.name === 'string' ? call.name : '',
    arguments: JSON.stringify(args),
    signature: part.thoughtSignature || undefined,
  };
}

function functionCallItem(call: ReceivedCall, origin: ProviderOrigin): FunctionCallItem {
  return {
    type: 'function_call',
    name: call.name,
    arguments: call.arguments,
    call_id: call.callId,
    ...(call.signature ? { origin, provider_data: { thoughtSignature: call.signature } } : {}),
  };
}

/**
 * An id for a call Gemini sent without one (the Gemini API usually does). It must be unique across the
 * whole conversation: the history pairs calls with outputs by id.
 */
function generatedCallId(): string {
  return `call_${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`;
}
