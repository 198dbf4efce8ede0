/** OpenAI Responses: the `openai` provider's other API (and the only one a ChatGPT sign-in serves). */
import type { ProviderDefinition } from '../definition.js';
import { OPENAI_MODELS, OPENAI_PRICES, OPENAI_PROVIDER } from '../openai-shared/openai-provider.js';
import { openAIEncoding, openAIImageEstimate } from '../openai-shared/openai-tokens.js';
import { familyOfModelId } from '../shared/model-family.js';

export const definition: ProviderDefinition = {
  api: 'openai-responses',
  apiName: 'responses',
  title: 'OpenAI Responses',
  providers: [OPENAI_PROVIDER],
  createClient: async (options) => (await import('./client.js')).createOpenAIResponsesClient(options),
  modelFamily: familyOfModelId,
  models: OPENAI_MODELS,
  prices: OPENAI_PRICES,
  imageLimits: { perRequest: 50 * 1024 * 1024, label: 'OpenAI' },
  listModels: async (request) =>
    (await import('../shared/list-models.js')).listModels({ ...request, api: 'openai-responses' }),
  imageTokens: openAIImageEstimate,
  exactEncoding: openAIEncoding,
};
