/** Anthropic Messages: Claude, with a key or the Claude sign-in (Claude Code's login). */
import type { ProviderDefinition } from '../definition.js';
import { checkWithGet } from '../shared/check-credential.js';
import { CLAUDE_KNOWN_MODELS, claudeModelEntries, claudePriceEntries } from './claude-models.js';
import { anthropicImageEstimate } from './image-tokens.js';

export const definition: ProviderDefinition = {
  api: 'anthropic-messages',
  apiName: 'messages',
  title: 'Anthropic Messages',
  providers: [
    {
      name: 'anthropic',
      // The current general coding model.
      defaultModel: 'claude-sonnet-5-5',
      keyVariables: ['ANTHROPIC_API_KEY'],
      baseUrlVariable: 'ANTHROPIC_BASE_URL',
      defaultBaseUrl: 'https://api.anthropic.com',
      needsKey: true,
      storesKey: true,
      ownsModels: /^claude-/,
      knownModels: CLAUDE_KNOWN_MODELS,
      checkCredential: (request) =>
        checkWithGet(request, 'v1/models', {
          'anthropic-version': '2023-06-01',
          ...(request.apiKey ? { 'x-api-key': request.apiKey } : {}),
        }),
      signIn: { mode: 'claude', label: 'Claude (from Claude Code)' },
    },
  ],
  createClient: async (options) => (await import('./client.js')).createAnthropicClient(options),
  // Anthropic accepts thinking signatures from any Claude model, so its family is the API itself.
  modelFamily: () => 'claude',
  models: [
    ...claudeModelEntries('^'),
    // Every Claude model since Claude 3 has at least a 200k window; newer families fall back here.
    { pattern: /^claude-/, contextWindow: 200_000, maxOutputTokens: 32_000 },
  ],
  prices: claudePriceEntries('^'),
  listModels: async (request) => (await import('./list-models.js')).listAnthropicModels(request),
  imageLimits: { perImage: 5 * 1024 * 1024, label: 'Anthropic' },
  imageTokens: anthropicImageEstimate,
};
