/** Responses API stream events → canonical stream events. */
import type { Response, ResponseOutputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { ProviderError, type ResponseItem, type StreamEvent } from '../../protocol/index.js';
import { type Lenient, nonEmptyString } from '../openai-shared/lenient.js';
import { failureEvents, mapOpenAIError, mapOpenAIErrorPayload } from '../openai-shared/map-openai-error.js';
import {
  mapOpenAIResponsesFinishReason,
  mapOpenAIResponsesOutputItem,
  mapOpenAIResponsesUsage,
} from './map-openai-responses-output-item.js';

/** Context the Responses stream mapper cannot read from the events themselves. */
export interface MapOpenAIResponsesStreamOptions {
  /** The model requested; replaced by the one the response reports (the origin of reasoning items). */
  model: string;
  /** The request's signal: the SDK ends a cancelled stream silently, so cancellation is read from here. */
  signal?: AbortSignal;
  /** A secret (the API key) scrubbed from error messages. */
  secret?: string;
}

/** Separates reasoning summary parts in the streamed text, as they are separate paragraphs. */
const SUMMARY_PART_SEPARATOR = '\n\n';

/**
 * Deltas stream as they arrive. Completed items are held until the response ends normally
 * (`response.completed` or `response.incomplete`) and then emitted in output order, followed by usage and
 * `finish`; a response that fails midway (`error`, `response.failed`, a dropped connection) records
 * nothing. Always exactly one `finish`.
 */
// eslint-disable-next-line max-lines-per-function -- one switch over the Responses API's stream event types, read top to bottom like the wire
export async function* mapOpenAIResponsesStream(
  events: AsyncIterable<ResponseStreamEvent>,
  options: MapOpenAIResponsesStreamOptions,
): AsyncGenerator<StreamEvent> {
  // Raw until the end, so every item's origin names the model the finished response reported.
  const completed = new Map<number, Lenient<ResponseOutputItem>>();
  const calls = new Map<string, { callId: string; name: string }>();
  let model = options.model;
  const fail = (payload: unknown, fallback: string): StreamEvent[] =>
    failureEvents(mapOpenAIErrorPayload(payload, 'openai-responses', fallback));

  try {
    for await (const raw of events) {
      const event: Lenient<ResponseStreamEvent> = raw;
      switch (event.type) {
        case 'response.created':
        case 'response.in_progress':
        case 'response.queued':
          model = event.response?.model || model;
          break;
        case 'response.output_text.delta':
        case 'response.refusal.delta': {
          const text = nonEmptyString(event.delta);
          if (text !== undefined) yield { type: 'text-delta', text };
          break;
        }
        case 'response.reasoning_summary_part.added':
          if (typeof event.summary_index === 'number' && event.summary_index > 0) {
            yield { type: 'reasoning-delta', text: SUMMARY_PART_SEPARATOR };
          }
          break;
        case 'response.reasoning_summary_text.delta':
        case 'response.reasoning_text.delta': {
          const text = nonEmptyString(event.delta);
          if (text !== undefined) yield { type: 'reasoning-delta', text };
          break;
        }
        case 'response.output_item.added':
          if (event.item?.type === 'function_call' && event.item.id) {
            calls.set(event.item.id, {
              callId: event.item.call_id ?? event.item.id,
              name: event.item.name ?? '',
            });
          }
          break;
        case 'response.function_call_arguments.delta': {
          const argumentsDelta = nonEmptyString(event.delta);
          if (argumentsDelta === undefined) break;
          const call = event.item_id ? calls.get(event.item_id) : undefined;
          yield {
            type: 'tool-call-delta',
            callId: call?.callId ?? event.item_id ?? '',
            name: call?.name ?? '',
            argumentsDelta,
          };
          break;
        }
        case 'response.output_item.done': {
          const index = typeof event.output_index === 'number' ? event.output_index : completed.size;
          if (event.item) completed.set(index, event.item);
          break;
        }
        case 'response.completed':
        case 'response.incomplete': {
          model = event.response?.model || model;
          const items = finalItems(completed, event.response, model);
          for (const item of items) yield { type: 'item', item };
          if (event.response?.usage) {
            yield { type: 'usage', usage: mapOpenAIResponsesUsage(event.response.usage) };
          }
          const status = event.type === 'response.completed' ? 'completed' : 'incomplete';
          yield { type: 'finish', ...mapOpenAIResponsesFinishReason(status, event.response, items) };
          return;
        }
        case 'response.failed':
          yield* fail(event.response?.error, 'The response failed.');
          return;
        case 'error':
          // The SDK throws for `{error: {...}}` payloads; this is the older flat shape.
          yield* fail(event, 'The response failed.');
          return;
        default:
          // Events Cody does not need (done markers, annotations, hosted tools, events newer than this
          // code) are ignored, so a new API event never breaks a turn.
          break;
      }
    }
  } catch (error) {
    yield* failureEvents(mapOpenAIError(error, 'openai-responses', options));
    return;
  }
  yield* failureEvents(
    options.signal?.aborted
      ? new ProviderError({ api: 'openai-responses', kind: 'aborted', message: 'The request was cancelled.' })
      : new ProviderError({
          api: 'openai-responses',
          kind: 'network',
          message: 'The stream ended before the response completed.',
        }),
  );
}

/** The items of a finished response in output order; its final `output` when no item was streamed. */
function finalItems(
  completed: ReadonlyMap<number, Lenient<ResponseOutputItem>>,
  response: Lenient<Response> | null | undefined,
  model: string,
): ResponseItem[] {
  const outputs =
    completed.size > 0
      ? [...completed].sort(([a], [b]) => a - b).map(([, item]) => item)
      : (response?.output ?? []);
  return outputs.flatMap((output) => {
    const item = output ? mapOpenAIResponsesOutputItem(output, model) : undefined;
    return item ? [item] : [];
  });
}
