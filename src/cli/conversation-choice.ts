/**
 * A provider, API or model chosen for ONE conversation (`/model`, `/provider`, `cody chat --model`,
 * `--provider`, `--api`): checked as `set-provider` checks it, then given to `Conversation.setSelection`,
 * so config.json and every other conversation keep theirs (resolve-selection.ts: a choice wins for its
 * conversation, and its next turn records it in the rollout).
 */
import {
  apiNameOf,
  type CodyConfig,
  DEFAULT_PROVIDER,
  isWireApi,
  providerList,
  toWireApi,
} from '../core/index.js';
import { UsageError } from '../core/index.js';
import { applyProviderChoice } from '../core/index.js';
import type { SelectionChoice, SessionStatus } from '../core/index.js';
import { closestMatch } from './suggest.js';

export interface ChoiceWords {
  provider?: string;
  api?: string;
  model?: string;
}

/**
 * The full choice for a conversation now running `current`. What is not given stays as the conversation
 * has it while the provider stays the same (`/provider openai chat` keeps the model); for another
 * provider, config.json's model when it configures that provider, else the provider's default.
 */
export function conversationChoice(
  config: CodyConfig,
  current: Pick<SessionStatus, 'provider' | 'api' | 'model'>,
  words: ChoiceWords,
): SelectionChoice {
  if (words.provider !== undefined) checkProviderName(words.provider);
  const provider = words.provider ?? current.provider;
  const same = provider.toLowerCase() === current.provider;
  const api = words.api ?? (same ? apiNameOfStatus(current) : undefined);
  const model = words.model ?? (same ? current.model : undefined);
  // applyProviderChoice validates (unknown provider, API, a model of another provider) and fills the gaps.
  const next = applyProviderChoice(config, {
    provider,
    ...(api !== undefined ? { api } : {}),
    ...(model !== undefined ? { model } : {}),
  });
  const chosen = next.provider ?? DEFAULT_PROVIDER;
  return { provider: chosen, ...(next.api !== undefined ? { api: next.api } : {}), model: next.model ?? '' };
}

/**
 * An unknown provider name is a usage error that names the closest known one (`opneai` → `openai`);
 * a known one (any case) passes.
 */
export function checkProviderName(text: string): void {
  const providers = providerList();
  if (providers.some((provider) => provider === text.toLowerCase())) return;
  const close = closestMatch(text.toLowerCase(), providers);
  throw new UsageError(
    `Unknown provider '${text}'.${close !== undefined ? ` Did you mean '${close}'?` : ''} Choose one of: ${providers.join(', ')}.`,
  );
}

/** Whether any of `--provider`, `--api`, `--model` was given. */
export function hasChoice(words: ChoiceWords): boolean {
  return words.provider !== undefined || words.api !== undefined || words.model !== undefined;
}

/** The API name (`chat`) of a status's API, which may be a wire id (`openai-chat`) or a name already. */
function apiNameOfStatus(current: Pick<SessionStatus, 'provider' | 'api'>): string {
  if (isWireApi(current.api)) return apiNameOf(current.api);
  const provider = providerList().find((name) => name === current.provider);
  return provider === undefined ? current.api : apiNameOf(toWireApi(provider, current.api));
}
