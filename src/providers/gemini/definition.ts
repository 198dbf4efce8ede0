/** Google Gemini (the Generative Language API). */
import type { ProviderDefinition } from '../definition.js';
import { checkWithGet } from '../shared/check-credential.js';
import { familyOfModelId } from '../shared/model-family.js';
import { geminiImageEstimate } from './image-tokens.js';

export const definition: ProviderDefinition = {
  api: 'gemini',
  apiName: 'gemini',
  title: 'Google Gemini',
  providers: [
    {
      name: 'google',
      defaultModel: 'gemini-2.5-flash',
      keyVariables: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
      baseUrlVariable: 'GOOGLE_GEMINI_BASE_URL',
      defaultBaseUrl: 'https://generativelanguage.googleapis.com/',
      needsKey: true,
      storesKey: true,
      ownsModels: /^(gemini-|gemma-)/,
      knownModels: ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite', 'gemini-2.0-flash'],
      checkCredential: (request) =>
        checkWithGet(request, 'v1beta/models', request.apiKey ? { 'x-goog-api-key': request.apiKey } : {}),
    },
  ],
  createClient: async (options) => (await import('./client.js')).createGeminiClient(options),
  modelFamily: familyOfModelId,
  // Figures from Google's published model pages; most specific first.
  models: [
    {
      pattern: /^gemini-(2\.5|3)(\.\d+)?-(pro|flash)/,
      contextWindow: 1_048_576,
      maxOutputTokens: 65_536,
      reasoning: true,
      effort: true,
    },
    { pattern: /^gemini-2\.0-flash/, contextWindow: 1_048_576, maxOutputTokens: 8_192 },
    // Gemini models since 1.5 accept at least 1M tokens; newer families fall back here.
    { pattern: /^gemini-/, contextWindow: 1_048_576, maxOutputTokens: 8_192 },
  ],
  prices: [
    { pattern: /^gemini-2\.5-pro/, input: 1.25, cachedInput: 0.31, output: 10 },
    { pattern: /^gemini-2\.5-flash-lite/, input: 0.1, cachedInput: 0.025, output: 0.4 },
    { pattern: /^gemini-2\.5-flash/, input: 0.3, cachedInput: 0.075, output: 2.5 },
  ],
  imageLimits: { perRequest: 20 * 1024 * 1024, label: 'Gemini' },
  imageTokens: geminiImageEstimate,
};
