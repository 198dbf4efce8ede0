/**
 * Every wire API Cody speaks, one line each (its folder's `definition`). Everything that names an API or
 * a provider reads this list through `src/providers/index.ts`; nothing else keeps its own table.
 * Order matters once: a provider served by several APIs defaults to the first of them here.
 */
import { definition as anthropicMessages } from './anthropic-messages/definition.js';
import { definition as bedrockConverse } from './bedrock-converse/definition.js';
import type { ProviderDefinition } from './definition.js';
import { definition as gemini } from './gemini/definition.js';
import { definition as openaiChat } from './openai-chat/definition.js';
import { definition as openaiResponses } from './openai-responses/definition.js';

const DEFINITIONS: ProviderDefinition[] = [
  openaiChat,
  openaiResponses,
  anthropicMessages,
  gemini,
  bedrockConverse,
];

/** The registered definitions, in registry order. */
export function definitions(): readonly ProviderDefinition[] {
  return DEFINITIONS;
}

/**
 * Adds a definition after the built-in ones (tests, embedders); returns how to remove it again.
 * Throws when its wire API id or one of its new provider names is already taken by another definition.
 */
export function registerDefinition(definition: ProviderDefinition): () => void {
  if (DEFINITIONS.some((known) => known.api === definition.api || known.apiName === definition.apiName)) {
    throw new Error(`wire API ${definition.api} (${definition.apiName}) is already registered`);
  }
  for (const provider of definition.providers) {
    const taken = DEFINITIONS.flatMap((known) => known.providers).find(
      (known) => known.name === provider.name,
    );
    if (taken !== undefined && taken !== provider) {
      throw new Error(`provider ${provider.name} is already registered with other settings`);
    }
  }
  DEFINITIONS.push(definition);
  return () => {
    const index = DEFINITIONS.indexOf(definition);
    if (index >= 0) DEFINITIONS.splice(index, 1);
  };
}
