/** A `ModelClient` over the AWS SDK's Bedrock Runtime `ConverseStream`, signed with SigV4. */
import { BedrockRuntimeClient, ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime';
// eslint-disable-next-line no-restricted-imports -- the AWS SDK's own `core` package, not Cody's core layer.
import { state as nodeVersionWarning } from '@aws-sdk/core/client';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { ClientOptions, ModelClient, ModelRequest, StreamEvent } from '../../protocol/index.js';
import {
  resolveBedrockApiKey,
  resolveCredentials,
  resolveEndpoint,
  resolveRegion,
} from './aws-environment.js';
import { BEDROCK_API } from './definition.js';
import { convertToConverseRequest } from './convert-to-converse-request.js';
import { failureEvents, mapBedrockError } from './map-converse-error.js';
import { mapConverseStream } from './map-converse-stream.js';
import { conversionInput } from '../shared/conversion-input.js';

/**
 * Builds the client; throws a `ProviderError` (kind `auth`) at once without a region. A Bedrock API key
 * (core's, else `AWS_BEARER_TOKEN_BEDROCK`) is sent as a bearer token; otherwise requests are signed with
 * SigV4, the credentials looked up at the first request. `stream()` never throws: every failure is an
 * `error` event followed by `finish`.
 */
export function createBedrockConverseClient(options: ClientOptions): ModelClient {
  // The SDK's one-time process warning that its releases after January 2027 need Node 22 would print
  // into the person's terminal; this pinned release runs on Node 20 (Cody's engines), so it is not said.
  nodeVersionWarning.warningEmitted = true;
  const region = resolveRegion(options.env);
  const endpoint = resolveEndpoint(options);
  const apiKey = resolveBedrockApiKey(options);
  const credentials = resolveCredentials(options.env);
  const sdk = new BedrockRuntimeClient({
    region,
    ...(endpoint !== undefined ? { endpoint } : {}),
    credentials: credentials.provider,
    ...(apiKey !== undefined ? { token: { token: apiKey } } : {}),
    // HTTP/1.1 over node:http, to AWS as to a loopback `http://` server: the SDK's default HTTP/2
    // handler speaks h2 even to plain http, which no ordinary local server answers.
    // `timeoutMs` bounds the wait for the answer and any silence within its stream; a timeout throws
    // (the handler would otherwise only print a warning and carry on).
    requestHandler: new NodeHttpHandler(
      options.timeoutMs !== undefined
        ? { requestTimeout: options.timeoutMs, throwOnRequestTimeout: true, socketTimeout: options.timeoutMs }
        : {},
    ),
    // Retry is owned by core's Session, in exactly one place.
    maxAttempts: 1,
    retryMode: 'standard',
    // Every setting the SDK would otherwise read from process.env or ~/.aws/config, given here.
    defaultsMode: 'standard',
    useFipsEndpoint: false,
    useDualstackEndpoint: false,
    authSchemePreference: apiKey !== undefined ? ['httpBearerAuth'] : ['sigv4'],
    userAgentAppId: 'cody',
  });
  const secrets = apiKey !== undefined ? [apiKey, ...credentials.secrets] : credentials.secrets;
  return {
    api: BEDROCK_API,
    model: options.model,
    async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
      let events;
      try {
        const { body } = convertToConverseRequest(conversionInput(options, request));
        const response = await sdk.send(
          new ConverseStreamCommand(body),
          request.signal ? { abortSignal: request.signal } : {},
        );
        events = response.stream;
      } catch (error) {
        yield* failureEvents(mapBedrockError(error, { secrets }));
        return;
      }
      if (!events) {
        yield* failureEvents(
          mapBedrockError(new SyntaxError('the response had no event stream'), { secrets }),
        );
        return;
      }
      yield* mapConverseStream(events, {
        model: options.model,
        secrets,
        ...(request.signal ? { signal: request.signal } : {}),
      });
    },
  };
}
