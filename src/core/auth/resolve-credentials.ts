/**
 * Which credential a turn uses, in the documented order: a sign-in the person chose with `--auth` (the
 * ChatGPT sign-in from Codex, the Claude sign-in from Claude Code) — an explicit choice wins over every
 * implicit source — else the provider's environment variable, else a key saved with `cody auth login`
 * ($CODY_HOME/auth.json). What comes out is exactly what the provider client needs (key or bearer,
 * headers, endpoint) plus where it came from; nothing is copied anywhere.
 */
import type { ClientOptions } from '../../protocol/index.js';
import { isPresetProvider, type Provider, type Selection } from '../config/index.js';
import { CodyError } from '../errors.js';
import { CLAUDE_OAUTH_BETA, readClaudeCredential } from './claude-signin.js';
import { CHATGPT_CODEX_BASE_URL, readCodexCredential } from './codex-signin.js';
import { keyStoreFile, readStoredKeys, storesKey } from './key-store.js';
import { endpointOf, endpointSettings, keyFromEnvironment } from './provider-endpoints.js';

type Env = Readonly<Record<string, string | undefined>>;

export type CredentialSource =
  | { kind: 'environment'; variable: string }
  | { kind: 'auth.json'; file: string }
  | { kind: 'codex'; file: string; mode: 'chatgpt' | 'api-key' }
  | { kind: 'claude-code'; file: string }
  | { kind: 'none' };

export type ClientCredentials = Pick<
  ClientOptions,
  'apiKey' | 'bearer' | 'headers' | 'baseUrl' | 'endpointKind'
>;

export interface ResolvedCredentials {
  source: CredentialSource;
  /** The secret as it stands now, for `cody auth status` to show its last four characters. Never printed. */
  secret?: string;
  /** Milliseconds since the epoch when a sign-in's access token expires, when known. */
  expiresAt?: number;
  client: ClientCredentials;
}

/** The headers Codex sends to ChatGPT's backend besides the token and account id (see DECISIONS.md). */
export const CHATGPT_HEADERS = {
  'OpenAI-Beta': 'responses=experimental',
  originator: 'cody',
  Accept: 'text/event-stream',
} as const;

export function isPreset(provider: Provider): boolean {
  return isPresetProvider(provider);
}

/** `codyHome` is `$CODY_HOME`, where `cody auth login` keeps keys. */
export async function resolveCredentials(
  selection: Selection,
  env: Env,
  codyHome: string,
): Promise<ResolvedCredentials> {
  const { provider } = selection;
  const endpoint = endpointSettings(provider);
  const presetUrl = isPreset(provider) ? endpointOf(provider, selection.baseUrl, env) : undefined;
  const base: ClientCredentials = {
    ...(presetUrl !== undefined ? { baseUrl: presetUrl } : {}),
    ...(selection.baseUrl && !isPreset(provider) ? { baseUrl: selection.baseUrl } : {}),
    ...(endpoint.headers ? { headers: endpoint.headers } : {}),
  };

  const signIn = await signInCredentials(selection, env, base);
  if (signIn) return signIn;

  const fromEnvironment = keyFromEnvironment(provider, env);
  if (fromEnvironment) {
    return {
      source: { kind: 'environment', variable: fromEnvironment.variable },
      secret: fromEnvironment.key,
      client: { ...base, apiKey: fromEnvironment.key },
    };
  }

  if (storesKey(provider)) {
    const file = keyStoreFile(codyHome);
    const stored = (await readStoredKeys(file))[provider];
    if (stored !== undefined && stored !== '') {
      return { source: { kind: 'auth.json', file }, secret: stored, client: { ...base, apiKey: stored } };
    }
  }

  return { source: { kind: 'none' }, client: base };
}

/** The sign-in chosen with `--auth`, read from the file the other program keeps; undefined when none was. */
async function signInCredentials(
  selection: Selection,
  env: Env,
  base: ClientCredentials,
): Promise<ResolvedCredentials | undefined> {
  if (selection.auth === 'chatgpt') {
    const codex = await readCodexCredential(env);
    if (codex.kind === 'api-key') {
      return {
        source: { kind: 'codex', file: codex.file, mode: 'api-key' },
        secret: codex.apiKey,
        client: { ...base, apiKey: codex.apiKey },
      };
    }
    return {
      source: { kind: 'codex', file: codex.file, mode: 'chatgpt' },
      secret: codex.accessToken,
      ...(codex.expiresAt !== undefined ? { expiresAt: codex.expiresAt } : {}),
      client: {
        baseUrl: selection.baseUrl ?? CHATGPT_CODEX_BASE_URL,
        bearer: codex.bearer,
        headers: CHATGPT_HEADERS,
        endpointKind: 'chatgpt-codex',
      },
    };
  }

  if (selection.auth === 'claude') {
    const claude = await readClaudeCredential(env);
    return {
      source: { kind: 'claude-code', file: claude.file },
      secret: claude.accessToken,
      ...(claude.expiresAt !== undefined ? { expiresAt: claude.expiresAt } : {}),
      client: {
        ...base,
        bearer: claude.bearer,
        headers: { 'anthropic-beta': CLAUDE_OAUTH_BETA },
        endpointKind: 'claude-oauth',
      },
    };
  }
  return undefined;
}

/** The credentials a request needs, or a one-line error when a hosted preset has no key at all. */
export async function clientCredentials(
  selection: Selection,
  env: Env,
  codyHome: string,
): Promise<ClientCredentials> {
  const resolved = await resolveCredentials(selection, env, codyHome);
  const endpoint = endpointSettings(selection.provider);
  if (resolved.source.kind === 'none' && isPreset(selection.provider) && endpoint.needsKey) {
    throw new CodyError(
      `Missing API key for ${selection.provider}: set ${endpoint.keyVariables.join(' or ')}.`,
      'auth',
      { hint: 'store-key', hintSubject: selection.provider },
    );
  }
  return resolved.client;
}
