/** Anthropic Messages: Claude, with a key or the Claude sign-in (Claude Code's login). */
import type { ProviderDefinition } from '../definition.js';
import { checkWithGet } from '../shared/check-credential.js';
import { anthropicImageEstimate } from './image-tokens.js';

export const definition: ProviderDefinition = {
  api: 'anthropic-messages',
  apiName: 'messages',
  title: 'Anthropic Messages',
  providers: [
    {
      name: 'anthropic',
      defaultModel: 'claude-sonnet-4-6',
      keyVariables: ['ANTHROPIC_API_KEY'],
      baseUrlVariable: 'ANTHROPIC_BASE_URL',
      defaultBaseUrl: 'https://api.anthropic.com',
      needsKey: true,
      storesKey: true,
      ownsModels: /^claude-/,
      knownModels: [
        'claude-opus-4-1',
        'claude-opus-4-0',
        'claude-sonnet-4-5',
        'claude-sonnet-4-6',
        'claude-sonnet-4-0',
        'claude-haiku-4-5',
        'claude-3-7-sonnet-latest',
        'claude-3-5-haiku-latest',
      ],
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
  // Figures from Anthropic's published model pages; most specific first.
  models: [
    {
      pattern: /^claude-opus-4-[5-9]/,
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      reasoning: true,
      effort: true,
    },
    {
      pattern: /^claude-opus-4/,
      contextWindow: 200_000,
      maxOutputTokens: 32_000,
      reasoning: true,
      effort: true,
    },
    {
      pattern: /^claude-sonnet-4/,
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      reasoning: true,
      effort: true,
    },
    {
      pattern: /^claude-haiku-4/,
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      reasoning: true,
      effort: true,
    },
    {
      pattern: /^claude-3-7-sonnet/,
      contextWindow: 200_000,
      maxOutputTokens: 8_192,
      reasoning: true,
      effort: true,
    },
    { pattern: /^claude-(3-5-sonnet|3-5-haiku)/, contextWindow: 200_000, maxOutputTokens: 8_192 },
    // Every Claude model since Claude 3 has at least a 200k window; newer families fall back here.
    { pattern: /^claude-/, contextWindow: 200_000, maxOutputTokens: 32_000 },
  ],
  prices: [
    { pattern: /^claude-opus-4/, input: 15, cachedInput: 1.5, output: 75 },
    { pattern: /^claude-sonnet-4/, input: 3, cachedInput: 0.3, output: 15 },
    { pattern: /^claude-3-5-haiku/, input: 0.8, cachedInput: 0.08, output: 4 },
    { pattern: /^claude-haiku-4/, input: 1, cachedInput: 0.1, output: 5 },
  ],
  imageLimits: { perImage: 5 * 1024 * 1024, label: 'Anthropic' },
  imageTokens: anthropicImageEstimate,
};
