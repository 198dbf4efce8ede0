/**
 * The provider factory. Each adapter (and so each SDK) is imported only when a client for it is built,
 * so `cody list` loads no SDK and `cody chat` loads exactly one.
 */
import type { ClientOptions, ModelClient, WireApi } from '../protocol/index.js';

export { normalizeItems, ABORTED_OUTPUT } from './shared/normalize-items.js';
export { isReplayableTo, modelFamily } from './shared/origin.js';

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

/** The environment variable holding each API's key (the first one set wins). */
export const API_KEY_VARIABLES: Record<WireApi, readonly string[]> = {
  'openai-chat': ['OPENAI_API_KEY'],
  'openai-responses': ['OPENAI_API_KEY'],
  'anthropic-messages': ['ANTHROPIC_API_KEY'],
  gemini: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
};

/** The environment variable overriding each API's endpoint. */
export const BASE_URL_VARIABLES: Record<WireApi, string> = {
  'openai-chat': 'OPENAI_BASE_URL',
  'openai-responses': 'OPENAI_BASE_URL',
  'anthropic-messages': 'ANTHROPIC_BASE_URL',
  gemini: 'GOOGLE_GEMINI_BASE_URL',
};
