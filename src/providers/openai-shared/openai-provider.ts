/**
 * The `openai` provider and OpenAI's model families, shared by the two OpenAI wire APIs (Chat Completions
 * lists them first, so it is the provider's default API; Responses serves the same provider). The
 * catalogue itself is openai-models.ts.
 */
import type { CredentialCheckRequest, ProviderPreset } from '../definition.js';
import { bearerKeyHeader, checkWithGet } from '../shared/check-credential.js';
import { OPENAI_KNOWN_MODELS } from './openai-models.js';

export { OPENAI_MODELS, OPENAI_PRICES } from './openai-models.js';

/** Listing models: the cheapest request an OpenAI-compatible key can be checked with. */
export function checkByListingModels(request: CredentialCheckRequest) {
  return checkWithGet(request, 'models', bearerKeyHeader(request));
}

export const OPENAI_PROVIDER: ProviderPreset = {
  name: 'openai',
  // The current general model (OpenAI's own recommendation for coding and agentic work).
  defaultModel: 'gpt-5.4',
  keyVariables: ['OPENAI_API_KEY'],
  baseUrlVariable: 'OPENAI_BASE_URL',
  defaultBaseUrl: 'https://api.openai.com/v1',
  needsKey: true,
  storesKey: true,
  ownsModels: /^(gpt-|o\d(-|$)|chatgpt-)/,
  knownModels: OPENAI_KNOWN_MODELS,
  checkCredential: checkByListingModels,
  // Codex's backend serves the GPT-5 Codex family over the Responses API only.
  signIn: {
    mode: 'chatgpt',
    label: 'ChatGPT (from Codex)',
    apis: ['openai-responses'],
    defaultModel: 'gpt-5.1-codex',
  },
};
