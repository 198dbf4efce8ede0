/** A `ModelClient` over the official Anthropic SDK's Messages API. */
import Anthropic from '@anthropic-ai/sdk';
import {
  type ClientOptions,
  MissingApiKeyError,
  type ModelClient,
  type ModelRequest,
  type StreamEvent,
} from '../../protocol/index.js';
import { convertToAnthropicRequest } from './convert-to-anthropic-messages.js';
import { mapAnthropicError } from './map-anthropic-error.js';
import { mapAnthropicStream } from './map-anthropic-stream.js';

export function createAnthropicClient(options: ClientOptions): ModelClient {
  const apiKey = options.env.ANTHROPIC_API_KEY;
  if (!apiKey) throw new MissingApiKeyError('ANTHROPIC_API_KEY', 'anthropic-messages');
  const baseURL = options.baseUrl ?? (options.env.ANTHROPIC_BASE_URL || undefined);
  // Retries are Cody's (core/session), never the SDK's.
  const sdk = new Anthropic({
    apiKey,
    ...(baseURL ? { baseURL } : {}),
    maxRetries: 0,
    ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
  });
  return {
    api: 'anthropic-messages',
    model: options.model,
    async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
      const { body } = convertToAnthropicRequest({
        items: request.items,
        tools: request.tools,
        model: options.model,
        ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
      });
      let events;
      try {
        events = await sdk.messages.create(body, request.signal ? { signal: request.signal } : {});
      } catch (error) {
        yield { type: 'error', error: mapAnthropicError(error) };
        yield { type: 'finish', reason: 'error' };
        return;
      }
      yield* mapAnthropicStream(events, options.model);
    },
  };
}
