/** A `ModelClient` over the official Google Gen AI SDK (Gemini API, `streamGenerateContent?alt=sse`). */
import { GoogleGenAI } from '@google/genai';
import {
  type ClientOptions,
  type ModelClient,
  type ModelRequest,
  type StreamEvent,
} from '../../protocol/index.js';
import { missingApiKey, resolveApiKey, resolveBaseUrl } from '../shared/endpoint.js';
import { nodeHttpFetch } from '../shared/node-http-fetch.js';
import { convertToGeminiRequest } from './convert-to-gemini-request.js';
import { failureEvents, mapGeminiError } from './map-gemini-error.js';
import { mapGeminiStream } from './map-gemini-stream.js';
import { conversionInput } from '../shared/conversion-input.js';

/**
 * Builds the client; throws `MissingApiKeyError` at once without `GEMINI_API_KEY` (or `GOOGLE_API_KEY`).
 * `stream()` never throws: every failure is an `error` event followed by `finish`.
 */
export function createGeminiClient(options: ClientOptions): ModelClient {
  const apiKey = options.apiKey ?? resolveApiKey(options);
  if (apiKey === undefined) throw missingApiKey('gemini');
  const sdk = new GoogleGenAI({
    apiKey,
    // The Gemini API, never Vertex AI, whatever GOOGLE_GENAI_USE_VERTEXAI says.
    vertexai: false,
    // No `retryOptions`: without them the SDK makes exactly one attempt. Retry is owned by core's
    // Session, in exactly one place.
    httpOptions: {
      baseUrl: resolveBaseUrl(options),
      fetch: nodeHttpFetch,
      ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
    },
  });
  return {
    api: 'gemini',
    model: options.model,
    async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
      let chunks;
      try {
        const { body } = convertToGeminiRequest(conversionInput(options, request));
        chunks = await sdk.models.generateContentStream({
          ...body,
          config: {
            ...body.config,
            // Continuation re-sends the request on its own when a stream ends early; that is a retry.
            automaticContinuation: false,
            ...(request.signal ? { abortSignal: request.signal } : {}),
          },
        });
      } catch (error) {
        yield* failureEvents(mapGeminiError(error, { secret: apiKey }));
        return;
      }
      yield* mapGeminiStream(chunks, {
        model: options.model,
        secret: apiKey,
        ...(request.signal ? { signal: request.signal } : {}),
      });
    },
  };
}
