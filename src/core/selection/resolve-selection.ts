/**
 * Which provider, API, model, base URL and sign-in a conversation's next turn runs with: the one place
 * every front end (`cody chat`, the REPL, the library, `cody serve`) gets the answer from. In order:
 *
 * 1. the conversation's own selection: what a caller chose for it (`create`'s selection, `setSelection`,
 *    `PUT …/selection`), else what its rollout recorded (its last turn, else its creation) —
 * 2. unless `cody set-provider` (or `cody new --provider`, the REPL's `/model`) chose after that was
 *    recorded: that choice is aimed at the conversation the person works on;
 * 3. config.json's selection (written by hand: the default for new conversations only);
 * 4. the defaults (`openai`, its first API, its default model).
 *
 * The sign-in (`--auth`) is an explicit choice per provider, kept in config.json; it applies whenever
 * the selected API can use it (the ChatGPT sign-in serves only the Responses API). When it cannot, the
 * turn uses the provider's key, and the endpoint saved with the sign-in is not used either (a key must
 * not reach a server chosen for a token).
 */
import {
  type AuthMode,
  apiNameOf,
  apiNamesOf,
  authModeOf,
  type CodyConfig,
  DEFAULT_PROVIDER,
  defaultModelOf,
  isWireApi,
  type Provider,
  type Selection,
  signInServes,
  toWireApi,
} from '../config/index.js';
import type { SelectionChoice } from '../conversation/index.js';
import type { ResumedRollout } from '../rollout/index.js';
import { isProvider } from '../config/index.js';

/** What a conversation's rollout says it last ran with, and when that was recorded (ISO-8601). */
export interface RecordedSelection {
  provider: string;
  /** The wire API id (`openai-chat`), or an API name in rollouts of older versions. */
  api: string;
  model: string;
  at?: string;
}

/** What a rollout says the conversation last ran with: its last turn's context, else its session_meta. */
export function recordedSelectionOf(
  rollout: Pick<ResumedRollout, 'meta' | 'lastTurnContext' | 'lastTurnContextAt'>,
): RecordedSelection {
  const ran = rollout.lastTurnContext ?? rollout.meta;
  const at = rollout.lastTurnContext ? rollout.lastTurnContextAt : rollout.meta.timestamp;
  return { provider: ran.provider, api: ran.api, model: ran.model, ...(at !== undefined ? { at } : {}) };
}

export interface SelectionSources {
  /** What the conversation's rollout recorded; absent for a conversation being created. */
  recorded?: RecordedSelection;
  /** A caller's explicit choice for this conversation. */
  choice?: SelectionChoice;
  /** config.json: set-provider's choice (`selectedAt`), sign-ins, base URLs. */
  config: CodyConfig;
}

/** Which layer the provider, API and model came from. */
export type SelectionSource = 'choice' | 'recorded' | 'set-provider' | 'config' | 'defaults';

export interface ResolvedSelection extends Selection {
  source: SelectionSource;
  /** The provider's sign-in, not used because this API cannot use it (the key is used instead). */
  unusableSignIn?: AuthMode;
}

interface Picked {
  provider: Provider;
  apiName: string;
  model: string;
  source: SelectionSource;
}

/** The selection, resolved in the order above. Throws a 'usage' error for a caller's impossible choice. */
export function resolveConversationSelection(sources: SelectionSources): ResolvedSelection {
  const picked = pick(sources);
  const api = toWireApi(picked.provider, picked.apiName);
  const { config } = sources;
  let auth = authModeOf(config, picked.provider);
  let baseUrl = config.baseUrls?.[picked.provider];
  let unusableSignIn: AuthMode | undefined;
  if (auth !== undefined && !signInServes(picked.provider, api)) {
    unusableSignIn = auth;
    auth = undefined;
    baseUrl = undefined;
  }
  return {
    provider: picked.provider,
    apiName: apiNameOf(api),
    api,
    model: picked.model,
    ...(baseUrl ? { baseUrl } : {}),
    ...(auth ? { auth } : {}),
    source: picked.source,
    ...(unusableSignIn ? { unusableSignIn } : {}),
  };
}

function pick({ recorded, choice, config }: SelectionSources): Picked {
  if (choice) {
    // What the choice leaves out comes from the config when it names the same provider, else the defaults.
    const provider = choice.provider;
    const same = (config.provider ?? DEFAULT_PROVIDER) === provider;
    return {
      provider,
      apiName: choice.api ?? (same ? config.api : undefined) ?? apiNamesOf(provider)[0] ?? '',
      model: choice.model ?? (same ? config.model : undefined) ?? defaultModelOf(provider),
      source: 'choice',
    };
  }
  const ownRecord = recorded ? usable(recorded) : undefined;
  if (ownRecord && !choseSince(config, recorded?.at)) return ownRecord;
  const provider = config.provider ?? DEFAULT_PROVIDER;
  const chosen = config.provider !== undefined || config.api !== undefined || config.model !== undefined;
  return {
    provider,
    apiName: config.api ?? apiNamesOf(provider)[0] ?? '',
    model: config.model ?? defaultModelOf(provider),
    source: config.selectedAt !== undefined ? 'set-provider' : chosen ? 'config' : 'defaults',
  };
}

/** The recorded selection when this version still knows its provider and API. */
function usable(recorded: RecordedSelection): Picked | undefined {
  if (!isProvider(recorded.provider) || recorded.model === '') return undefined;
  const apiName = isWireApi(recorded.api) ? apiNameOf(recorded.api) : recorded.api;
  try {
    toWireApi(recorded.provider, apiName);
  } catch {
    return undefined; // an API this version no longer knows: the configured selection applies
  }
  return { provider: recorded.provider, apiName, model: recorded.model, source: 'recorded' };
}

/** Whether set-provider chose after the conversation's selection was recorded. */
function choseSince(config: CodyConfig, recordedAt: string | undefined): boolean {
  if (config.selectedAt === undefined) return false;
  const chosen = Date.parse(config.selectedAt);
  if (Number.isNaN(chosen)) return false;
  if (recordedAt === undefined) return true;
  const recorded = Date.parse(recordedAt);
  return Number.isNaN(recorded) || chosen > recorded;
}
