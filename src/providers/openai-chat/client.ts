/** A `ModelClient` over the official OpenAI SDK's Chat Completions API (and compatible servers). */
import type { ClientOptions, ModelClient, ModelRequest, StreamEvent } from '../../protocol/index.js';
import { createOpenAISdk } from '../openai-shared/create-openai-sdk.js';
import { failureEvents, mapOpenAIError } from '../openai-shared/map-openai-error.js';
import { convertToOpenAIChatRequest } from './convert-to-openai-chat-messages.js';
import { mapOpenAIChatStream } from './map-openai-chat-stream.js';
import { conversionInput } from '../shared/conversion-input.js';

/**
 * Builds the client; throws `MissingApiKeyError` at once when OpenAI's endpoint is used without
 * `OPENAI_API_KEY`. `stream()` never throws: every failure is an `error` event followed by `finish`.
 */
export function createOpenAIChatClient(options: ClientOptions): ModelClient {
  const { sdk, apiKey } = createOpenAISdk(options);
  return {
    api: 'openai-chat',
    model: options.model,
    async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
      let chunks;
      try {
        const { body } = convertToOpenAIChatRequest(conversionInput(options, request));
        chunks = await sdk.chat.completions.create(body, request.signal ? { signal: request.signal } : {});
      } catch (error) {
        yield* failureEvents(mapOpenAIError(error, 'openai-chat', { secret: apiKey }));
        return;
      }
      yield* mapOpenAIChatStream(chunks, {
        secret: apiKey,
        model: options.model,
        ...(request.signal ? { signal: request.signal } : {}),
      });
    },
  };
}
