/**
 * Where a client's key and endpoint come from when core passes none: `options.env` only (never
 * `process.env` behind the caller's back), the config's base URL first, then the variables and default
 * of the API's own provider (the first its definition lists).
 */
import { type ClientOptions, MissingApiKeyError } from '../../protocol/index.js';
import { ownProviderOf } from '../lookup.js';

function firstSet(values: ReadonlyArray<string | undefined>): string | undefined {
  return values.map((value) => value?.trim() ?? '').find((value) => value !== '');
}

/** The endpoint to call: `options.baseUrl` (config), then the API's variable, then its default. */
export function resolveBaseUrl(options: Pick<ClientOptions, 'api' | 'baseUrl' | 'env'>): string {
  const own = ownProviderOf(options.api);
  const url = firstSet([options.baseUrl, own ? options.env[own.baseUrlVariable] : undefined]);
  const resolved = url ?? own?.defaultBaseUrl;
  if (resolved === undefined) throw new Error(`wire API ${options.api} has no default endpoint`);
  return resolved;
}

/** The API's key from the first of its variables that is set (blank counts as unset). */
export function resolveApiKey(options: Pick<ClientOptions, 'api' | 'env'>): string | undefined {
  return firstSet((ownProviderOf(options.api)?.keyVariables ?? []).map((name) => options.env[name]));
}

/** The error for a request without a key: the API's own provider's first key variable and its login. */
export function missingApiKey(api: string): MissingApiKeyError {
  const own = ownProviderOf(api);
  return new MissingApiKeyError(
    own?.keyVariables[0] ?? 'an API key',
    api,
    own?.storesKey === true ? own.name : undefined,
  );
}
