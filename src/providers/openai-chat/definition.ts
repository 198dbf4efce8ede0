/** OpenAI Chat Completions: OpenAI's own, and the OpenAI-compatible router and local servers. */
import type { ProviderDefinition } from '../definition.js';
import { OPENAI_MODELS, OPENAI_PRICES, OPENAI_PROVIDER } from '../openai-shared/openai-provider.js';
import { openAIEncoding, openAIImageEstimate } from '../openai-shared/openai-tokens.js';
import { familyOfModelId } from '../shared/model-family.js';
import {
  DEEPSEEK,
  DEEPSEEK_MODELS,
  DEEPSEEK_PRICES,
  LMSTUDIO,
  OLLAMA,
  OPEN_WEIGHT_MODELS,
  OPENROUTER,
  VLLM,
} from './presets.js';

export const definition: ProviderDefinition = {
  api: 'openai-chat',
  apiName: 'chat',
  title: 'OpenAI Chat Completions',
  providers: [OPENAI_PROVIDER, DEEPSEEK, OPENROUTER, OLLAMA, LMSTUDIO, VLLM],
  createClient: async (options) => (await import('./client.js')).createOpenAIChatClient(options),
  modelFamily: familyOfModelId,
  models: [...OPENAI_MODELS, ...DEEPSEEK_MODELS, ...OPEN_WEIGHT_MODELS],
  prices: [...OPENAI_PRICES, ...DEEPSEEK_PRICES],
  imageLimits: { perRequest: 50 * 1024 * 1024, label: 'Chat Completions' },
  listModels: async (request) =>
    (await import('../shared/list-models.js')).listModels({ ...request, api: 'openai-chat' }),
  imageTokens: openAIImageEstimate,
  exactEncoding: openAIEncoding,
};
