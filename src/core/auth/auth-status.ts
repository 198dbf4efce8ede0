/**
 * `cody auth status`, per provider: where its credential comes from (environment, auth.json, Codex,
 * Claude Code), its last four characters, and whether it works — one cheap request, or "not checked"
 * offline. The secret itself never leaves this module.
 */
import { type CredentialCheck, requirePreset } from '../../providers/lookup.js';
import { authModeOf, type CodyConfig, type Provider, resolveSelection } from '../config/index.js';
import { errorMessage } from '../errors.js';
import { lastFour, loginProviders } from './key-store.js';
import { endpointOf } from './provider-endpoints.js';
import { type CredentialSource, resolveCredentials } from './resolve-credentials.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface ProviderAuthStatus {
  provider: Provider;
  source: CredentialSource | { kind: 'error'; message: string };
  /** `…1234`. */
  hint?: string;
  expiresAt?: number;
  check: CredentialCheck | { state: 'missing' };
}

export async function authStatus(
  config: CodyConfig,
  env: Env,
  codyHome: string,
  options: { offline: boolean },
): Promise<ProviderAuthStatus[]> {
  return Promise.all(
    loginProviders().map((provider) => statusOf(provider, config, env, codyHome, options.offline)),
  );
}

async function statusOf(
  provider: Provider,
  config: CodyConfig,
  env: Env,
  codyHome: string,
  offline: boolean,
): Promise<ProviderAuthStatus> {
  const auth = authModeOf(config, provider);
  const selection = {
    ...resolveSelection({ provider }),
    ...(config.baseUrls?.[provider] ? { baseUrl: config.baseUrls[provider] } : {}),
    ...(auth ? { auth } : {}),
  };
  let resolved;
  try {
    resolved = await resolveCredentials(selection, env, codyHome);
  } catch (error) {
    return { provider, source: { kind: 'error', message: errorMessage(error) }, check: { state: 'missing' } };
  }
  const { source, secret } = resolved;
  const base: ProviderAuthStatus = {
    provider,
    source,
    ...(secret ? { hint: lastFour(secret) } : {}),
    ...(resolved.expiresAt !== undefined ? { expiresAt: resolved.expiresAt } : {}),
    check: { state: 'missing' },
  };
  if (source.kind === 'none' || secret === undefined) return base;
  if (offline) return { ...base, check: { state: 'not-checked', reason: 'offline' } };
  if (source.kind === 'codex' && source.mode === 'chatgpt') {
    return { ...base, check: { state: 'not-checked', reason: 'ChatGPT sign-ins are checked by using them' } };
  }
  const checkCredential = requirePreset(provider).checkCredential;
  const baseUrl = resolved.client.baseUrl ?? endpointOf(provider, config.baseUrls?.[provider], env);
  if (!checkCredential || baseUrl === undefined)
    return { ...base, check: { state: 'not-checked', reason: 'no cheap request' } };
  const bearer = source.kind === 'claude-code';
  const check = await checkCredential({
    baseUrl,
    ...(bearer ? { bearerToken: await resolved.client.bearer?.token() } : { apiKey: secret }),
    ...(resolved.client.headers ? { headers: resolved.client.headers } : {}),
  });
  return { ...base, check };
}
