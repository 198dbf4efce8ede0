/** A `ModelClient` over the official Anthropic SDK's Messages API. */
import Anthropic from '@anthropic-ai/sdk';
import {
  type ClientOptions,
  type ModelClient,
  type ModelRequest,
  type StreamEvent,
} from '../../protocol/index.js';
import { bearerFetch } from '../shared/bearer-fetch.js';
import { missingApiKey, resolveApiKey, resolveBaseUrl } from '../shared/endpoint.js';
import { explainClaudeRefusal } from './claude-oauth-refusal.js';
import { nodeHttpFetch } from '../shared/node-http-fetch.js';
import { INTERLEAVED_THINKING_BETA, needsInterleavedBeta } from './anthropic-thinking.js';
import { convertToAnthropicRequest } from './convert-to-anthropic-messages.js';
import { failureEvents, mapAnthropicError } from './map-anthropic-error.js';
import { mapAnthropicStream } from './map-anthropic-stream.js';
import { conversionInput } from '../shared/conversion-input.js';

/**
 * Builds the client; throws `MissingApiKeyError` at once without `ANTHROPIC_API_KEY`. `stream()` never
 * throws: every failure is an `error` event followed by `finish`.
 */
export function createAnthropicClient(options: ClientOptions): ModelClient {
  const apiKey = options.bearer ? undefined : (options.apiKey ?? resolveApiKey(options));
  if (!options.bearer && apiKey === undefined) throw missingApiKey('anthropic-messages');
  const sdk = new Anthropic({
    // A key (or token) passed here is the SDK's only credential: it reads no ANTHROPIC_AUTH_TOKEN or profile.
    // A signed-in token is set per request by bearerFetch, which never sends x-api-key.
    ...(options.bearer
      ? {
          apiKey: null,
          authToken: 'signed-in',
        }
      : { apiKey }),
    // Requests go over node:http (see node-http-fetch.ts); a signed-in bearer wraps that same transport.
    fetch: options.bearer
      ? bearerFetch(options.bearer, { explainRefusal: explainClaudeRefusal, fetch: nodeHttpFetch })
      : nodeHttpFetch,
    ...(options.headers ? { defaultHeaders: { ...options.headers } } : {}),
    baseURL: resolveBaseUrl(options),
    // Retry is owned by core's Session, in exactly one place: SDK retries on top would turn one 429
    // into nine requests, and cannot see a stream that dies after tokens were shown.
    maxRetries: 0,
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
  });
  return {
    api: 'anthropic-messages',
    model: options.model,
    async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
      let events;
      try {
        const { body } = convertToAnthropicRequest(conversionInput(options, request));
        const headers = betaHeaders(options, body.thinking?.type === 'enabled');
        events = await sdk.messages.create(body, {
          ...(request.signal ? { signal: request.signal } : {}),
          ...(headers ? { headers } : {}),
        });
      } catch (error) {
        yield* failureEvents(mapAnthropicError(error, { secret: apiKey ?? '' }));
        return;
      }
      yield* mapAnthropicStream(events, {
        model: options.model,
        secret: apiKey ?? '',
        ...(request.signal ? { signal: request.signal } : {}),
      });
    },
  };
}

/**
 * The `anthropic-beta` header of a request with a thinking budget on a Claude 4 model: interleaved thinking
 * (so it thinks after each tool result too), after any beta the client already sends (the sign-in's).
 * Adaptive thinking interleaves without it.
 */
function betaHeaders(options: ClientOptions, thinking: boolean): Record<string, string> | undefined {
  if (!thinking || !needsInterleavedBeta(options.model)) return undefined;
  const existing = Object.entries(options.headers ?? {}).find(
    ([name]) => name.toLowerCase() === 'anthropic-beta',
  );
  return {
    'anthropic-beta': existing ? `${existing[1]},${INTERLEAVED_THINKING_BETA}` : INTERLEAVED_THINKING_BETA,
  };
}
