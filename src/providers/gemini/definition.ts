/** Google Gemini (the Generative Language API). */
import type { ProviderDefinition } from '../definition.js';
import { checkWithGet } from '../shared/check-credential.js';
import { familyOfModelId } from '../shared/model-family.js';
import { GEMINI_KNOWN_MODELS, GEMINI_MODELS, GEMINI_PRICES } from './gemini-models.js';
import { geminiImageEstimate } from './image-tokens.js';

export const definition: ProviderDefinition = {
  api: 'gemini',
  apiName: 'gemini',
  title: 'Google Gemini',
  providers: [
    {
      name: 'google',
      // The current general coding model.
      defaultModel: 'gemini-3.1-pro-preview',
      keyVariables: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
      baseUrlVariable: 'GOOGLE_GEMINI_BASE_URL',
      defaultBaseUrl: 'https://generativelanguage.googleapis.com/',
      needsKey: true,
      storesKey: true,
      ownsModels: /^(gemini-|gemma-)/,
      knownModels: GEMINI_KNOWN_MODELS,
      checkCredential: (request) =>
        checkWithGet(request, 'v1beta/models', request.apiKey ? { 'x-goog-api-key': request.apiKey } : {}),
    },
  ],
  createClient: async (options) => (await import('./client.js')).createGeminiClient(options),
  modelFamily: familyOfModelId,
  models: GEMINI_MODELS,
  prices: GEMINI_PRICES,
  listModels: async (request) => (await import('./list-models.js')).listGeminiModels(request),
  imageLimits: { perRequest: 20 * 1024 * 1024, label: 'Gemini' },
  imageTokens: geminiImageEstimate,
};
