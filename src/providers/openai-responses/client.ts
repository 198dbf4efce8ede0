/** A `ModelClient` over the official OpenAI SDK's Responses API. */
import type { ClientOptions, ModelClient, ModelRequest, StreamEvent } from '../../protocol/index.js';
import { createOpenAISdk } from '../openai-shared/create-openai-sdk.js';
import { failureEvents, mapOpenAIError } from '../openai-shared/map-openai-error.js';
import { convertToOpenAIResponsesRequest } from './convert-to-openai-responses-input.js';
import { applyChatGptConstraints } from './chatgpt-constraints.js';
import { mapOpenAIResponsesStream } from './map-openai-responses-stream.js';

/**
 * Builds the client; throws `MissingApiKeyError` at once when OpenAI's endpoint is used without
 * `OPENAI_API_KEY`. `stream()` never throws: every failure is an `error` event followed by `finish`.
 */
export function createOpenAIResponsesClient(options: ClientOptions): ModelClient {
  const { sdk, apiKey } = createOpenAISdk(options);
  return {
    api: 'openai-responses',
    model: options.model,
    async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
      let events;
      try {
        const { body } = convertToOpenAIResponsesRequest({
          items: request.items,
          tools: request.tools,
          model: options.model,
          ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
        });
        if (options.endpointKind === 'chatgpt-codex') applyChatGptConstraints(body);
        events = await sdk.responses.create(body, request.signal ? { signal: request.signal } : {});
      } catch (error) {
        yield* failureEvents(mapOpenAIError(error, 'openai-responses', { secret: apiKey }));
        return;
      }
      yield* mapOpenAIResponsesStream(events, {
        model: options.model,
        secret: apiKey,
        ...(request.signal ? { signal: request.signal } : {}),
      });
    },
  };
}
