/** A `ModelClient` over the official OpenAI SDK's Chat Completions API. */
import OpenAI from 'openai';
import {
  type ClientOptions,
  MissingApiKeyError,
  type ModelClient,
  type ModelRequest,
  type StreamEvent,
} from '../../protocol/index.js';
import {
  isOfficialOpenAIEndpoint,
  mapOpenAIError,
  resolveOpenAIBaseUrl,
} from '../openai-shared/map-openai-error.js';
import { convertToOpenAIChatRequest } from './convert-to-openai-chat-messages.js';
import { mapOpenAIChatStream } from './map-openai-chat-stream.js';

/** Local OpenAI-compatible servers (Ollama, vLLM, LM Studio) ignore the key, but the SDK insists on one. */
const LOCAL_SERVER_PLACEHOLDER_KEY = 'no-key-needed';

export function createOpenAIChatSdk(options: ClientOptions): OpenAI {
  const baseURL = resolveOpenAIBaseUrl(options.baseUrl, options.env);
  let apiKey = options.env.OPENAI_API_KEY;
  if (!apiKey) {
    if (isOfficialOpenAIEndpoint(baseURL)) throw new MissingApiKeyError('OPENAI_API_KEY', options.api);
    apiKey = LOCAL_SERVER_PLACEHOLDER_KEY;
  }
  // Retries are Cody's (core/session), never the SDK's: one 429 must not become nine requests.
  return new OpenAI({
    apiKey,
    ...(baseURL ? { baseURL } : {}),
    maxRetries: 0,
    ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
  });
}

export function createOpenAIChatClient(options: ClientOptions): ModelClient {
  const sdk = createOpenAIChatSdk(options);
  return {
    api: 'openai-chat',
    model: options.model,
    async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
      const { body } = convertToOpenAIChatRequest({
        items: request.items,
        tools: request.tools,
        model: options.model,
        ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
      });
      let chunks;
      try {
        chunks = await sdk.chat.completions.create(body, request.signal ? { signal: request.signal } : {});
      } catch (error) {
        yield { type: 'error', error: mapOpenAIError(error, 'openai-chat') };
        yield { type: 'finish', reason: 'error' };
        return;
      }
      yield* mapOpenAIChatStream(chunks, options.model);
    },
  };
}
