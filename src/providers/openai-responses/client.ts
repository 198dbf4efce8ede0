/** A `ModelClient` over the official OpenAI SDK's Responses API. */
import type { ClientOptions, ModelClient, ModelRequest, StreamEvent } from '../../protocol/index.js';
import { createOpenAIChatSdk } from '../openai-chat/client.js';
import { mapOpenAIError } from '../openai-shared/map-openai-error.js';
import { convertToOpenAIResponsesRequest } from './convert-to-openai-responses-input.js';
import { mapOpenAIResponsesStream } from './map-openai-responses-stream.js';

export function createOpenAIResponsesClient(options: ClientOptions): ModelClient {
  const sdk = createOpenAIChatSdk(options);
  return {
    api: 'openai-responses',
    model: options.model,
    async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
      const { body } = convertToOpenAIResponsesRequest({
        items: request.items,
        tools: request.tools,
        model: options.model,
        ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
      });
      let events;
      try {
        events = await sdk.responses.create(body, request.signal ? { signal: request.signal } : {});
      } catch (error) {
        yield { type: 'error', error: mapOpenAIError(error, 'openai-responses') };
        yield { type: 'finish', reason: 'error' };
        return;
      }
      yield* mapOpenAIResponsesStream(events, options.model);
    },
  };
}
