/**
 * The provider factory. Each adapter (and so each SDK) is imported only when a client for it is built,
 * so `cody list` loads no SDK and `cody chat` loads exactly one.
 */
import type { ClientOptions, ModelClient } from '../protocol/index.js';

export { normalizeItems, ABORTED_OUTPUT } from './shared/normalize-items.js';
export { isReplayableTo, modelFamily } from './shared/origin.js';
export { API_KEY_VARIABLES, BASE_URL_VARIABLES, DEFAULT_BASE_URLS } from './shared/endpoint.js';
export { listModels } from './shared/list-models.js';
export { SIGN_IN_FAILED_CODE, SIGN_IN_REFUSED_CODE } from './shared/bearer-fetch.js';

export async function createModelClient(options: ClientOptions): Promise<ModelClient> {
  switch (options.api) {
    case 'openai-chat':
      return (await import('./openai-chat/client.js')).createOpenAIChatClient(options);
    case 'openai-responses':
      return (await import('./openai-responses/client.js')).createOpenAIResponsesClient(options);
    case 'anthropic-messages':
      return (await import('./anthropic-messages/client.js')).createAnthropicClient(options);
    case 'gemini':
      return (await import('./gemini/client.js')).createGeminiClient(options);
    default: {
      const exhaustive: never = options.api;
      throw new Error(`unknown wire API ${String(exhaustive)}`);
    }
  }
}
