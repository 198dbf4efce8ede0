/** A `ModelClient` over the official OpenAI SDK's Responses API. */
import type {
  ClientOptions,
  ModelClient,
  ModelRequest,
  ProviderError,
  StreamEvent,
} from '../../protocol/index.js';
import { createOpenAISdk } from '../openai-shared/create-openai-sdk.js';
import { failureEvents, mapOpenAIError } from '../openai-shared/map-openai-error.js';
import { applyChatGptConstraints } from './chatgpt-constraints.js';
import {
  convertToOpenAIResponsesRequest,
  isOpenAIReasoningModelName,
} from './convert-to-openai-responses-input.js';
import { mapOpenAIResponsesStream } from './map-openai-responses-stream.js';
import { conversionInput } from '../shared/conversion-input.js';

/**
 * OpenAI's answer (400) to encrypted reasoning another account or organisation produced, or that it can
 * no longer read: the request is sent once more without any encrypted reasoning.
 */
export const INVALID_ENCRYPTED_CONTENT = 'invalid_encrypted_content';

/**
 * Builds the client; throws `MissingApiKeyError` at once when OpenAI's endpoint is used without
 * `OPENAI_API_KEY`. `stream()` never throws: every failure is an `error` event followed by `finish`.
 */
export function createOpenAIResponsesClient(options: ClientOptions): ModelClient {
  const { sdk, apiKey } = createOpenAISdk(options);
  const reasoning = options.reasoning ?? isOpenAIReasoningModelName(options.model);
  const open = async (request: ModelRequest, withoutEncryptedReasoning: boolean) => {
    const { body } = convertToOpenAIResponsesRequest({
      ...conversionInput(options, request),
      reasoning,
      ...(withoutEncryptedReasoning ? { withoutEncryptedReasoning } : {}),
    });
    if (options.endpointKind === 'chatgpt-codex') applyChatGptConstraints(body);
    return sdk.responses.create(body, request.signal ? { signal: request.signal } : {});
  };
  // Once refused, this client sends no encrypted reasoning again: the same items would be refused again.
  let refused = false;
  return {
    api: 'openai-responses',
    model: options.model,
    async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
      let events;
      try {
        try {
          events = await open(request, refused);
        } catch (error) {
          // The refusal comes before any output, so sending again cannot show anything twice.
          if (refused || !isInvalidEncryptedContent(mapOpenAIError(error, 'openai-responses'))) throw error;
          refused = true;
          events = await open(request, true);
        }
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

function isInvalidEncryptedContent(error: ProviderError): boolean {
  return error.code === INVALID_ENCRYPTED_CONTENT;
}
