/** A `ModelClient` over the official Google Gen AI SDK (Gemini API, `streamGenerateContent?alt=sse`). */
import { GoogleGenAI } from '@google/genai';
import {
  type ClientOptions,
  MissingApiKeyError,
  type ModelClient,
  type ModelRequest,
  type StreamEvent,
} from '../../protocol/index.js';
import { convertToGeminiRequest } from './convert-to-gemini-contents.js';
import { mapGeminiError } from './map-gemini-error.js';
import { mapGeminiStream } from './map-gemini-stream.js';

export function createGeminiClient(options: ClientOptions): ModelClient {
  const apiKey = options.env.GEMINI_API_KEY || options.env.GOOGLE_API_KEY;
  if (!apiKey) throw new MissingApiKeyError('GEMINI_API_KEY', 'gemini');
  const baseUrl = options.baseUrl ?? (options.env.GOOGLE_GEMINI_BASE_URL || undefined);
  // No retryOptions: the SDK then makes exactly one attempt; retries are Cody's (core/session).
  const sdk = new GoogleGenAI({
    apiKey,
    httpOptions: {
      ...(baseUrl ? { baseUrl } : {}),
      ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
    },
  });
  return {
    api: 'gemini',
    model: options.model,
    async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
      const { body } = convertToGeminiRequest({
        items: request.items,
        tools: request.tools,
        model: options.model,
        ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
      });
      let chunks;
      try {
        chunks = await sdk.models.generateContentStream(body);
      } catch (error) {
        yield { type: 'error', error: mapGeminiError(error) };
        yield { type: 'finish', reason: 'error' };
        return;
      }
      yield* mapGeminiStream(chunks, options.model);
    },
  };
}
